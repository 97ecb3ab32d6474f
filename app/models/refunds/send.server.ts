// Sending a queued refund to the gateway once the transaction that queued it committed, and moving
// it to what the gateway says (with its audit row, and the customer's mail once it is processed).
import type { Updateable } from "kysely";
import type { Db } from "~/lib/db.server";
import { db as defaultDb, nowIso } from "~/lib/db.server";
import type { RefundsTable, RefundStatus } from "~/lib/db-schema";
import { errorMessage, log } from "~/lib/log.server";
import { createGatewayRefund } from "~/lib/payments.server";
import { formatPrice } from "~/utils/money";
import { recordAudit } from "~/models/audit.server";
import { SYSTEM_ACTOR } from "~/models/staff/staff.server";
import { getUserById } from "~/models/users/users.server";
import { queueRefundMail } from "./mail.server";
import { inTransaction } from "./queue.server";

/** A send in progress keeps others off this long (a sender killed mid-call frees it then). */
const SEND_LEASE_MS = 60_000;

/** What changed a refund's state: the gateway's answer to our call, or its webhook. */
type StateChange = { status: RefundStatus; gatewayRefundId?: string; failureReason?: string | null };

/**
 * Move a pending refund to what the gateway says, with its audit row, in one transaction. Only a
 * pending refund moves (processed and failed are final until the staff retry): a replayed or late
 * answer changes nothing. Answers whether it moved, and to what.
 */
export async function applyState(db: Db, id: number, change: StateChange, source: string): Promise<RefundStatus | null> {
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
      // The gateway's answer moves it, whoever sent it.
      actor: SYSTEM_ACTOR,
      details: { status: ["pending", change.status] },
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
    log.error(`refund #${id} could not be sent now (it stays pending): ${errorMessage(error)}`);
  }
}
