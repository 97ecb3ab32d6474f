// Refunds (issue 13, item 3; ADR 0012): money given back for a payment — a cancelled online order,
// a return, a payment that never became an order, a second payment of a payment order. A refund is
// queued inside the transaction that decides it (with its audit row), sent to the gateway after
// that commits (Razorpay's Refunds API with an idempotency key, or the offline test gateway), and
// its state (pending → processed | failed) follows the gateway's answer and its refund.* webhooks.
// Never more than a payment took: checked under a lock on its payment order, counting every refund
// of that payment not failed. Amounts are whole rupees here, paise at the gateway.
import type { Updateable } from "kysely";
import { sql } from "kysely";
import type { Db } from "~/lib/db.server";
import { db as defaultDb, nowIso, toCount } from "~/lib/db.server";
import type { RefundReason as Reason, RefundsTable, RefundStatus } from "~/lib/db-schema";
import { AppError } from "~/lib/errors.server";
import { errorMessage } from "~/lib/log.server";
import { createGatewayRefund } from "~/lib/payments.server";
import { formatPrice } from "~/utils/money";
import { recordAudit } from "./audit.server";
import { queueRefundMail } from "./refund-mail.server";
import { lockPaymentOrder } from "./payment-orders.server";
import { getUserById } from "~/models/users/users.server";

export type RefundReason = Reason;
export type { RefundStatus };

export interface RefundRequest {
  /** the payment order whose payment is refunded */
  paymentOrderId: string;
  /** null for a payment that never became an order */
  orderId: number | null;
  /** whole rupees, > 0 */
  amount: number;
  reason: RefundReason;
  /** idempotency: `unplaced:{paymentOrderId}`, `cancel:{orderId}`, `return:{returnId}`, `twice:{paymentId}` */
  key: string;
  actor: "customer" | "admin" | "system";
  /** the customer's id when actor is customer */
  actorId?: number | null;
  /** the payment refunded when it is not the payment order's recorded one (a second payment: "paid twice") */
  paymentId?: string;
}

/** A refund as the shop's pages and the API show it. */
export interface Refund {
  id: number;
  orderId: number | null;
  paymentOrderId: string;
  paymentId: string;
  amount: number;
  reason: RefundReason;
  status: RefundStatus;
  gatewayRefundId: string | null;
  /** why it failed (the gateway's words), or why the last send got no answer while pending */
  failureReason: string | null;
  attempts: number;
  actor: "customer" | "admin" | "system";
  createdAt: string;
  updatedAt: string;
  processedAt: string | null;
}

/** What the customer's order (pages and API) shows of a refund. */
export type OrderRefund = Pick<Refund, "id" | "amount" | "reason" | "status" | "createdAt" | "processedAt">;

/** A send in progress keeps others off this long (a sender killed mid-call frees it then). */
const SEND_LEASE_MS = 60_000;

export const REFUND_TOO_LARGE = (amount: number, left: number) =>
  `A refund of ${formatPrice(amount)} is more than what is left to refund of this payment (${formatPrice(left)}).`;

const REFUND_COLUMNS = [
  "id",
  "orderId",
  "paymentOrderId",
  "paymentId",
  "amount",
  "reason",
  "status",
  "gatewayRefundId",
  "failureReason",
  "attempts",
  "actor",
  "createdAt",
  "updatedAt",
  "processedAt",
] as const;

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
function byWhom(actor: RefundRequest["actor"], actorId?: number | null): string {
  if (actor === "customer") return `the customer${actorId ? ` (user #${actorId})` : ""}`;
  return actor === "admin" ? "the staff" : "the shop (automatic)";
}

const REASON_WORDS: Record<RefundReason, string> = {
  unplaced: "a payment that did not become an order",
  cancelled: "a cancelled order",
  returned: "a return",
};

/** What a payment took, in rupees: every payment of a payment order is for its amount. */
const paidRupees = (amountPaise: number) => Math.floor(amountPaise / 100);

/** Rupees of a payment refunded or on their way (every refund of it not failed), `except` one refund. */
async function committedAmount(trx: Db, paymentOrderId: string, paymentId: string, except?: number): Promise<number> {
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
    throw new AppError(400, "A refund is a whole number of rupees above zero", { amount: "Enter a whole number of rupees above zero" });
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
    throw new AppError(400, message, { amount: message });
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
      actorUserId: input.actor === "customer" ? (input.actorId ?? null) : null,
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
      `(${REASON_WORDS[input.reason]}; payment ${paymentId}) by ${byWhom(input.actor, input.actorId)}`,
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
  by: { actor: "customer" | "admin"; userId: number | null },
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
    actor: by.actor,
    actorId: by.userId,
  });
  return refund.id;
}

