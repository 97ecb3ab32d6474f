import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { apiHandler } from "~/lib/api.server";
import { otherMethods, requireMutation } from "~/lib/api-params.server";
import { readBody } from "~/lib/http.server";
import { getUserId } from "~/web/visitor.server";
import { paymentCallback } from "~/models/payments/callback.server";

/**
 * The callback URL of Razorpay's redirect flow, and of the offline test gateway's page: a form POST
 * of `razorpay_order_id, razorpay_payment_id, razorpay_signature` (a payment), or of Razorpay's
 * `error[…]` fields (a failed one). Exempt from the same-origin rule (Razorpay posts it from its
 * own origin): nothing is written without a valid signature, and a valid one only places its own
 * customer's order (docs/decisions/0012); failure fields posted by the payment order's own signed-in
 * customer end its stock hold. Answers 303 to the order's confirmation, or to the
 * payment page with what went wrong; malformed fields are a 400 in the API's error shape.
 */
export const action = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["POST"]);
    const fields = await readBody(request);
    const result = await paymentCallback(fields, await getUserId(request));
    if ("orderId" in result) return redirect(`/order-confirmation/${result.orderId}`, 303);
    if (!result.paymentOrderId) return redirect("/checkout", 303);
    return redirect(`/pay/${result.paymentOrderId}?payment=${result.outcome}`, 303);
  });
export const loader = otherMethods(["POST"]);
