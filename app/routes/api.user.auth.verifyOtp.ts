import type { ActionFunctionArgs } from "@remix-run/node";
import { tokenAnswer } from "~/web/account-api.server";
import { apiHandler } from "~/lib/api.server";
import { otherMethods, requireMutation } from "~/lib/api-params.server";
import { parseWith, readBody } from "~/lib/http.server";
import { clientOf } from "~/lib/rate-limit.server";
import { verifySignup } from "~/models/users/signup.server";
import { OtpSchema } from "~/utils/account-schemas";

export const action = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["POST"]);
    const input = parseWith(OtpSchema, await readBody(request));
    // Without the attemptId registration answered (it is optional, docs/api.md), a code
    // confirms an API sign-up only while it is the one waiting for the email (ADR 0006).
    // Through the API a handle reaches only sign-ups made through the API.
    const attempt = input.attemptId === undefined ? null : { handle: input.attemptId, via: "api" as const };
    const user = await verifySignup(input.email, input.otp, attempt, clientOf(request));
    // The account this request just made: no older password for the token to outlive.
    return tokenAnswer(request, user, null);
  });
export const loader = otherMethods(["POST"]);