/** What changed a refund's state: the gateway's answer to our call, or its webhook. */
type StateChange = { status: RefundStatus; gatewayRefundId?: string; failureReason?: string | null };

/**
 * Move a pending refund to what the gateway says, with its audit row, in one transaction. Only a
 * pending refund moves (processed and failed are final until the staff retry): a replayed or late
 * answer changes nothing. Answers whether it moved, and to what.
 */
async function applyState(db: Db, id: number, change: StateChange, source: string): Promise<RefundStatus | null> {
  return inTransaction(db, async (trx) => {
    const now = nowIso();
    const set: Updateable<RefundsTable> = { updatedAt: now, sendingUntil: null };
    if (change.gatewayRefundId) set.gatewayRefundId = change.gatewayRefundId;
    if (change.status !== "pending") {
      set.status = change.status;
      set.failureReason =
        change.status === "failed" ? (change.failureReason ?? "The payment gateway could not make the refund").slice(0, 500) : null;
      if (change.status === "processed") set.processedAt = now;
    } else if (change.failureReason !== undefined) {
      set.failureReason = change.failureReason?.slice(0, 500) ?? null;
    }
    let query = trx.updateTable("refunds").set(set).where("id", "=", id).where("status", "=", "pending");
    if (change.gatewayRefundId) {
      const gatewayId = change.gatewayRefundId;
      query = query.where((eb) => eb.or([eb("gatewayRefundId", "is", null), eb("gatewayRefundId", "=", gatewayId)]));
    }
    const moved = await query.executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1 || change.status === "pending") return Number(moved.numUpdatedRows) === 1 ? "pending" : null;
    const row = await trx.selectFrom("refunds").select(["amount", "gatewayRefundId"]).where("id", "=", id).executeTakeFirstOrThrow();
    const what = change.status === "processed" ? "processed" : `failed (${String(set.failureReason)})`;
    await recordAudit(trx, {
      action: "status",
      entity: "refund",
      entityId: id,
      summary: `Refund #${id} of ${formatPrice(row.amount)} ${what}${row.gatewayRefundId ? ` [${row.gatewayRefundId}]` : ""}: ${source}`,
    });
    if (change.status === "processed") await tellCustomer(id, trx);
    return change.status;
  });
}

/** The customer's mail once a refund is processed, queued in the transaction that records it. */
async function tellCustomer(id: number, db: Db): Promise<void> {
  const row = await db
    .selectFrom("refunds")
    .innerJoin("paymentOrders", "paymentOrders.id", "refunds.paymentOrderId")
    .select(["refunds.id", "refunds.amount", "refunds.orderId", "refunds.reason", "refunds.processedAt", "paymentOrders.userId"])
    .where("refunds.id", "=", id)
    .executeTakeFirst();
  if (!row?.userId) return;
  const customer = await getUserById(row.userId, db);
  if (customer)
    await queueRefundMail(
      db,
      { id: row.id, amount: row.amount, orderId: row.orderId, reason: row.reason, at: row.processedAt ?? nowIso() },
      customer,
    );
}

/**
 * After the transaction committed: sends a pending refund to the gateway (Razorpay's Refunds API
 * with the idempotency key, or the offline test gateway, which records it as processed) and
 * records the answer (processed, pending, or failed with the reason). Safe to call twice and
 * concurrently: one sender at a time holds the row's lease, a resend carries the same key (so the
 * gateway answers the refund it made), and only a pending row moves. Never refunds twice.
 */
export async function sendRefund(id: number, db: Db = defaultDb): Promise<void> {
  const now = new Date();
  const claimed = await db
    .updateTable("refunds")
    .set((eb) => ({
      sendingUntil: nowIso(new Date(now.getTime() + SEND_LEASE_MS)),
      attempts: eb("attempts", "+", 1),
      updatedAt: nowIso(now),
    }))
    .where("id", "=", id)
    .where("status", "=", "pending")
    // One the gateway answered already is at the bank: its state comes from the webhooks, and a
    // resend after Razorpay forgot the key could refund twice.
    .where("gatewayRefundId", "is", null)
    .where((eb) => eb.or([eb("sendingUntil", "is", null), eb("sendingUntil", "<", nowIso(now))]))
    .returning(["paymentId", "amount", "gatewayKey"])
    .executeTakeFirst();
  if (!claimed) return;
  const answer = await createGatewayRefund({
    paymentId: claimed.paymentId,
    amountPaise: claimed.amount * 100,
    idempotencyKey: claimed.gatewayKey,
    receipt: `refund-${id}`,
    notes: { shop_refund_id: String(id), shop_refund_key: claimed.gatewayKey },
  });
  if (answer.outcome === "answered") {
    const failure = answer.status === "failed" ? "The payment gateway marked the refund failed" : null;
    await applyState(db, id, { status: answer.status, gatewayRefundId: answer.id, failureReason: failure }, "the gateway's answer");
  } else if (answer.outcome === "refused") {
    await applyState(db, id, { status: "failed", failureReason: answer.reason }, "the gateway refused it");
  } else {
    // No answer worth keeping: still pending, sent again later with the same key.
    await applyState(db, id, { status: "pending", failureReason: answer.reason }, "no answer");
  }
}

