// Returns (ADR 0012): a customer asks to return some or all units of a delivered order within
// RETURN_WINDOW_HOURS of its delivery, for a reason the policies accept (damaged or defective); the
// staff approve or reject it; an approved return becomes `returned` when the goods arrive. The states
// and who may move them are utils/order-status's; the money rule is utils/pricing's returnRefund.
// This module reads them: an order's returns, and what its customer may still return.
import { lineTitle } from "~/utils/variants";
import type { Db } from "~/lib/db.server";
import { db as defaultDb } from "~/lib/db.server";
import type { ReturnStatus } from "~/lib/db-schema";
import type { Actor } from "~/utils/order-status";
import { RETURN_LABEL, returnWindowEnd } from "~/utils/order-status";
import type { ReturnReason } from "~/utils/returns";
import { RETURN_REASONS } from "~/utils/returns";

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

export const LIVE: ReturnStatus[] = ["requested", "approved", "returned"];

/** The order's returns, oldest first, with their lines and timelines. */
export async function returnsForOrder(orderId: number, db: Db = defaultDb): Promise<OrderReturn[]> {
  const rows = await db.selectFrom("returnRequests").selectAll().where("orderId", "=", orderId).orderBy("id").execute();
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [lines, events] = await Promise.all([
    db
      .selectFrom("returnLines")
      .innerJoin("orderItems", "orderItems.id", "returnLines.orderItemId")
      .select([
        "returnLines.returnId",
        "returnLines.orderItemId",
        "returnLines.quantity",
        "orderItems.title",
        "orderItems.variantLabel",
        "orderItems.unitPrice",
      ])
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
      .map((l) => ({ orderItemId: l.orderItemId, title: lineTitle(l.title, l.variantLabel), quantity: l.quantity, price: l.unitPrice })),
    events: events
      .filter((e) => e.returnId === r.id)
      .map((e) => ({ from: e.fromStatus, status: e.toStatus, actor: e.actor, note: e.note, at: e.createdAt })),
  }));
}

/** When the order was delivered (its last move to `delivered`), or null. */
export async function deliveredAt(orderId: number, db: Db): Promise<string | null> {
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
export async function lineBalance(orderId: number, db: Db) {
  const [items, taken] = await Promise.all([
    db
      .selectFrom("orderItems")
      .select(["id", "title", "variantLabel", "quantity", "unitPrice", "discount"])
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
    title: lineTitle(i.title, i.variantLabel),
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
