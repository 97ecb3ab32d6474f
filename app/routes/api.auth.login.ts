// The second auth path for the same login (docs/api.md): one handler serves both.
import { otherMethods } from "~/lib/api-params.server";
import { loginAction } from "~/web/account-api.server";

export const action = loginAction;
export const loader = otherMethods(["POST"]);
