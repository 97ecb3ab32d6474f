// Changing an order's status, by the rules of utils/order-status (the one status module), with what
// each change brings in its transaction: stock back on a cancellation, the refund and the coupon use
// given back, the audit row, the customer's mails, the invitation to review.
import type { Db } from "~/lib/db.server";
import { db as defaultDb, nowIso } from "~/lib/db.server";
import type { OrderStatus } from "~/lib/db-schema";
import { AppError } from "~/lib/errors.server";
import { isTestPaymentId } from "~/lib/payments.server";
import { LIMITS, rateLimitUser } from "~/lib/rate-limit.server";
import type { Actor } from "~/utils/order-status";
import { checkTransition } from "~/utils/order-status";
import { can, PERMISSION_REFUSED } from "~/utils/staff-permissions";
import type { ShipmentInput } from "~/utils/shipment";
import { recordAudit } from "~/models/audit.server";
import { lockItems, returnUnits } from "~/models/catalogue/variants.server";
import type { Actor as StaffActor } from "~/models/staff/staff.server";
import { releaseCouponUse } from "~/models/coupons/uses.server";
import { queueCancellationRefund } from "~/models/refunds/queue.server";
import { sendRefundQuietly } from "~/models/refunds/send.server";
import { inviteReviews } from "~/models/reviews/mail.server";
import { getUserById } from "~/models/users/users.server";
import { queueShippedMail } from "./mail.server";
import type { Order } from "./read.server";
import { getOrder } from "./read.server";

/** Who changes an order's status: a customer (counted against their limit), or the shop. */
export type StatusChanger =
  | { actor: Extract<Actor, "customer">; userId: number }
  /**
   * `shipUnpaid`: the staff confirmed shipping an order paid on the test gateway (no money received);
   * `shipment`: the carrier and tracking number, recorded when the order is shipped;
   * `staff`: who in the back-office made the change (the audit row names them)
   */
  | { actor: Extract<Actor, "admin">; userId: null; staff: StaffActor; shipUnpaid?: boolean; shipment?: ShipmentInput };

export const SHIPMENT_ONLY_WHEN_SHIPPED = "A carrier and tracking number are recorded only when the order is shipped.";

export const SHIP_UNPAID_REFUSED =
  "This order was paid on the test gateway: no money was received for it. Confirm that you want to ship it anyway.";
/** Beside the confirmation box (the message above is the form's banner). */
export const SHIP_UNPAID_FIELD = "Tick this box to ship it without payment.";

/**
 * Move an order to a new status, by the rules of utils/order-status (page and API). A customer's
 * change counts against their order-status limit (the shop's are not limited) and may touch only
 * their own orders (another's: 403). Cancelling an order that has not shipped returns its units to
 * stock; a shipped order's units are with the carrier, and come back as a return when they arrive
 * (ADR 0012: the staff record them then, by a stock adjustment). The change and
 * who made it are recorded, in one transaction; a change racing another is refused (409).
 */
