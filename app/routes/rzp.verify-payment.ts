import type { ActionFunctionArgs } from "@remix-run/node";
import { apiHandler, jsonResponse } from "~/lib/api.server";
import { otherMethods, requireMutation } from "~/lib/api-params.server";
import { requireApiUser } from "~/web/auth.server";
import { AppError } from "~/lib/errors.server";
import { parseWith, readBody } from "~/lib/http.server";
import { LIMITS, rateLimit } from "~/lib/rate-limit.server";
import { PAYMENT_FAILED, verifyPayment } from "~/models/checkout.server";
import { PaymentProofSchema } from "~/utils/checkout";

/**
 * POST Razorpay's three fields → `{ success: true }` when the signature is valid for one of
 * the caller's payment orders (the payment is then recorded); `{ success: false, message }`
 * with a 400 when it is not.
 */
export const action = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["POST"]);
    const body = await readBody(request);
    const user = await requireApiUser(request);
    await rateLimit(LIMITS.verifyPayment, `u:${user.id}`);
    try {
      await verifyPayment(parseWith(PaymentProofSchema, body), user.id);
    } catch (error) {
      if (error instanceof AppError && error.message === PAYMENT_FAILED) {
        return jsonResponse({ success: false, message: PAYMENT_FAILED }, { status: 400 });
      }
      throw error;
    }
    return { success: true };
  });
export const loader = otherMethods(["POST"]);
