// The staff's refund queue (/admin/refunds, ADR 0012): payments that need someone (a payment
// marked failed without a refund, a paid payment whose order was refused and never placed) and
// refunds by state, with the actions on them; and the sweep that sends refunds nobody sent (a
// crash after the commit, a gateway without an answer) and refunds refused payments left longer
// than REFUSED_PAYMENT_HOURS.
import type { Db } from "~/lib/db.server";
import { db as defaultDb, nowIso, toCount } from "~/lib/db.server";
import { errorMessage } from "~/lib/log.server";
import type { RefundFilter } from "~/utils/refunds";
import { NEEDING_ACTION_LIMIT } from "~/utils/refunds";
import { ADMIN_PAGE_SIZE, pageInfo } from "~/utils/pagination";
import type { Paged } from "./catalogue/admin-lists.server";
import { REFUSED_PAYMENT_HOURS, refundUnplacedPayment } from "./checkout.server";
import type { Refund } from "./refunds.server";
import { sendDueRefunds } from "./refunds.server";

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
export async function listRefundsPage(query: { status: RefundFilter; page: number }, db: Db = defaultDb): Promise<Paged<AdminRefundRow>> {
  const { n } = await refundsOf(db, query.status)
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  const info = pageInfo(toCount(n as number), query.page);
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
    .limit(ADMIN_PAGE_SIZE)
    .offset(info.offset)
    .execute();
  return { rows: rows as AdminRefundRow[], info };
}

/**
 * The sweep: pending refunds left unsent for a minute are sent again (same key), and paid payments
 * whose order was refused and not placed for REFUSED_PAYMENT_HOURS are refunded. Answers what it did.
 */
export async function sweepRefunds(db: Db = defaultDb, now = new Date()): Promise<{ sent: number; refunded: number }> {
  const sent = await sendDueRefunds(db, now);
  const before = nowIso(new Date(now.getTime() - REFUSED_PAYMENT_HOURS * 60 * 60 * 1000));
  const stale = await db
    .selectFrom("paymentOrders")
    .select("id")
    .where("status", "=", "paid")
    .where("failure", "is not", null)
    .where("updatedAt", "<", before)
    // Candidates only: refundUnplacedPayment decides again under the payment order's lock.
    .where("orderId", "is", null)
    .orderBy("updatedAt")
    .limit(50)
    .execute();
  let refunded = 0;
  for (const { id } of stale) {
    try {
      await refundUnplacedPayment(id, "system", db);
      refunded++;
    } catch (error) {
      console.error(`payment order ${id} could not be refunded by the sweep:`, errorMessage(error));
    }
  }
  return { sent, refunded };
}

/** Every 5 minutes in the server process (entry.server), and once at start. */
export function scheduleRefundSweep(db: Db = defaultDb, everyMs = 5 * 60 * 1000) {
  const run = () => sweepRefunds(db).catch((error) => console.error("refund sweep failed:", errorMessage(error)));
  const timer = setInterval(run, everyMs);
  timer.unref();
  void run();
}
