// Returns (issue 13, item 4; ADR 0012): a customer asks to return some or all units of a
// delivered order within RETURN_WINDOW_HOURS of its delivery, for a reason the policies accept
// (damaged or defective); the staff approve or reject it; an approved return becomes `returned`
// when the goods arrive: their units go back to stock then (only then), and the refund of an
// online payment is queued in the same transaction and sent after it. The states and who may
// move them are utils/order-status's; the money rule is utils/pricing's returnRefund.
import type { Db } from "~/lib/db.server";
import { db as defaultDb, nowIso, toCount } from "~/lib/db.server";
import type { ReturnStatus } from "~/lib/db-schema";
import { AppError } from "~/lib/errors.server";
import { LIMITS, rateLimitUser } from "~/lib/rate-limit.server";
import { formatLongDate } from "~/utils/dates";
import type { Actor } from "~/utils/order-status";
import { checkReturnTransition, RETURN_LABEL, returnWindowEnd } from "~/utils/order-status";
import { paidValue, returnRefund } from "~/utils/pricing";
import type { ReturnRequestInput } from "~/utils/return-schemas";
import type { ReturnReason } from "~/utils/returns";
import type { ReturnFilter } from "~/utils/returns";
import { RETURN_MESSAGES, RETURN_REASONS } from "~/utils/returns";
import type { PageInfo } from "~/utils/pagination";
import { ADMIN_PAGE_SIZE, pageInfo } from "~/utils/pagination";
import { recordAudit } from "./audit.server";
import { queueReturnMail } from "./order-mail.server";
import { queueRefund } from "~/models/refunds/queue.server";
import { sendRefundQuietly } from "~/models/refunds/send.server";
import { getUserById } from "~/models/users/users.server";

export interface ReturnLine {
  orderItemId: number;
  title: string;
  quantity: number;
  /** unit price in rupees at the time of the order */
  price: number;
}

export interface ReturnEvent {
  from: ReturnStatus | null;
  status: ReturnStatus;
  actor: Actor | "system";
  note: string | null;
  at: string;
}

export interface OrderReturn {
  id: number;
  orderId: number;
  status: ReturnStatus;
  statusLabel: string;
  reason: ReturnReason;
  reasonLabel: string;
  details: string;
  staffNote: string | null;
  refundAmount: number;
  createdAt: string;
  lines: ReturnLine[];
  events: ReturnEvent[];
}

/** What a delivered order's customer may still return: per order line, the units not yet in a live return. */
export interface Returnable {
  /** until when a return may be asked for; null when the order is not delivered */
  windowEnds: string | null;
  open: boolean;
  lines: { orderItemId: number; title: string; ordered: number; left: number; price: number }[];
}

const LIVE: ReturnStatus[] = ["requested", "approved", "returned"];

/** The order's returns, oldest first, with their lines and timelines. */
export async function returnsForOrder(orderId: number, db: Db = defaultDb): Promise<OrderReturn[]> {
  const rows = await db.selectFrom("returnRequests").selectAll().where("orderId", "=", orderId).orderBy("id").execute();
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [lines, events] = await Promise.all([
    db
      .selectFrom("returnLines")
      .innerJoin("orderItems", "orderItems.id", "returnLines.orderItemId")
      .select(["returnLines.returnId", "returnLines.orderItemId", "returnLines.quantity", "orderItems.title", "orderItems.unitPrice"])
      .where("returnLines.returnId", "in", ids)
      .orderBy("returnLines.orderItemId")
      .execute(),
    db.selectFrom("returnEvents").selectAll().where("returnId", "in", ids).orderBy("id").execute(),
  ]);
  return rows.map((r) => ({
    id: r.id,
    orderId: r.orderId,
    status: r.status,
    statusLabel: RETURN_LABEL[r.status],
    reason: r.reason as ReturnReason,
    reasonLabel: RETURN_REASONS[r.reason as ReturnReason] ?? r.reason,
    details: r.details,
    staffNote: r.staffNote,
    refundAmount: r.refundAmount,
    createdAt: r.createdAt,
    lines: lines
      .filter((l) => l.returnId === r.id)
      .map((l) => ({ orderItemId: l.orderItemId, title: l.title, quantity: l.quantity, price: l.unitPrice })),
    events: events
      .filter((e) => e.returnId === r.id)
      .map((e) => ({ from: e.fromStatus, status: e.toStatus, actor: e.actor, note: e.note, at: e.createdAt })),
  }));
}

