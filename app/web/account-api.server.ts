// The account API's answers, shared by the paths docs/api.md names twice (/api/user/auth/login
// and /api/auth/login, and the same for register and logout): each parses, calls one verb and
// answers, so both paths give the same answer.
import type { ActionFunctionArgs } from "@remix-run/node";
import { apiHandler, jsonResponse } from "~/lib/api.server";
import { requireMutation } from "~/lib/api-params.server";
import { parseWith, readBody } from "~/lib/http.server";
import { clientOf } from "~/lib/rate-limit.server";
import type { User } from "~/models/users/users.server";
import { registerAccount } from "~/models/users/signup.server";
import { RegisterSchema } from "~/utils/account-schemas";
import { authenticateCredentials, signInForToken, signOutApi } from "./sign-in.server";

/** POST email, password → `{ token, user }` (401 on bad credentials). */
export const loginAction = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["POST"]);
    const { user, passwordHash } = await authenticateCredentials(request, await readBody(request));
    return tokenAnswer(request, user, passwordHash);
  });

/**
 * `{ token, user }` for a fresh API sign-in; a guest cart built with the cookie joins the account.
 * `passwordHash`: the hash the login's password was checked against (null: a sign-up just verified).
 */
export async function tokenAnswer(request: Request, user: User, passwordHash: string | null): Promise<Response> {
  const { token, cookie } = await signInForToken(request, user.id, passwordHash);
  return jsonResponse({ token, user }, { headers: cookie ? { "Set-Cookie": cookie } : undefined });
}

/** POST name, email, password, mobile? → the code is mailed; `shape` picks the answer's form. */
export const registerAction =
  (shape: "success" | "user") =>
  ({ request }: ActionFunctionArgs) =>
    apiHandler(async () => {
      requireMutation(request, ["POST"]);
      const input = parseWith(RegisterSchema, await readBody(request));
      const { attemptId, user } = await registerAccount(input, clientOf(request));
      const message = "OTP sent successfully";
      // The account gets no token until its code is verified (docs/api.md: the token is optional).
      // `attemptId` (a random handle), sent back with verifyOtp, binds the code to this sign-up (ADR 0006).
      const body = shape === "success" ? { success: true, message, attemptId } : { success: true, message, attemptId, user };
      return jsonResponse(body, { status: 201 });
    });

/**
 * POST → `{ success: true }`: ends an API sign-in (one of this shop's additions, docs/api.md).
 * The bearer token sent is revoked; a browser session sent with the request is ended too.
 */
export const logoutAction = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["POST"]);
    return jsonResponse({ success: true }, { headers: await signOutApi(request) });
  });
