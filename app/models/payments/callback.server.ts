// The gateway's redirect callback (POST /rzp/payment-callback): Razorpay's redirect flow and the
// test gateway's.
import type { Db } from "~/lib/db.server";
import { db as defaultDb } from "~/lib/db.server";
import { isAppError, OrderExistsError } from "~/lib/errors.server";
import { parseWith } from "~/lib/http.server";
import { isValidPaymentSignature } from "~/lib/payments.server";
import { PaymentProofSchema } from "~/utils/checkout";
import { getPaymentOrder } from "./payment-orders.server";
import { payForOrder } from "./place.server";
import { releaseUnpaid } from "./unplaced.server";
import { PaymentOrderIdSchema } from "~/utils/schemas";

/** Where the callback sends the browser: the new order, or the payment page with what went wrong. */
export type CallbackResult =
  | { orderId: number }
  /** `failed`: nothing was recorded (no payment, or one that did not verify); `refused`: paid, but no order yet */
  | { paymentOrderId: string | null; outcome: "failed" | "refused" | "busy" };

/**
 * POST /rzp/payment-callback, Razorpay's redirect flow (and the test gateway's): with a valid
 * signature the payment order's own customer gets the order its checkout stored (the customer is
 * the payment order's, never the poster's: the same power as the webhook's), otherwise nothing is
 * written. Razorpay's failure fields carry no signature: they name the payment order whose page
 * tells the customer, and they end its stock hold only when its own customer posts them (`reporterId`,
 * the signed-in poster: the test gateway's page is the shop's own, so its post carries the session;
 * Razorpay's cross-site post carries none, and its signed payment.failed webhook ends the hold).
 */
export async function paymentCallback(
  fields: Record<string, unknown>,
  reporterId: number | null = null,
  db: Db = defaultDb,
): Promise<CallbackResult> {
  const failedId = PaymentOrderIdSchema.safeParse(fields["error[metadata][order_id]"]);
  if (!("razorpay_signature" in fields)) {
    if (failedId.success && reporterId !== null) await releaseUnpaid(failedId.data, db, reporterId);
    return { paymentOrderId: failedId.success ? failedId.data : null, outcome: "failed" };
  }
  const proof = parseWith(PaymentProofSchema, fields);
  const named = PaymentOrderIdSchema.safeParse(proof.razorpay_order_id);
  const paymentOrderId = named.success ? named.data : null;
  if (!isValidPaymentSignature(proof.razorpay_order_id, proof.razorpay_payment_id, proof.razorpay_signature)) {
    return { paymentOrderId, outcome: "failed" };
  }
  const owner = await db.selectFrom("paymentOrders").select("userId").where("id", "=", proof.razorpay_order_id).executeTakeFirst();
  const paymentOrder = owner?.userId != null ? await getPaymentOrder(proof.razorpay_order_id, owner.userId, db) : null;
  if (!owner?.userId || !paymentOrder) return { paymentOrderId: null, outcome: "failed" };
  try {
    return { orderId: await payForOrder(owner.userId, paymentOrder, { intent: "complete", proof }, db) };
  } catch (error) {
    if (error instanceof OrderExistsError) return { orderId: error.orderId };
    if (!isAppError(error)) throw error;
    if (error.status === 429 || error.status === 503) return { paymentOrderId, outcome: "busy" };
    return { paymentOrderId, outcome: isAppError(error, "PAYMENT_FAILED") ? "failed" : "refused" };
  }
}