/** When the order was delivered (its last move to `delivered`), or null. */
async function deliveredAt(orderId: number, db: Db): Promise<string | null> {
  const row = await db
    .selectFrom("orderEvents")
    .select("createdAt")
    .where("orderId", "=", orderId)
    .where("toStatus", "=", "delivered")
    .orderBy("id", "desc")
    .executeTakeFirst();
  return row?.createdAt ?? null;
}

/** Per order line: units ordered, and units already in a live (not rejected) return. */
async function lineBalance(orderId: number, db: Db) {
  const [items, taken] = await Promise.all([
    db
      .selectFrom("orderItems")
      .select(["id", "title", "quantity", "unitPrice", "discount"])
      .where("orderId", "=", orderId)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("returnLines")
      .innerJoin("returnRequests", "returnRequests.id", "returnLines.returnId")
      .select(["returnLines.orderItemId", (eb) => eb.fn.sum<number | string>("returnLines.quantity").as("units")])
      .where("returnRequests.orderId", "=", orderId)
      .where("returnRequests.status", "in", LIVE)
      .groupBy("returnLines.orderItemId")
      .execute(),
  ]);
  const inReturns = new Map(taken.map((t) => [t.orderItemId, Number(t.units)]));
  return items.map((i) => ({
    orderItemId: i.id,
    title: i.title,
    ordered: i.quantity,
    price: i.unitPrice,
    /** the line's share of a coupon discount: returned units refund what was paid for them (paidValue) */
    discount: i.discount,
    left: i.quantity - (inReturns.get(i.id) ?? 0),
  }));
}

/** What the order's customer may still return, and until when (the order page's form). */
export async function returnableFor(order: { id: number; status: string }, now = new Date(), db: Db = defaultDb): Promise<Returnable> {
  if (order.status !== "delivered") return { windowEnds: null, open: false, lines: [] };
  const at = await deliveredAt(order.id, db);
  const windowEnds = at ? returnWindowEnd(at) : null;
  const lines = await lineBalance(order.id, db);
  const open = windowEnds !== null && Date.parse(windowEnds) > now.getTime() && lines.some((l) => l.left > 0);
  return { windowEnds, open, lines };
}

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
      if (!line) throw new AppError(400, RETURN_MESSAGES.unknownLine, { [`qty-${orderItemId}`]: RETURN_MESSAGES.unknownLine });
      if (quantity > line.left) {
        const message = RETURN_MESSAGES.tooMany(line.title, Math.max(0, line.left));
        throw new AppError(409, message, { [`qty-${orderItemId}`]: message });
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

/**
 * The shop decides on a return or receives its goods, by the rules of utils/order-status:
 * approve or reject (with a note the customer reads) a requested return; mark an approved one
 * `returned` when the goods arrive: their units go back to stock and, for an online payment, its
 * refund is queued, in the same transaction as the change and its audit row. A change racing
 * another is refused (409). The customer's mail is queued in that transaction; the refund is sent
 * to the gateway once it commits.
 */
export async function decideReturn(
  returnId: number,
  to: Extract<ReturnStatus, "approved" | "rejected" | "returned">,
  note: string | null,
  db: Db = defaultDb,
): Promise<OrderReturn> {
  const { refundId, changed } = await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("returnRequests").selectAll().where("id", "=", returnId).executeTakeFirst();
    if (!row) throw new AppError(404, "That return was not found");
    const check = checkReturnTransition(row.status, to, "admin");
    if (!check.ok) throw new AppError(check.status, check.message);
    const now = nowIso();
    const moved = await trx
      .updateTable("returnRequests")
      .set({ status: to, updatedAt: now, ...(to === "rejected" ? { staffNote: note } : {}) })
      .where("id", "=", returnId)
      .where("status", "=", row.status)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) throw new AppError(409, "This return changed a moment ago. Please reload and try again.");
    await trx
      .insertInto("returnEvents")
      .values({
        returnId,
        fromStatus: row.status,
        toStatus: to,
        actor: "admin",
        actorUserId: null,
        note: to === "rejected" ? note : null,
        createdAt: now,
      })
      .execute();
    let refundId: number | null = null;
    if (to === "returned") {
      const lines = await trx
        .selectFrom("returnLines")
        .innerJoin("orderItems", "orderItems.id", "returnLines.orderItemId")
        .select(["orderItems.itemId", "returnLines.quantity"])
        .where("returnLines.returnId", "=", returnId)
        .orderBy("orderItems.itemId")
        .execute();
      for (const line of lines) {
        if (line.itemId === null) continue; // the product was deleted since: nothing to put back
        await trx
          .updateTable("items")
          .set((eb) => ({ stock: eb("stock", "+", line.quantity), version: eb("version", "+", 1), updatedAt: now }))
          .where("id", "=", line.itemId)
          .execute();
      }
      const order = await trx.selectFrom("orders").select(["paymentOrderId"]).where("id", "=", row.orderId).executeTakeFirstOrThrow();
      if (order.paymentOrderId && row.refundAmount > 0) {
        const refund = await queueRefund(trx, {
          paymentOrderId: order.paymentOrderId,
          orderId: row.orderId,
          amount: row.refundAmount,
          reason: "returned",
          key: `return:${returnId}`,
          actor: "admin",
        });
        refundId = refund.id;
      }
    }
    const change = `${RETURN_LABEL[row.status]} → ${RETURN_LABEL[to]}${note ? ` (${note})` : ""}`;
    const summary = `Return #${returnId} of order #${row.orderId}: ${change}`;
    await recordAudit(trx, { action: "status", entity: "return", entityId: returnId, summary });
    // The customer's mail, queued with the change.
    const changed = (await returnsForOrder(row.orderId, trx)).find((r) => r.id === returnId)!;
    const customer = await trx.selectFrom("orders").select("userId").where("id", "=", row.orderId).executeTakeFirstOrThrow();
    const user = await getUserById(customer.userId, trx);
    if (user) await queueReturnMail(trx, changed, user);
    return { orderId: row.orderId, refundId, changed };
  });
  await sendRefundQuietly(refundId, db);
  return changed;
}

