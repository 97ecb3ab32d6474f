import { registerAction } from "~/web/account-api.server";
import { otherMethods } from "~/lib/api-params.server";

export const action = registerAction("success");
export const loader = otherMethods(["POST"]);
