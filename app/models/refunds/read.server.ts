// Refunds as the shop's pages and the API show them: of an order, of a payment order, of several
// orders at once (a page of them), and the customer's view of one.
import type { Db } from "~/lib/db.server";
import { db as defaultDb } from "~/lib/db.server";
import type { RefundReason as Reason, RefundStatus } from "~/lib/db-schema";

export type RefundReason = Reason;
export type { RefundStatus };

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
