import { otherMethods } from "~/lib/api-params.server";
import { loginAction } from "~/web/account-api.server";

export const action = loginAction;
export const loader = otherMethods(["POST"]);
