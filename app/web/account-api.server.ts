// The account API's answers, shared by the paths the spec names twice
// (/api/user/auth/login and /api/auth/login, /api/user/auth/register and /api/auth/register).
import type { ActionFunctionArgs } from "@remix-run/node";
import { apiHandler, jsonResponse } from "~/lib/api.server";
import { requireMutation } from "~/lib/api-params.server";
import { authenticateCredentials, joinGuestRowsForToken } from "./auth.server";
import { parseWith, readBody } from "~/lib/http.server";
import { issueToken } from "~/lib/identity.server";
import type { User } from "~/models/users.server";
import { registerAccount } from "~/models/users.server";
import { RegisterSchema } from "~/utils/account-schemas";

/** POST email, password → `{ token, user }` (401 on bad credentials). */
export const loginAction = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["POST"]);
    const user = await authenticateCredentials(request, await readBody(request));
    return tokenAnswer(request, user);
  });

/** `{ token, user }` for a fresh API sign-in; a guest cart built with the cookie joins the account. */
export async function tokenAnswer(request: Request, user: User): Promise<Response> {
  const cookie = await joinGuestRowsForToken(request, user.id);
  return jsonResponse({ token: await issueToken(user.id), user }, { headers: cookie ? { "Set-Cookie": cookie } : undefined });
}

/** POST name, email, password, mobile? → the code is mailed; `shape` picks the answer's form. */
export const registerAction =
  (shape: "success" | "user") =>
  ({ request }: ActionFunctionArgs) =>
    apiHandler(async () => {
      requireMutation(request, ["POST"]);
      const input = parseWith(RegisterSchema, await readBody(request));
      const { attemptId, user } = await registerAccount(input, request);
      const message = "OTP sent successfully";
      // The account gets no token until its code is verified (contract: token optional).
      // `attemptId`, sent back with verifyOtp, binds the code to this sign-up (ADR 0006).
      return jsonResponse(shape === "success" ? { success: true, message, attemptId } : { success: true, message, attemptId, user }, { status: 201 });
    });
