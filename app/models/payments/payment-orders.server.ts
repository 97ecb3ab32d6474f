// The payment order's row as the one place its fate is decided (ADR 0012). Placing an order for a
// payment, recording a payment, refunding a payment that never became an order and marking one
// failed each lock this row first (FOR UPDATE on PostgreSQL; SQLite runs one writer at a time) and
// decide from its own columns, read under the lock: `order_id` (written in the order's own
// transaction), `status`, `payment_id`, `failure`. Never from the absence of a row in another
// table: under READ COMMITTED a transaction still inserting that row is invisible.
// The customer's own read of a payment order is here too (getPaymentOrder).

import type { Selectable } from "kysely";
import type { Db } from "~/lib/db.server";
import { db as defaultDb, isPostgres } from "~/lib/db.server";
import type { PaymentOrdersTable } from "~/lib/db-schema";
import { AppError, OrderExistsError } from "~/lib/errors.server";
import type { ShippingAddress } from "~/utils/checkout";

export interface PaymentOrder extends Omit<Selectable<PaymentOrdersTable>, "checkout" | "coupon" | "createdAt" | "updatedAt"> {
  shipping: ShippingAddress | null;
  orderId: number | null;
}

/** A payment order of this customer's, or null. */
export async function getPaymentOrder(id: string, userId: number, db: Db = defaultDb): Promise<PaymentOrder | null> {
  const row = await db
    .selectFrom("paymentOrders")
    .select(["id", "userId", "amountPaise", "currency", "status", "paymentId", "checkout", "failure", "orderId"])
    .where("id", "=", id)
    .where("userId", "=", userId)
    .executeTakeFirst();
  if (!row) return null;
  const checkout = row.checkout ? (JSON.parse(row.checkout) as { shipping?: ShippingAddress }) : null;
  return { ...row, shipping: checkout?.shipping ?? null };
}

export type LockedPaymentOrder = Pick<
  Selectable<PaymentOrdersTable>,
  "id" | "userId" | "status" | "paymentId" | "amountPaise" | "failure" | "orderId" | "coupon" | "checkout"
>;

/**
 * Inside a transaction: the payment order's row, locked until the transaction ends (PostgreSQL:
 * FOR UPDATE, which waits for a transaction holding it and then reads the row as it committed).
 */
export async function lockPaymentOrder(trx: Db, paymentOrderId: string): Promise<LockedPaymentOrder | undefined> {
  const query = trx
    .selectFrom("paymentOrders")
    .select(["id", "userId", "status", "paymentId", "amountPaise", "failure", "orderId", "coupon", "checkout"])
    .where("id", "=", paymentOrderId);
  return (isPostgres(trx) ? query.forUpdate() : query).executeTakeFirst();
}

/** What the customer is told of a payment that can never become an order. */
export function failedMessage(reason: string | null): string {
  return `This payment could not become an order${reason ? ` (${reason.replace(/\.$/, "")})` : ""}. It will be refunded.`;
}

export const paymentUsedFor = (orderId: number) =>
  new OrderExistsError(orderId, `This payment has already been used for order #${orderId}`);

/**
 * Inside an order's transaction, before anything else is read for it: the payment order it is
 * placed for, locked. One that became an order already names it (OrderExistsError); one marked
 * failed (refunded, or being refunded) can never become one (409).
 */
export async function lockForPlacement(trx: Db, paymentOrderId: string): Promise<LockedPaymentOrder> {
  const row = await lockPaymentOrder(trx, paymentOrderId);
  if (!row) throw new AppError(404, "That payment order was not found");
  if (row.orderId !== null) throw paymentUsedFor(row.orderId);
  if (row.status === "failed") throw new AppError(409, failedMessage(row.failure), { code: "PAYMENT_ORDER_FAILED" });
  return row;
}

/** In the order's transaction, once the order is written: the payment order records the order it became. */
export async function recordPlacement(trx: Db, paymentOrderId: string, orderId: number, now: string): Promise<void> {
  await trx.updateTable("paymentOrders").set({ orderId, updatedAt: now }).where("id", "=", paymentOrderId).execute();
}