/** sendRefund after a commit, where a failure must not turn a done change into an error: the row stays pending for the sweep. */
export async function sendRefundQuietly(id: number | null, db: Db = defaultDb): Promise<void> {
  if (id === null) return;
  try {
    await sendRefund(id, db);
  } catch (error) {
    console.error(`refund #${id} could not be sent now (it stays pending):`, errorMessage(error));
  }
}

interface WebhookRefund {
  id?: unknown;
  payment_id?: unknown;
  status?: unknown;
  notes?: unknown;
}

const WEBHOOK_STATES: Record<string, RefundStatus> = {
  "refund.created": "pending",
  "refund.processed": "processed",
  "refund.failed": "failed",
};

/**
 * Razorpay's refund.created / refund.processed / refund.failed, once handleWebhook verified the
 * signature: the refund is found by its gateway id, or (when our call's answer was lost) by its
 * payment and the key in its notes; it moves only from pending, so a replay changes nothing. A
 * refund that is not the shop's is ignored. 400 for a refund event without a refund.
 */
export async function handleRefundWebhook(
  event: { event?: unknown; payload?: { refund?: { entity?: WebhookRefund } } },
  db: Db = defaultDb,
): Promise<{ received: true }> {
  const target = WEBHOOK_STATES[String(event.event)];
  if (!target) return { received: true };
  const refund = event.payload?.refund?.entity;
  if (!refund || typeof refund.id !== "string" || typeof refund.payment_id !== "string")
    throw new AppError(400, "The webhook has no refund");
  const notes = typeof refund.notes === "object" && refund.notes !== null ? (refund.notes as Record<string, unknown>) : {};
  const key = typeof notes.shop_refund_key === "string" ? notes.shop_refund_key : null;
  const gatewayId = refund.id;
  const paymentId = refund.payment_id;
  // One statement, one snapshot: with two, a refund whose gateway id was recorded between them
  // (sendRefund's answer) matched neither, and the event was dropped.
  const row = await db
    .selectFrom("refunds")
    .select(["id"])
    .where((eb) => {
      const byId = eb("gatewayRefundId", "=", gatewayId);
      if (!key) return byId;
      return eb.or([byId, eb.and([eb("gatewayKey", "=", key), eb("paymentId", "=", paymentId), eb("gatewayRefundId", "is", null)])]);
    })
    .orderBy(sql`case when gateway_refund_id = ${gatewayId} then 0 else 1 end`)
    .executeTakeFirst();
  if (!row) return { received: true };
  const failure = target === "failed" ? "Razorpay reported the refund failed" : undefined;
  await applyState(
    db,
    row.id,
    { status: target, gatewayRefundId: refund.id, failureReason: failure },
    `Razorpay's ${String(event.event)} webhook`,
  );
  return { received: true };
}

async function readRefunds(db: Db, where: { orderIds?: number[]; paymentOrderId?: string }): Promise<Refund[]> {
  let query = db.selectFrom("refunds").select(REFUND_COLUMNS).orderBy("id");
  if (where.orderIds) query = query.where("orderId", "in", where.orderIds);
  if (where.paymentOrderId) query = query.where("paymentOrderId", "=", where.paymentOrderId);
  return (await query.execute()) as Refund[];
}

/** The refunds of an order (or a payment order), for the customer's and the admin's order pages. */
export async function refundsForOrder(orderId: number, db: Db = defaultDb): Promise<Refund[]> {
  return readRefunds(db, { orderIds: [orderId] });
}

/** The refunds of a payment order (the payment page of a payment that never became an order). */
export async function refundsForPaymentOrder(paymentOrderId: string, db: Db = defaultDb): Promise<Refund[]> {
  return readRefunds(db, { paymentOrderId });
}

/** What the customer is shown of a refund. */
export const customerView = (r: Refund): OrderRefund => ({
  id: r.id,
  amount: r.amount,
  reason: r.reason,
  status: r.status,
  createdAt: r.createdAt,
  processedAt: r.processedAt,
});

