// End an API sign-in (docs/api.md); /api/auth/logout answers the same.
import { otherMethods } from "~/lib/api-params.server";
import { logoutAction } from "~/web/account-api.server";

export const action = logoutAction;
export const loader = otherMethods(["POST"]);
