// The staff's refund queue (/admin/refunds, ADR 0012): payments that need someone (a payment marked
// failed without a refund, a paid payment whose order was refused and never placed) and refunds by
// state, with the actions on a refund: retry a failed one, send a pending one again.
import type { Db } from "~/lib/db.server";
import type { ListPage, RowWindow } from "~/lib/paging.server";
import { db as defaultDb, nowIso, toCount } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { formatPrice } from "~/utils/money";
import type { RefundFilter } from "~/utils/refunds";
import { NEEDING_ACTION_LIMIT } from "~/utils/refunds";
import { recordAudit } from "~/models/audit.server";
import type { Actor } from "~/models/staff/staff.server";
import { lockPaymentOrder } from "~/models/payments/payment-orders.server";
import { committedAmount, gatewayKeyFor, inTransaction, paidRupees, REFUND_TOO_LARGE } from "./queue.server";
import type { Refund } from "./read.server";
import { getRefund } from "./read.server";
import { sendRefund } from "./send.server";

export interface PaymentNeedingAction {
  paymentOrderId: string;
  customer: string | null;
  /** rupees */
  amount: number;
  status: "paid" | "failed";
  paymentId: string | null;
  /** why it did not become an order */
  failure: string | null;
  updatedAt: string;
}

/**
 * Payments the staff should look at: failed (refund owed) without a refund of their payment, and
 * paid whose order was refused (the customer may still place it; refunded after REFUSED_PAYMENT_HOURS).
 */
function needingAction(db: Db) {
  return db
    .selectFrom("paymentOrders")
    .leftJoin("users", "users.id", "paymentOrders.userId")
    .where((eb) =>
      eb.or([
        eb.and([
          eb("paymentOrders.status", "=", "failed"),
          eb.not(
            eb.exists(
              eb
                .selectFrom("refunds")
                .select("refunds.id")
                .whereRef("refunds.paymentOrderId", "=", "paymentOrders.id")
                .whereRef("refunds.paymentId", "=", "paymentOrders.paymentId"),
            ),
          ),
        ]),
        eb.and([
          eb("paymentOrders.status", "=", "paid"),
          eb("paymentOrders.failure", "is not", null),
          eb("paymentOrders.orderId", "is", null),
        ]),
      ]),
    );
}

export async function paymentsNeedingAction(db: Db = defaultDb): Promise<{ rows: PaymentNeedingAction[]; total: number }> {
  const [{ n }, rows] = await Promise.all([
    needingAction(db)
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow(),
    needingAction(db)
      .select([
        "paymentOrders.id",
        "paymentOrders.amountPaise",
        "paymentOrders.status",
        "paymentOrders.paymentId",
        "paymentOrders.failure",
        "paymentOrders.updatedAt",
        "users.email",
      ])
      .orderBy("paymentOrders.updatedAt")
      .orderBy("paymentOrders.id")
      .limit(NEEDING_ACTION_LIMIT)
      .execute(),
  ]);
  return {
    total: toCount(n as number),
    rows: rows.map((r) => ({
      paymentOrderId: r.id,
      customer: r.email,
      amount: Math.floor(r.amountPaise / 100),
      status: r.status as "paid" | "failed",
      paymentId: r.paymentId,
      failure: r.failure,
      updatedAt: r.updatedAt,
    })),
  };
}

export type AdminRefundRow = Refund & { customer: string | null };

function refundsOf(db: Db, status: RefundFilter) {
  let query = db.selectFrom("refunds");
  if (status === "open") query = query.where("refunds.status", "in", ["pending", "failed"]);
  else if (status !== "all") query = query.where("refunds.status", "=", status);
  return query;
}

/** One page of refunds, newest first, by state (`open`: pending and failed). */
export async function listRefundsPage(
  query: { status: RefundFilter },
  window: RowWindow,
  db: Db = defaultDb,
): Promise<ListPage<AdminRefundRow>> {
  const { n } = await refundsOf(db, query.status)
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  const total = toCount(n as number);
  const rows = await refundsOf(db, query.status)
    .innerJoin("paymentOrders", "paymentOrders.id", "refunds.paymentOrderId")
    .leftJoin("users", "users.id", "paymentOrders.userId")
    .select([
      "refunds.id",
      "refunds.orderId",
      "refunds.paymentOrderId",
      "refunds.paymentId",
      "refunds.amount",
      "refunds.reason",
      "refunds.status",
      "refunds.gatewayRefundId",
      "refunds.failureReason",
      "refunds.attempts",
      "refunds.actor",
      "refunds.createdAt",
      "refunds.updatedAt",
      "refunds.processedAt",
      "users.email as customer",
    ])
    .orderBy("refunds.id", "desc")
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return { rows: rows as AdminRefundRow[], total };
}

/**
 * The staff's retry of a failed refund: pending again with a new gateway key (Razorpay answers
 * the same failed refund to the old key), when the payment still has that much left to refund;
 * with its audit row, in one transaction. Then sent. 409 when it is not failed.
 */
export async function retryFailedRefund(id: number, actor: Actor, db: Db = defaultDb): Promise<void> {
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
      actor,
      details: { status: ["failed", "pending"] },
    });
  });
  await sendRefund(id, db);
}

/** The staff's 'Send now' for a pending refund (no answer yet): audited, then sent with its same key. */
export async function resendPendingRefund(id: number, actor: Actor, db: Db = defaultDb): Promise<void> {
  const row = await getRefund(id, db);
  if (!row) throw new AppError(404, "That refund was not found");
  if (row.status !== "pending") throw new AppError(409, "Only a pending refund can be sent again");
  if (row.gatewayRefundId) throw new AppError(409, "The gateway has this refund already: its state comes from Razorpay");
  await recordAudit(db, {
    action: "update",
    entity: "refund",
    entityId: id,
    summary: `Refund #${id} of ${formatPrice(row.amount)} sent again by the staff`,
    actor,
  });
  await sendRefund(id, db);
}
