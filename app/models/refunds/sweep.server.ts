// The refund sweep: it sends refunds nobody sent (a crash after the commit, a gateway without an
// answer) and refunds refused payments left longer than REFUSED_PAYMENT_HOURS.
import type { Db } from "~/lib/db.server";
import { db as defaultDb, nowIso } from "~/lib/db.server";
import { errorMessage, log } from "~/lib/log.server";
import { REFUSED_PAYMENT_HOURS, refundUnplacedPayment } from "~/models/payments/unplaced.server";
import { SYSTEM_ACTOR } from "~/models/staff/staff.server";
import { sendRefundQuietly } from "./send.server";

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
      await refundUnplacedPayment(id, SYSTEM_ACTOR, db);
      refunded++;
    } catch (error) {
      log.error(`payment order ${id} could not be refunded by the sweep: ${errorMessage(error)}`);
    }
  }
  return { sent, refunded };
}

/** Every 5 minutes in the server process (entry.server), and once at start. */
export function scheduleRefundSweep(db: Db = defaultDb, everyMs = 5 * 60 * 1000) {
  const run = () => sweepRefunds(db).catch((error) => log.error(`refund sweep failed: ${errorMessage(error)}`));
  const timer = setInterval(run, everyMs);
  timer.unref();
  void run();
}
