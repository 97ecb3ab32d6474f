import { otherMethods } from "~/lib/api-params.server";
import { registerAction } from "~/web/account-api.server";

export const action = registerAction("success");
export const loader = otherMethods(["POST"]);