export interface AdminReturnRow {
  id: number;
  orderId: number;
  status: ReturnStatus;
  reason: string;
  refundAmount: number;
  createdAt: string;
  customer: string;
  units: number;
}

function returnsOf(db: Db, filter: ReturnFilter) {
  const query = db.selectFrom("returnRequests");
  if (filter === "all") return query;
  if (filter === "open") return query.where("returnRequests.status", "in", ["requested", "approved"]);
  return query.where("returnRequests.status", "=", filter);
}

/**
 * The staff's returns list, ADMIN_PAGE_SIZE a page: waiting ones oldest first (the queue's
 * order), the others newest first; with the customer and the units. Reads one page and a count.
 */
export async function listReturnsPage(
  query: { status: ReturnFilter; page: number },
  db: Db = defaultDb,
): Promise<{ rows: AdminReturnRow[]; info: PageInfo }> {
  const { n } = await returnsOf(db, query.status)
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  const info = pageInfo(toCount(n as number), query.page);
  const waiting = query.status === "open" || query.status === "requested" || query.status === "approved";
  const rows = await returnsOf(db, query.status)
    .innerJoin("users", "users.id", "returnRequests.userId")
    .select([
      "returnRequests.id",
      "returnRequests.orderId",
      "returnRequests.status",
      "returnRequests.reason",
      "returnRequests.refundAmount",
      "returnRequests.createdAt",
      "users.email as customer",
      (eb) =>
        eb
          .selectFrom("returnLines")
          .select((l) => l.fn.sum<number | string>("returnLines.quantity").as("u"))
          .whereRef("returnLines.returnId", "=", "returnRequests.id")
          .as("units"),
    ])
    .orderBy("returnRequests.id", waiting ? "asc" : "desc")
    .limit(ADMIN_PAGE_SIZE)
    .offset(info.offset)
    .execute();
  return { rows: rows.map((r) => ({ ...r, units: Number(r.units ?? 0) })), info };
}