/** The refunds of several orders (one page of them) as their orders show them, by order id. */
export async function orderRefunds(orderIds: number[], db: Db = defaultDb): Promise<Map<number, OrderRefund[]>> {
  const byOrder = new Map<number, OrderRefund[]>();
  if (orderIds.length === 0) return byOrder;
  for (const r of await readRefunds(db, { orderIds })) {
    const list = byOrder.get(r.orderId!) ?? [];
    list.push(customerView(r));
    byOrder.set(r.orderId!, list);
  }
  return byOrder;
}

/** One refund, or null. */
export async function getRefund(id: number, db: Db = defaultDb): Promise<Refund | null> {
  return ((await db.selectFrom("refunds").select(REFUND_COLUMNS).where("id", "=", id).executeTakeFirst()) as Refund | undefined) ?? null;
}

/**
 * The staff's retry of a failed refund: pending again with a new gateway key (Razorpay answers
 * the same failed refund to the old key), when the payment still has that much left to refund;
 * with its audit row, in one transaction. Then sent. 409 when it is not failed.
 */
export async function retryFailedRefund(id: number, db: Db = defaultDb): Promise<void> {
  await inTransaction(db, async (trx) => {
    const head = await trx.selectFrom("refunds").select(["paymentOrderId"]).where("id", "=", id).executeTakeFirst();
    if (!head) throw new AppError(404, "That refund was not found");
    await lockPaymentOrder(trx, head.paymentOrderId);
    const row = await trx
      .selectFrom("refunds")
      .select(["status", "amount", "paymentId", "idempotencyKey", "attempts"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    if (row.status !== "failed") throw new AppError(409, "Only a failed refund can be retried");
    const payment = await trx
      .selectFrom("paymentOrders")
      .select("amountPaise")
      .where("id", "=", head.paymentOrderId)
      .executeTakeFirstOrThrow();
    const left = paidRupees(payment.amountPaise) - (await committedAmount(trx, head.paymentOrderId, row.paymentId, id));
    if (row.amount > left) throw new AppError(400, REFUND_TOO_LARGE(row.amount, Math.max(0, left)));
    await trx
      .updateTable("refunds")
      .set({
        status: "pending",
        gatewayKey: gatewayKeyFor(row.idempotencyKey, row.attempts + 1),
        gatewayRefundId: null,
        failureReason: null,
        sendingUntil: null,
        updatedAt: nowIso(),
      })
      .where("id", "=", id)
      .where("status", "=", "failed")
      .execute();
    await recordAudit(trx, {
      action: "status",
      entity: "refund",
      entityId: id,
      summary: `Refund #${id} of ${formatPrice(row.amount)} retried by the staff (failed → pending)`,
    });
  });
  await sendRefund(id, db);
}

/** The staff's 'Send now' for a pending refund (no answer yet): audited, then sent with its same key. */
export async function resendPendingRefund(id: number, db: Db = defaultDb): Promise<void> {
  const row = await getRefund(id, db);
  if (!row) throw new AppError(404, "That refund was not found");
  if (row.status !== "pending") throw new AppError(409, "Only a pending refund can be sent again");
  if (row.gatewayRefundId) throw new AppError(409, "The gateway has this refund already: its state comes from Razorpay");
  await recordAudit(db, {
    action: "update",
    entity: "refund",
    entityId: id,
    summary: `Refund #${id} of ${formatPrice(row.amount)} sent again by the staff`,
  });
  await sendRefund(id, db);
}

/** How long the sweep keeps resending a refund without an answer (Razorpay keeps an idempotency key for a limited time). */
export const RESEND_HOURS = 24;

/**
 * Pending refunds nobody is sending, without the gateway's answer, last touched over a minute ago
 * (a crash after the commit, no answer from the gateway) and queued less than RESEND_HOURS ago:
 * sent again with their key, oldest first. Older ones wait for the staff (who check the Razorpay
 * Dashboard before 'Send again'). Answers how many were tried.
 */
export async function sendDueRefunds(db: Db = defaultDb, now = new Date(), limit = 50): Promise<number> {
  const before = nowIso(new Date(now.getTime() - 60_000));
  const due = await db
    .selectFrom("refunds")
    .select("id")
    .where("status", "=", "pending")
    .where("gatewayRefundId", "is", null)
    .where("createdAt", ">", nowIso(new Date(now.getTime() - RESEND_HOURS * 60 * 60 * 1000)))
    .where("updatedAt", "<", before)
    .where((eb) => eb.or([eb("sendingUntil", "is", null), eb("sendingUntil", "<", nowIso(now))]))
    .orderBy("id")
    .limit(limit)
    .execute();
  for (const { id } of due) await sendRefundQuietly(id, db);
  return due.length;
}
