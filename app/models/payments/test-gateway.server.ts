// The offline test gateway (docs/decisions/0012): with no Razorpay keys set, the shop's own page
// stands in for Razorpay's Checkout, and hands over a payment's proof exactly as Razorpay would.
import type { Db } from "~/lib/db.server";
import { db as defaultDb } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { offlineGatewayPayment, paymentMode } from "~/lib/payments.server";
import { LIMITS, rateLimitUser } from "~/lib/rate-limit.server";
import type { PaymentOrder } from "./payment-orders.server";
import { getPaymentOrder } from "./payment-orders.server";
import type { PaymentProofInput } from "./verify.server";

/** The payment order the offline test gateway may pay: the caller's own, unpaid. 404 with Razorpay keys set. */
async function gatewayPaymentOrder(paymentOrderId: string, userId: number, db: Db): Promise<PaymentOrder> {
  const paymentOrder = paymentMode() === "offline" ? await getPaymentOrder(paymentOrderId, userId, db) : null;
  if (!paymentOrder) throw new AppError(404, "That payment order was not found");
  return paymentOrder;
}

export type GatewayOutcome = "paid" | "failed";

/**
 * What the offline test gateway hands over for a payment order of the caller's, exactly as
 * Razorpay's Checkout hands it to its handler; `failed` carries a signature that never verifies.
 * Nothing is written: a payment exists for the shop only once its proof is verified.
 */
function gatewayProof(paymentOrder: PaymentOrder, outcome: GatewayOutcome): PaymentProofInput {
  const paid = offlineGatewayPayment(paymentOrder.id, outcome);
  return { razorpay_order_id: paymentOrder.id, razorpay_payment_id: paid.paymentId, razorpay_signature: paid.signature };
}

/**
 * POST /rzp/test-gateway/{id}/pay: one try against the customer's verify-payment limit, then the
 * gateway's three fields for their unpaid payment order. A payment order paid already, or marked
 * failed, is a 409 (Razorpay takes no second payment for a paid order).
 */
export async function payOnTestGateway(
  paymentOrderId: string,
  userId: number,
  outcome: GatewayOutcome,
  db: Db = defaultDb,
): Promise<PaymentProofInput> {
  const paymentOrder = await gatewayPaymentOrder(paymentOrderId, userId, db);
  await rateLimitUser(LIMITS.verifyPayment, userId);
  if (paymentOrder.orderId || paymentOrder.status !== "created") {
    throw new AppError(409, "This payment order has already been paid");
  }
  return gatewayProof(paymentOrder, outcome);
}

/** Razorpay's failure fields of the redirect flow, for a payment order and a payment id. */
export function gatewayFailureFields(paymentOrderId: string, paymentId: string): Record<string, string> {
  return {
    "error[code]": "BAD_REQUEST_ERROR",
    "error[description]": "Payment failed",
    "error[source]": "customer",
    "error[step]": "payment_authorization",
    "error[reason]": "payment_failed",
    "error[metadata][order_id]": paymentOrderId,
    "error[metadata][payment_id]": paymentId,
  };
}

/**
 * The test gateway's page for a payment order of the customer's: its amount and the two forms it
 * posts to the shop's callback (a paid payment's three fields, or Razorpay's failure fields).
 * `null` when it is paid already or failed (the payment page says what happened).
 */
export async function testGatewayPage(paymentOrderId: string, userId: number, db: Db = defaultDb) {
  const paymentOrder = await gatewayPaymentOrder(paymentOrderId, userId, db);
  if (paymentOrder.orderId || paymentOrder.status !== "created") return null;
  const proof = gatewayProof(paymentOrder, "paid");
  return {
    id: paymentOrder.id,
    amountPaise: paymentOrder.amountPaise,
    paid: proof,
    failed: gatewayFailureFields(paymentOrder.id, offlineGatewayPayment(paymentOrder.id, "failed").paymentId),
  };
}
