// Place Order, for the checkout page and POST /api/orders/add: one try against the customer's order
// limit, then a cash-on-delivery order, an online order for a payment already made (the API), or a
// payment order to pay on the payment page (payments/). The order itself is written by
// place.server's placeOrder, which queues its confirmation mail in its transaction.
import type { Db } from "~/lib/db.server";
import { db as defaultDb } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import type { Client } from "~/lib/rate-limit.server";
import { LIMITS, rateLimitUser } from "~/lib/rate-limit.server";
import type { PaymentMethod } from "~/lib/db-schema";
import type { ShippingAddress } from "~/utils/checkout";
import { applyCoupon } from "~/models/coupons/apply.server";
import { placeOnlineOrder } from "~/models/payments/place.server";
import { createPaymentOrder } from "~/models/payments/start.server";
import type { PaymentProofInput } from "~/models/payments/verify.server";
import { placeOrder } from "./place.server";
import type { Order } from "./read.server";
import { placedOrder } from "./read.server";

export const COUPON_BEFORE_PAYING =
  "An online order is paid at its payment order's price: apply the coupon to the cart (POST /api/cart/coupon) before /rzp/create-order.";

/** What Place Order sends. */
export interface CheckoutInput {
  shipping: ShippingAddress;
  paymentMethod: PaymentMethod;
  /** the checkout form's (or the API body's) key: the same key never makes a second cash order */
  idempotencyKey?: string | null;
  /** the total the customer saw on the checkout page: a cart changed since then is refused */
  expectedTotal?: number;
  /** online, paid already (the API): Razorpay's proof comes with the order */
  proof?: PaymentProofInput;
  /** a coupon code sent with the order (the API): applied to the cart first, as the cart's box does */
  coupon?: { code: unknown; client: Client };
}

/** What Place Order leads to: the new order's confirmation, or the payment step (/pay/{id}). */
export type CheckoutResult = { next: "confirmation"; order: Order } | { next: "payment"; paymentOrderId: string };

/**
 * Place Order, for the checkout page and the API: one try against the customer's order limit,
 * then a cash-on-delivery order, an online order for a verified payment of exactly its total,
 * or (online, nothing paid yet: the checkout page) a payment order to pay on the payment page.
 */
export function checkout(
  userId: number,
  input: (CheckoutInput & { paymentMethod: "cod" }) | (CheckoutInput & { proof: PaymentProofInput }),
  db?: Db,
): Promise<CheckoutResult & { next: "confirmation" }>;
export function checkout(userId: number, input: CheckoutInput, db?: Db): Promise<CheckoutResult>;
export async function checkout(userId: number, input: CheckoutInput, db: Db = defaultDb): Promise<CheckoutResult> {
  await rateLimitUser(LIMITS.placeOrder, userId);
  if (input.coupon) {
    // An online order is paid at the price of its payment order: its coupon was applied before paying.
    if (input.paymentMethod === "online")
      throw new AppError(400, COUPON_BEFORE_PAYING, { fieldErrors: { couponCode: COUPON_BEFORE_PAYING } });
    await applyCoupon(userId, input.coupon.code, input.coupon.client, db);
  }
  if (input.paymentMethod === "cod") {
    const order = await placeCodOrder(userId, input.shipping, input.idempotencyKey ?? null, input.expectedTotal, db);
    return { next: "confirmation", order };
  }
  if (input.proof) return { next: "confirmation", order: await placeOnlineOrder(input.proof, userId, input.shipping, db) };
  const payment = await createPaymentOrder(userId, input.shipping, input.expectedTotal, db);
  return { next: "payment", paymentOrderId: payment.id };
}

/** A cash-on-delivery order from the customer's cart; the confirmation mail follows. */
export async function placeCodOrder(
  userId: number,
  shipping: ShippingAddress,
  idempotencyKey: string | null,
  expectedTotal?: number,
  db: Db = defaultDb,
): Promise<Order> {
  const id = await placeOrder({ userId, shipping, paymentMethod: "cod", idempotencyKey, expectedTotal }, db);
  return placedOrder(id, db);
}
