import { loginAction } from "~/web/account-api.server";
import { otherMethods } from "~/lib/api-params.server";

export const action = loginAction;
export const loader = otherMethods(["POST"]);
