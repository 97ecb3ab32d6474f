import type { ActionFunctionArgs } from "@remix-run/node";
import { apiHandler, jsonResponse } from "~/lib/api.server";
import { otherMethods, requireMutation } from "~/lib/api-params.server";
import { isAppError } from "~/lib/errors.server";
import { parseWith, readBody } from "~/lib/http.server";
import { confirmPayment } from "~/models/payments/verify.server";
import { requireApiUser } from "~/web/visitor.server";
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
    try {
      await confirmPayment(parseWith(PaymentProofSchema, body), user.id);
    } catch (error) {
      if (isAppError(error, "PAYMENT_FAILED")) return jsonResponse({ success: false, message: error.message }, { status: 400 });
      throw error;
    }
    return { success: true };
  });
export const loader = otherMethods(["POST"]);
