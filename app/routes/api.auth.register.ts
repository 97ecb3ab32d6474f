import { registerAction } from "~/web/account-api.server";
import { otherMethods } from "~/lib/api-params.server";

export const action = registerAction("user");
export const loader = otherMethods(["POST"]);
