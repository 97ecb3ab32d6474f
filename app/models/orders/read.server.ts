// An order as its pages, its mails and the API show it: its lines, its events (who moved it and
// when) and its refunds, read for one order or a page of them. Placing one is place.server;
// changing its status, status.server; the customer's lists, list.server.
import { lineTitle } from "~/utils/variants";
import type { Selectable } from "kysely";
import type { Db } from "~/lib/db.server";
import { db as defaultDb } from "~/lib/db.server";
import type { OrdersTable, OrderStatus, PaymentMethod } from "~/lib/db-schema";
import { isTestPaymentId } from "~/lib/payments.server";
import type { ShippingAddress } from "~/utils/checkout";
import { IdSchema } from "~/utils/schemas";
import type { OrderRefund } from "~/models/refunds/read.server";
import { orderRefunds } from "~/models/refunds/read.server";

/** Orders placed before delivery zones (migration 0018) were promised 5-7 business days, delivered by creation + DELIVERY_DAYS. */
export const DELIVERY_DAYS = 7;
const LEGACY_DELIVERY_DAYS = { min: 5, max: 7 };

const DAY_MS = 24 * 60 * 60 * 1000;

export interface OrderLine {
  itemId: number | null;
  /** the variant ordered, as it was: its id (the row may be gone since), SKU and label ('' for a product without options) */
  variantId: number | null;
  sku: string;
  variantLabel: string;
  /** the product's title as it was */
  title: string;
  slug: string;
  imgPath: string;
  quantity: number;
  /** unit price in rupees at the time of the order */
  price: number;
  /** this line's share of the order's coupon discount, in rupees (0 without one) */
  discount: number;
}

export interface OrderEvent {
  from: OrderStatus | null;
  status: OrderStatus;
  actor: "customer" | "admin" | "system";
  at: string;
}

export interface Order {
  id: number;
  userId: number;
  status: OrderStatus;
  createdAt: string;
  orderDate: string;
  updatedAt: string;
  estimatedDelivery: string;
  /** the business days its pincode's zone promised when it was placed (ADR 0017) */
  deliveryDays: { min: number; max: number };
  items: OrderLine[];
  shippingAddress: ShippingAddress;
  paymentMethod: PaymentMethod;
  paymentId: string | null;
  /** paid on the offline test gateway: no money moved */
  testPayment: boolean;
  subtotal: number;
  /** rupees its coupon took off the subtotal (0 without one); GST and shipping are on what is left */
  discount: number;
  /** the coupon code it used, or null */
  couponCode: string | null;
  shipping: number;
  gst: number;
  /** subtotal − discount + shipping + gst */
  total: number;
  /** a JSON string of the items, total (the subtotal, as docs/api.md says) and the address */
  orderDetails: string;
  /** recorded by the shop when it shipped the order (else null) */
  carrier: string | null;
  trackingNumber: string | null;
  events: OrderEvent[];
  /** money given back for it (ADR 0012): a cancellation's, a return's, a second payment's */
  refunds: OrderRefund[];
}

/** Who is asking: a customer sees only their orders; the shop sees all. */
export interface Viewer {
  userId: number | null;
  isAdmin: boolean;
}

export const ORDER_COLUMNS = [
  "id",
  "userId",
  "status",
  "paymentMethod",
  "paymentId",
  "subtotal",
  "discount",
  "couponCode",
  "shipping",
  "gst",
  "total",
  "shipName",
  "shipAddress",
  "shipCity",
  "shipState",
  "shipPincode",
  "shipPhone",
  "shipEmail",
  "carrier",
  "trackingNumber",
  "deliveryMinDays",
  "deliveryMaxDays",
  "estimatedDelivery",
  "createdAt",
  "updatedAt",
] as const;

type OrderRow = Pick<Selectable<OrdersTable>, (typeof ORDER_COLUMNS)[number]>;

export function estimatedDelivery(createdAt: string): string {
  return new Date(Date.parse(createdAt) + DELIVERY_DAYS * DAY_MS).toISOString();
}

