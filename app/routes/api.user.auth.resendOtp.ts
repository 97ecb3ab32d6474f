// A new code for a registration still waiting for verification (one of this shop's additions, docs/api.md).
import type { ActionFunctionArgs } from "@remix-run/node";
import { apiHandler } from "~/lib/api.server";
import { otherMethods, requireMutation } from "~/lib/api-params.server";
import { parseWith, readBody } from "~/lib/http.server";
import { clientOf } from "~/lib/rate-limit.server";
import { resendSignupCode } from "~/models/users/signup.server";
import { ResendSchema } from "~/utils/account-schemas";

export const action = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["POST"]);
    const { email, attemptId } = parseWith(ResendSchema, await readBody(request));
    // A handle reaches only a sign-up made through the API (404 otherwise, as for a guessed one).
    const attempt = attemptId === undefined ? null : { handle: attemptId, via: "api" as const };
    await resendSignupCode(email, attempt, clientOf(request));
    // Without a handle, the same answer whether or not the email waits for a code.
    return { success: true, message: "If this email is waiting for verification, a new OTP has been sent." };
  });
export const loader = otherMethods(["POST"]);