export async function changeOrderStatus(orderId: number, to: OrderStatus, by: StatusChanger, db: Db = defaultDb): Promise<Order> {
  if (by.actor === "customer") await rateLimitUser(LIMITS.orderStatus, by.userId);
  // Recording a shipment's carrier and tracking number is a permission of its own beside the status's.
  if (by.actor === "admin" && (by.shipment?.carrier || by.shipment?.trackingNumber) && !can(by.staff.role, "orders.shipment")) {
    throw new AppError(403, PERMISSION_REFUSED);
  }
  let refundId: number | null = null;
  await db.transaction().execute(async (trx) => {
    const order = await trx
      .selectFrom("orders")
      .select(["id", "status", "userId", "paymentId"])
      .where("id", "=", orderId)
      .executeTakeFirst();
    if (!order) throw new AppError(404, "Order Not Found");
    // docs/api.md: another customer's order change is 403 (viewing it is 404).
    if (by.actor !== "admin" && order.userId !== by.userId) throw new AppError(403, "You can only change your own orders");
    const check = checkTransition(order.status, to, by.actor);
    if (!check.ok) throw new AppError(check.status, check.message);
    // A shop that forgot its Razorpay keys takes test payments: furniture never leaves for one unnoticed.
    if (to === "shipped" && isTestPaymentId(order.paymentId) && !(by.actor === "admin" && by.shipUnpaid)) {
      throw new AppError(409, SHIP_UNPAID_REFUSED, { fieldErrors: { shipUnpaid: SHIP_UNPAID_FIELD } });
    }
    const shipment = by.actor === "admin" ? by.shipment : undefined;
    if (shipment && (shipment.carrier || shipment.trackingNumber) && to !== "shipped") {
      const field = shipment.trackingNumber ? "trackingNumber" : "carrier";
      throw new AppError(400, SHIPMENT_ONLY_WHEN_SHIPPED, { fieldErrors: { [field]: SHIPMENT_ONLY_WHEN_SHIPPED } });
    }
    const recorded = to === "shipped" ? { carrier: shipment?.carrier ?? null, trackingNumber: shipment?.trackingNumber ?? null } : {};
    const now = nowIso();
    // A cancellation before shipping gives its units back. Its products are locked first, in id
    // order (PostgreSQL), before the order moves: moving it writes the day's sums (migration 0029,
    // by trigger), and a placement locks its products before writing the same sums, so both take
    // them in one order and never wait on each other in a circle.
    const returnsStock = to === "cancelled" && order.status === "processing";
    const lines = returnsStock
      ? await trx
          .selectFrom("orderItems")
          .select(["itemId", "variantId", "quantity"])
          .where("orderId", "=", orderId)
          .orderBy("itemId")
          .orderBy("variantId")
          .execute()
      : [];
    await lockItems(
      trx,
      lines.flatMap((l) => (l.itemId === null ? [] : [l.itemId])),
    );
    const moved = await trx
      .updateTable("orders")
      .set({ status: to, updatedAt: now, ...recorded })
      .where("id", "=", orderId)
      .where("status", "=", order.status)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) {
      throw new AppError(409, "This order changed a moment ago. Please reload and try again.");
    }
    if (returnsStock) {
      for (const line of lines) await returnUnits(trx, line, now);
    }
    // An online order's payment is refunded in full (ADR 0012), sent once this commits; its coupon use is given back.
    if (to === "cancelled") {
      refundId = await queueCancellationRefund(
        trx,
        orderId,
        by.actor === "admin" ? { actor: "admin", staff: by.staff } : { actor: "customer", actorId: by.userId },
      );
      await releaseCouponUse(trx, orderId);
    }
    await trx
      .insertInto("orderEvents")
      .values({ orderId, fromStatus: order.status, toStatus: to, actor: by.actor, actorUserId: by.userId, createdAt: now })
      .execute();
    if (by.actor === "admin") {
      const tracking = [shipment?.carrier, shipment?.trackingNumber].filter(Boolean).join(" ");
      const summary = `Order #${orderId}: ${order.status} → ${to}${to === "shipped" && tracking ? ` (${tracking})` : ""}`;
      await recordAudit(trx, {
        action: "status",
        entity: "order",
        entityId: orderId,
        summary,
        actor: by.staff,
        details: {
          status: [order.status, to],
          ...(to === "shipped" && tracking
            ? { carrier: [null, shipment?.carrier ?? null], trackingNumber: [null, shipment?.trackingNumber ?? null] }
            : {}),
        },
      });
    }
    // The customer's mails, queued with the change (app/lib/outbox.server.ts).
    if (to === "shipped") {
      const shipped = (await getOrder(orderId, { userId: null, isAdmin: true }, trx))!;
      const customer = await getUserById(order.userId, trx);
      if (customer) await queueShippedMail(trx, shipped, customer);
    }
    // Delivered: the customer is invited to review its pieces.
    if (to === "delivered") await inviteReviews({ id: orderId, userId: order.userId, status: to }, trx);
  });
  await sendRefundQuietly(refundId, db);
  return (await getOrder(orderId, { userId: by.userId, isAdmin: by.actor === "admin" }, db))!;
}