function toOrder(row: OrderRow, items: OrderLine[], events: OrderEvent[], refunds: OrderRefund[] = []): Order {
  const shippingAddress: ShippingAddress = {
    name: row.shipName,
    address: row.shipAddress,
    city: row.shipCity,
    state: row.shipState,
    pincode: row.shipPincode,
    phone: row.shipPhone,
    email: row.shipEmail,
  };
  return {
    id: row.id,
    userId: row.userId,
    status: row.status,
    createdAt: row.createdAt,
    orderDate: row.createdAt,
    updatedAt: row.updatedAt,
    estimatedDelivery: row.estimatedDelivery ?? estimatedDelivery(row.createdAt),
    deliveryDays:
      row.deliveryMinDays !== null && row.deliveryMaxDays !== null
        ? { min: row.deliveryMinDays, max: row.deliveryMaxDays }
        : LEGACY_DELIVERY_DAYS,
    items,
    shippingAddress,
    paymentMethod: row.paymentMethod,
    paymentId: row.paymentId,
    testPayment: isTestPaymentId(row.paymentId),
    subtotal: row.subtotal,
    discount: row.discount,
    couponCode: row.couponCode,
    shipping: row.shipping,
    gst: row.gst,
    total: row.total,
    orderDetails: JSON.stringify({
      items: items.map((i) => ({ itemId: i.itemId, title: lineTitle(i.title, i.variantLabel), quantity: i.quantity, price: i.price })),
      total: row.subtotal,
      shippingAddress,
    }),
    carrier: row.carrier,
    trackingNumber: row.trackingNumber,
    events,
    refunds,
  };
}

/** Orders with their lines and events, read for these rows only (one page: the IN list stays short). */
export async function withLines(rows: OrderRow[], db: Db): Promise<Order[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [lines, events, refunds] = await Promise.all([
    db
      .selectFrom("orderItems")
      .select(["orderId", "itemId", "variantId", "sku", "variantLabel", "title", "slug", "imgPath", "quantity", "unitPrice", "discount"])
      .where("orderId", "in", ids)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("orderEvents")
      .select(["orderId", "fromStatus", "toStatus", "actor", "createdAt"])
      .where("orderId", "in", ids)
      .orderBy("id")
      .execute(),
    orderRefunds(ids, db),
  ]);
  return rows.map((row) =>
    toOrder(
      row,
      lines
        .filter((l) => l.orderId === row.id)
        .map((l) => ({
          itemId: l.itemId,
          variantId: l.variantId,
          sku: l.sku,
          variantLabel: l.variantLabel,
          title: l.title,
          slug: l.slug,
          imgPath: l.imgPath,
          quantity: l.quantity,
          price: l.unitPrice,
          discount: l.discount,
        })),
      events.filter((e) => e.orderId === row.id).map((e) => ({ from: e.fromStatus, status: e.toStatus, actor: e.actor, at: e.createdAt })),
      refunds.get(row.id),
    ),
  );
}

/** One order, or null when it does not exist or is not the viewer's (the caller answers 404). */
export async function getOrder(id: number, viewer: Viewer, db: Db = defaultDb): Promise<Order | null> {
  let query = db.selectFrom("orders").select(ORDER_COLUMNS).where("id", "=", id);
  if (!viewer.isAdmin) query = query.where("userId", "=", viewer.userId ?? -1);
  const row = await query.executeTakeFirst();
  return row ? ((await withLines([row], db))[0] ?? null) : null;
}

/** An order by the id in a URL (anything not an id is simply not found), if the viewer may see it. */
export async function getOrderByParam(raw: unknown, viewer: Viewer, db: Db = defaultDb): Promise<Order | null> {
  const id = IdSchema.safeParse(raw);
  return id.success ? getOrder(id.data, viewer, db) : null;
}

/** An order just placed, as the shop sees it (its confirmation mail was queued in its transaction, by placeOrder). */
export async function placedOrder(orderId: number, db: Db): Promise<Order> {
  return (await getOrder(orderId, { userId: null, isAdmin: true }, db))!;
}
