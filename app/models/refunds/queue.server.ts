// Refunds (ADR 0012): money given back for a payment — a cancelled online order, a return, a
// payment that never became an order, a second payment of a payment order. A refund is queued
// inside the transaction that decides it (with its audit row), sent to the gateway after that
// commits (send.server), and its state (pending → processed | failed) follows the gateway's answer
// and its refund.* webhooks (webhook.server). Never more than a payment took: checked under a lock
// on its payment order, counting every refund of that payment not failed. Amounts are whole rupees
// here, paise at the gateway.
import type { Db } from "~/lib/db.server";
import { nowIso, toCount } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { formatPrice } from "~/utils/money";
import { recordAudit } from "~/models/audit.server";
import type { Actor } from "~/models/staff/staff.server";
import { SYSTEM_ACTOR } from "~/models/staff/staff.server";
import { lockPaymentOrder } from "~/models/payments/payment-orders.server";
import type { RefundReason } from "./read.server";

/**
 * Who asks for a refund: a customer (their id), the shop's own jobs, or a staff member (the audit
 * row names them; a customer's or a job's refund is recorded as the shop's).
 */
export type RefundBy = { actor: "customer"; actorId: number | null } | { actor: "system" } | { actor: "admin"; staff: Actor };

/** The refund side of who made a change: the shop's jobs are "system", anyone in the back-office "admin". */
export function refundBy(actor: Actor): RefundBy {
  return actor.kind === "system" ? { actor: "system" } : { actor: "admin", staff: actor };
}

export type RefundRequest = RefundBy & {
  /** the payment order whose payment is refunded */
  paymentOrderId: string;
  /** null for a payment that never became an order */
  orderId: number | null;
  /** whole rupees, > 0 */
  amount: number;
  reason: RefundReason;
  /** idempotency: `unplaced:{paymentOrderId}`, `cancel:{orderId}`, `return:{returnId}`, `twice:{paymentId}` */
  key: string;
  /** the payment refunded when it is not the payment order's recorded one (a second payment: "paid twice") */
  paymentId?: string;
};

export const REFUND_TOO_LARGE = (amount: number, left: number) =>
  `A refund of ${formatPrice(amount)} is more than what is left to refund of this payment (${formatPrice(left)}).`;

/** Run `fn` in the caller's transaction, or in a new one. */
export function inTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

/**
 * Razorpay's X-Refund-Idempotency value for a refund: 10+ of [A-Za-z0-9_-], from the shop's key
 * (`round` > 0 for a staff retry of a failed refund, which is a new request to Razorpay).
 */
export function gatewayKeyFor(key: string, round = 0): string {
  const base = `sagwan-${key.replace(/[^A-Za-z0-9_-]/g, "_")}`.slice(0, 56);
  return round > 0 ? `${base}-r${round}` : base;
}

/** Who did it, in the audit log's words. */
function byWhom(by: RefundBy): string {
  if (by.actor === "customer") return `the customer${by.actorId ? ` (user #${by.actorId})` : ""}`;
  return by.actor === "admin" ? "the staff" : "the shop (automatic)";
}

const REASON_WORDS: Record<RefundReason, string> = {
  unplaced: "a payment that did not become an order",
  cancelled: "a cancelled order",
  returned: "a return",
};

/** What a payment took, in rupees: every payment of a payment order is for its amount. */
export const paidRupees = (amountPaise: number) => Math.floor(amountPaise / 100);

/** Rupees of a payment refunded or on their way (every refund of it not failed), `except` one refund. */
export async function committedAmount(trx: Db, paymentOrderId: string, paymentId: string, except?: number): Promise<number> {
  let query = trx
    .selectFrom("refunds")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>("amount"), eb.lit(0)).as("sum"))
    .where("paymentOrderId", "=", paymentOrderId)
    .where("paymentId", "=", paymentId)
    .where("status", "!=", "failed");
  if (except !== undefined) query = query.where("id", "!=", except);
  const row = await query.executeTakeFirstOrThrow();
  return toCount(row.sum);
}

/**
 * What is left to refund of a payment (rupees): what it took less its refunds not failed. Inside
 * the caller's transaction, after lockPaymentOrder.
 */
export async function refundableAmount(trx: Db, paymentOrderId: string, paymentId?: string): Promise<number> {
  const row = await lockPaymentOrder(trx, paymentOrderId);
  const payment = paymentId ?? row?.paymentId;
  if (!row || !payment) return 0;
  return Math.max(0, paidRupees(row.amountPaise) - (await committedAmount(trx, paymentOrderId, payment)));
}

