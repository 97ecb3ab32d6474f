// The customer's request to return units of their delivered order (the order page and the API).
import type { Db } from "~/lib/db.server";
import { db as defaultDb, nowIso } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { LIMITS, rateLimitUser } from "~/lib/rate-limit.server";
import { formatLongDate } from "~/utils/dates";
import { returnWindowEnd } from "~/utils/order-status";
import { paidValue, returnRefund } from "~/utils/pricing";
import type { ReturnRequestInput } from "~/utils/return-schemas";
import { RETURN_MESSAGES } from "~/utils/returns";
import type { OrderReturn } from "./read.server";
import { deliveredAt, lineBalance, LIVE, returnsForOrder } from "./read.server";

/**
 * The customer asks to return units of their delivered order. Refused with a clear 4xx, and
 * nothing written: not their order (404), not delivered (409), past the window (409), a line not
 * of this order (400), more units than delivered less those already in a live return (409).
 * The order's row is locked first, so two requests at once cannot return the same units twice.
 */
export async function requestReturn(
  userId: number,
  orderId: number,
  input: ReturnRequestInput,
  now = new Date(),
  db: Db = defaultDb,
): Promise<OrderReturn> {
  await rateLimitUser(LIMITS.orderStatus, userId);
  const id = await db.transaction().execute(async (trx) => {
    const order = await trx
      .updateTable("orders")
      .set({ updatedAt: nowIso(now) })
      .where("id", "=", orderId)
      .where("userId", "=", userId)
      .returning(["id", "status", "total"])
      .executeTakeFirst();
    if (!order) throw new AppError(404, "Order Not Found");
    if (order.status !== "delivered") throw new AppError(409, RETURN_MESSAGES.notDelivered);
    const at = await deliveredAt(orderId, trx);
    if (!at || Date.parse(returnWindowEnd(at)) <= now.getTime()) {
      throw new AppError(409, RETURN_MESSAGES.windowClosed(formatLongDate(at ? returnWindowEnd(at) : now.toISOString())));
    }
    const balance = await lineBalance(orderId, trx);
    const wanted = new Map<number, number>();
    for (const line of input.lines) wanted.set(line.orderItemId, (wanted.get(line.orderItemId) ?? 0) + line.quantity);
    let value = 0;
    for (const [orderItemId, quantity] of wanted) {
      const line = balance.find((l) => l.orderItemId === orderItemId);
      if (!line)
        throw new AppError(400, RETURN_MESSAGES.unknownLine, { fieldErrors: { [`qty-${orderItemId}`]: RETURN_MESSAGES.unknownLine } });
      if (quantity > line.left) {
        const message = RETURN_MESSAGES.tooMany(line.title, Math.max(0, line.left));
        throw new AppError(409, message, { fieldErrors: { [`qty-${orderItemId}`]: message } });
      }
      value += paidValue({ price: line.price, quantity: line.ordered, discount: line.discount }, quantity);
    }
    const completesOrder = balance.every((l) => l.left - (wanted.get(l.orderItemId) ?? 0) === 0);
    const before = await trx
      .selectFrom("returnRequests")
      .select((eb) => eb.fn.sum<number | string>("refundAmount").as("sum"))
      .where("orderId", "=", orderId)
      .where("status", "in", LIVE)
      .executeTakeFirstOrThrow();
    const refundAmount = returnRefund({ orderTotal: order.total, refundedBefore: Number(before.sum ?? 0), value, completesOrder });
    const stamp = nowIso(now);
    const created = await trx
      .insertInto("returnRequests")
      .values({
        orderId,
        userId,
        status: "requested",
        reason: input.reason,
        details: input.details,
        staffNote: null,
        refundAmount,
        createdAt: stamp,
        updatedAt: stamp,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("returnLines")
      .values([...wanted].map(([orderItemId, quantity]) => ({ returnId: created.id, orderItemId, quantity })))
      .execute();
    await trx
      .insertInto("returnEvents")
      .values({
        returnId: created.id,
        fromStatus: null,
        toStatus: "requested",
        actor: "customer",
        actorUserId: userId,
        note: null,
        createdAt: stamp,
      })
      .execute();
    return created.id;
  });
  return (await returnsForOrder(orderId, db)).find((r) => r.id === id)!;
}
