// Razorpay's refund.* webhooks: the refund they name moves to the state they report, once.
import { sql } from "kysely";
import type { Db } from "~/lib/db.server";
import { db as defaultDb } from "~/lib/db.server";
import type { RefundStatus } from "~/lib/db-schema";
import { AppError } from "~/lib/errors.server";
import { applyState } from "./send.server";

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