/**
 * Inside the caller's transaction: writes a pending refund (once per key: a second call with the
 * same key returns the existing one) and its audit row. 400 when the amount is above what the
 * payment took less what was already refunded or queued.
 */
export async function queueRefund(trx: Db, input: RefundRequest): Promise<{ id: number; created: boolean }> {
  if (!Number.isSafeInteger(input.amount) || input.amount <= 0) {
    throw new AppError(400, "A refund is a whole number of rupees above zero", {
      fieldErrors: { amount: "Enter a whole number of rupees above zero" },
    });
  }
  const paymentOrder = await lockPaymentOrder(trx, input.paymentOrderId);
  const existing = await trx.selectFrom("refunds").select("id").where("idempotencyKey", "=", input.key).executeTakeFirst();
  if (existing) return { id: existing.id, created: false };
  if (!paymentOrder) throw new AppError(404, "That payment was not found");
  const paymentId = input.paymentId ?? paymentOrder.paymentId;
  if (!paymentId || paymentOrder.status === "created")
    throw new AppError(409, "Nothing was paid for this payment order: there is nothing to refund");
  // A payment that became an order is refunded through that order (a cancellation, a return), never as never placed.
  if (input.orderId === null && paymentOrder.orderId !== null && paymentId === paymentOrder.paymentId) {
    throw new AppError(409, `This payment became order #${paymentOrder.orderId}: refund it through that order`);
  }
  const left = paidRupees(paymentOrder.amountPaise) - (await committedAmount(trx, input.paymentOrderId, paymentId));
  if (input.amount > left) {
    const message = REFUND_TOO_LARGE(input.amount, Math.max(0, left));
    throw new AppError(400, message, { fieldErrors: { amount: message } });
  }
  const now = nowIso();
  const row = await trx
    .insertInto("refunds")
    .values({
      paymentOrderId: input.paymentOrderId,
      paymentId,
      orderId: input.orderId,
      amount: input.amount,
      reason: input.reason,
      idempotencyKey: input.key,
      gatewayKey: gatewayKeyFor(input.key),
      status: "pending",
      gatewayRefundId: null,
      failureReason: null,
      sendingUntil: null,
      actor: input.actor,
      actorUserId: input.actor === "customer" ? input.actorId : null,
      createdAt: now,
      updatedAt: now,
      processedAt: null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const of = input.orderId !== null ? `order #${input.orderId}` : `payment order ${input.paymentOrderId}`;
  await recordAudit(trx, {
    action: "create",
    entity: "refund",
    entityId: row.id,
    summary:
      `Refund #${row.id} of ${formatPrice(input.amount)} queued for ${of} ` +
      `(${REASON_WORDS[input.reason]}; payment ${paymentId}) by ${byWhom(input)}`,
    actor: input.actor === "admin" ? input.staff : SYSTEM_ACTOR,
    details: { status: [null, "pending"], amount: [null, input.amount] },
  });
  return { id: row.id, created: true };
}

/**
 * A cancelled online order's refund, inside the cancellation's transaction: what its payment took
 * (less anything already refunded of it), key `cancel:{orderId}`. Null for cash on delivery.
 */
export async function queueCancellationRefund(
  trx: Db,
  orderId: number,
  by: Extract<RefundBy, { actor: "customer" | "admin" }>,
): Promise<number | null> {
  const order = await trx
    .selectFrom("orders")
    .select(["paymentMethod", "paymentOrderId", "paymentId", "total"])
    .where("id", "=", orderId)
    .executeTakeFirst();
  if (!order || order.paymentMethod !== "online" || !order.paymentOrderId || !order.paymentId) return null;
  const existing = await trx.selectFrom("refunds").select("id").where("idempotencyKey", "=", `cancel:${orderId}`).executeTakeFirst();
  if (existing) return existing.id;
  const amount = Math.min(order.total, await refundableAmount(trx, order.paymentOrderId, order.paymentId));
  if (amount <= 0) return null;
  const refund = await queueRefund(trx, {
    paymentOrderId: order.paymentOrderId,
    orderId,
    amount,
    reason: "cancelled",
    key: `cancel:${orderId}`,
    ...by,
  });
  return refund.id;
}
