// Orders: placing one from the customer's cart (one transaction: stock, order, items, event,
// empty cart), reading them, and changing their status through the one status module.
import type { Db } from "~/lib/db.server";
import type { ListPage, RowWindow } from "~/lib/api-params.server";
import { db as defaultDb, isUniqueViolation, nowIso, toCount } from "~/lib/db.server";
import { AppError, OrderExistsError } from "~/lib/errors.server";
import { isTestPaymentId, TEST_MARKER } from "~/lib/payments.server";
import { LIMITS, rateLimitUser } from "~/lib/rate-limit.server";
import type { Selectable } from "kysely";
import type { OrdersTable, OrderStatus, PaymentMethod } from "~/lib/db-schema";
import type { ShippingAddress } from "~/utils/checkout";
import { COD_LIMITS, COD_MESSAGES, TEST_PAYMENT_MESSAGES } from "~/utils/checkout";
import type { Actor } from "~/utils/order-status";
import { checkTransition } from "~/utils/order-status";
import type { PageInfo } from "~/utils/pagination";
import { pageInfo } from "~/utils/pagination";
import { discountedTotals, MAX_CART_LINES } from "~/utils/pricing";
import { IdSchema } from "~/utils/schemas";
import type { ShipmentInput } from "~/utils/shipment";
import { recordAudit } from "./audit.server";
import { assertStock, CART_FULL } from "./cart.server";
import { checkOrderDelivery } from "./delivery.server";
import { countCouponUse, discountForOrder, parseSnapshot, releaseCouponUse } from "~/models/coupons/uses.server";
import { queueOrderConfirmation, queueShippedMail } from "./order-mail.server";
import { lockForPlacement, recordPlacement } from "./payment-orders.server";
import type { OrderRefund } from "~/models/refunds/read.server";
import { orderRefunds } from "~/models/refunds/read.server";
import { queueCancellationRefund } from "~/models/refunds/queue.server";
import { sendRefundQuietly } from "~/models/refunds/send.server";
import { lockCartItems, releaseForCustomer, withAvailability } from "./reservations.server";
import { inviteReviews } from "~/models/reviews/mail.server";
import { getUserById } from "~/models/users/users.server";

/** Orders placed before delivery zones (migration 0018) were promised 5-7 business days, delivered by creation + DELIVERY_DAYS. */
export const DELIVERY_DAYS = 7;
const LEGACY_DELIVERY_DAYS = { min: 5, max: 7 };
/** Orders on one page of the customer's /orders page. */
export const CUSTOMER_ORDERS_PAGE_SIZE = 10;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface OrderLine {
  itemId: number | null;
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

const ORDER_COLUMNS = [
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
      items: items.map((i) => ({ itemId: i.itemId, title: i.title, quantity: i.quantity, price: i.price })),
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
async function withLines(rows: OrderRow[], db: Db): Promise<Order[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [lines, events, refunds] = await Promise.all([
    db
      .selectFrom("orderItems")
      .select(["orderId", "itemId", "title", "slug", "imgPath", "quantity", "unitPrice", "discount"])
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

/** The orders a viewer may see (a customer: their own; the shop: every order), newest first. */
function viewable(viewer: Viewer, db: Db) {
  const query = db.selectFrom("orders");
  return viewer.isAdmin ? query : query.where("userId", "=", viewer.userId ?? -1);
}

function newestFirst(viewer: Viewer, window: RowWindow, db: Db) {
  return viewable(viewer, db)
    .select(ORDER_COLUMNS)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(window.limit)
    .offset(window.offset);
}

async function countViewable(viewer: Viewer, db: Db): Promise<number> {
  const { n } = await viewable(viewer, db)
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return toCount(n);
}

/** GET /api/orders: one window of the viewer's orders, newest first, and how many there are in all. */
export async function pageOfOrders(viewer: Viewer, window: RowWindow, db: Db = defaultDb): Promise<ListPage<Order>> {
  const total = await countViewable(viewer, db);
  const rows = window.offset < total ? await newestFirst(viewer, window, db).execute() : [];
  return { rows: await withLines(rows, db), total };
}

/** The customer's /orders page: CUSTOMER_ORDERS_PAGE_SIZE a page, newest first; a page past the end shows the last. */
export async function customerOrdersPage(
  userId: number,
  requested: number,
  db: Db = defaultDb,
): Promise<{ orders: Order[]; info: PageInfo }> {
  const viewer = { userId, isAdmin: false };
  const info = pageInfo(await countViewable(viewer, db), requested, CUSTOMER_ORDERS_PAGE_SIZE);
  const rows = await newestFirst(viewer, { offset: info.offset, limit: CUSTOMER_ORDERS_PAGE_SIZE }, db).execute();
  return { orders: await withLines(rows, db), info };
}

/** The viewer's newest orders, at most `limit` (a list to show in full is paged: pageOfOrders). */
export async function listOrders(viewer: Viewer, db: Db = defaultDb, limit = CUSTOMER_ORDERS_PAGE_SIZE): Promise<Order[]> {
  return withLines(await newestFirst(viewer, { offset: 0, limit }, db).execute(), db);
}

/** The address of the customer's latest order: the checkout form starts from it. */
export async function lastShippingAddress(userId: number, db: Db = defaultDb): Promise<Partial<ShippingAddress> | null> {
  const row = await db
    .selectFrom("orders")
    .select(["shipAddress", "shipCity", "shipState", "shipPincode"])
    .where("userId", "=", userId)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .executeTakeFirst();
  return row ? { address: row.shipAddress, city: row.shipCity, state: row.shipState, pincode: row.shipPincode } : null;
}

// ---- placing an order ------------------------------------------------------------------

export interface PaymentForOrder {
  paymentOrderId: string;
  paymentId: string;
  amountPaise: number;
}

export interface PlaceOrderInput {
  userId: number;
  shipping: ShippingAddress;
  paymentMethod: PaymentMethod;
  /** the checkout form's key: the same key never makes a second order */
  idempotencyKey?: string | null;
  /** online orders: the verified payment that pays for it */
  payment?: PaymentForOrder | null;
  actor?: "customer" | "system";
  /** the total the customer saw on the checkout page: a cart changed since then is refused */
  expectedTotal?: number;
  /**
   * Writes that commit or roll back with the order, made once the cart is locked: an online
   * order's payment record, so that a crash never keeps one without the other.
   */
  withOrder?: (trx: Db) => Promise<void>;
}

export const EMPTY_CART = "Your cart is empty";
export const CART_CHANGED = "Your cart changed since this page was loaded. Please review your order and place it again.";
export const AMOUNT_MISMATCH = "The payment does not match your order total. Your cart changed after you paid; nothing was ordered.";

/**
 * A cart's lines with the catalogue's prices and stock, in item id order, refused when the cart
 * is empty (400) or a line cannot be ordered (409): more than its customer may have, the stock
 * less what other customers hold while they pay (`userId`; null counts everyone's holds).
 * Placing an order and paying for one both read it; inside their transaction they `lock` the
 * products first (reservations.server's lockCartItems), so what they read stays true until commit.
 */
export async function orderableLines(
  db: Db,
  cartId: string | null,
  customer: { userId: number | null; lock?: boolean } = { userId: null },
) {
  if (cartId && customer.lock) await lockCartItems(db, cartId);
  const rows = cartId
    ? await db
        .selectFrom("cartLines")
        .innerJoin("items", "items.id", "cartLines.itemId")
        .select([
          "items.id as itemId",
          "items.title",
          "items.slug",
          "items.imgPath",
          "items.price",
          "items.categoryId",
          "items.stock",
          "cartLines.quantity",
        ])
        .where("cartLines.cartId", "=", cartId)
        .orderBy("items.id")
        .execute()
    : [];
  if (rows.length === 0) throw new AppError(400, EMPTY_CART, undefined, undefined, "EMPTY_CART");
  if (rows.length > MAX_CART_LINES) throw new AppError(409, CART_FULL);
  const lines = await withAvailability(db, rows, customer.userId);
  for (const line of lines) assertStock({ title: line.title, stock: line.available, quantity: line.quantity, held: line.held }, "ordering");
  return lines;
}

/** An order by the id in a URL (anything not an id is simply not found), if the viewer may see it. */
export async function getOrderByParam(raw: unknown, viewer: Viewer, db: Db = defaultDb): Promise<Order | null> {
  const id = IdSchema.safeParse(raw);
  return id.success ? getOrder(id.data, viewer, db) : null;
}

/** The order the key or the payment already made, as the error to throw (the caller may show that order). */
async function existingOrderFor(input: PlaceOrderInput, key: string | null, db: Db): Promise<OrderExistsError | null> {
  if (input.payment) {
    const { paymentOrderId, paymentId } = input.payment;
    const row = await db.selectFrom("orders").select("id").where("paymentOrderId", "=", paymentOrderId).executeTakeFirst();
    const byPayment = row ?? (await db.selectFrom("orders").select("id").where("paymentId", "=", paymentId).executeTakeFirst());
    if (byPayment) return new OrderExistsError(byPayment.id, `This payment has already been used for order #${byPayment.id}`);
  }
  if (key) {
    const row = await db.selectFrom("orders").select("id").where("idempotencyKey", "=", key).executeTakeFirst();
    if (row) return new OrderExistsError(row.id, `This order has already been placed (order #${row.id})`);
  }
  return null;
}

/**
 * COD_LIMITS for an order whose money is not taken: cash on delivery, or a payment on the offline
 * test gateway (`how`: whose messages). Checked inside the transaction once the customer's cart
 * is locked, so two placements at once count each other; the open orders counted are both kinds.
 * Starting a test payment checks them too, before its units are held.
 */
export async function assertUnpaidAllowed(
  trx: Db,
  userId: number,
  lines: { title: string; quantity: number }[],
  total: number,
  how: "cod" | "test",
): Promise<void> {
  const messages = how === "cod" ? COD_MESSAGES : TEST_PAYMENT_MESSAGES;
  const bulky = lines.find((line) => line.quantity > COD_LIMITS.unitsPerPiece);
  if (bulky) throw new AppError(400, messages.tooManyUnits(bulky.title));
  if (total > COD_LIMITS.maxTotal) throw new AppError(400, messages.tooLarge);
  const open = await trx
    .selectFrom("orders")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("userId", "=", userId)
    .where((eb) => eb.or([eb("paymentMethod", "=", "cod"), eb("paymentId", "like", `pay_${TEST_MARKER}%`)]))
    .where("status", "=", "processing")
    .executeTakeFirstOrThrow();
  if (Number(open.n) >= COD_LIMITS.openOrders) throw new AppError(409, messages.tooManyOpen);
}

/**
 * Place an order from the customer's cart, in one transaction: lock the cart, re-read it with
 * the catalogue's prices and stock, compute the totals, write the order, its items and first
 * event, take the units from stock (a conditional update that cannot go below zero), and
 * empty the cart. Nothing is written when any step fails.
 */
export async function placeOrder(input: PlaceOrderInput, db: Db = defaultDb): Promise<number> {
  const key = input.idempotencyKey ? `${input.userId}:${input.idempotencyKey}` : null;
  try {
    return await db.transaction().execute(async (trx) => {
      const now = nowIso();
      // Lock the customer's cart first: two placements from one cart (two tabs) queue here,
      // and the second sees the cart the first emptied.
      const cart = await trx
        .updateTable("carts")
        .set({ updatedAt: now })
        .where("userId", "=", input.userId)
        .returning(["id", "couponCode"])
        .executeTakeFirst();
      // The payment order next (placement, refund and failure all decide under its lock): one that
      // became an order, or was marked failed for a refund, is never placed again.
      const paymentOrder = input.payment ? await lockForPlacement(trx, input.payment.paymentOrderId) : null;
      const previous = await existingOrderFor(input, key, trx);
      if (previous) throw previous;
      if (input.withOrder) await input.withOrder(trx);
      const lines = await orderableLines(trx, cart?.id ?? null, { userId: input.userId, lock: true });
      // The address: a pincode that exists, in the state given, served, with cash on delivery if chosen (ADR 0017).
      const delivery = await checkOrderDelivery(
        trx,
        input.shipping,
        input.paymentMethod,
        lines.map((l) => l.itemId),
      );
      // A paid payment is priced by the coupon it was paid with; else the cart's code, checked again now.
      const snapshot = paymentOrder ? parseSnapshot(paymentOrder.coupon) : null;
      const discount = await discountForOrder(trx, {
        code: input.payment ? null : (cart?.couponCode ?? null),
        snapshot,
        paymentOrderId: input.payment?.paymentOrderId ?? null,
        lines,
        userId: input.userId,
      });
      const totals = discountedTotals(lines, discount?.amount ?? 0);
      if (input.expectedTotal !== undefined && input.expectedTotal !== totals.total) {
        throw new AppError(409, CART_CHANGED, undefined, undefined, "STALE_TOTAL");
      }
      if (input.payment && input.payment.amountPaise !== totals.total * 100) throw new AppError(409, AMOUNT_MISMATCH);
      if (input.paymentMethod === "cod") await assertUnpaidAllowed(trx, input.userId, lines, totals.total, "cod");
      else if (input.payment && isTestPaymentId(input.payment.paymentId)) {
        await assertUnpaidAllowed(trx, input.userId, lines, totals.total, "test");
      }

      const order = await trx
        .insertInto("orders")
        .values({
          userId: input.userId,
          status: "processing",
          paymentMethod: input.paymentMethod,
          paymentOrderId: input.payment?.paymentOrderId ?? null,
          paymentId: input.payment?.paymentId ?? null,
          idempotencyKey: key,
          subtotal: totals.subtotal,
          discount: totals.discount,
          couponCode: discount?.code ?? null,
          shipping: totals.shipping,
          gst: totals.gst,
          total: totals.total,
          shipName: input.shipping.name,
          shipAddress: input.shipping.address,
          shipCity: input.shipping.city,
          shipState: input.shipping.state,
          shipPincode: input.shipping.pincode,
          shipPhone: input.shipping.phone,
          shipEmail: input.shipping.email,
          ...delivery,
          createdAt: now,
          updatedAt: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();

      await trx
        .insertInto("orderItems")
        .values(
          lines.map((l, i) => ({
            orderId: order.id,
            itemId: l.itemId,
            title: l.title,
            slug: l.slug,
            imgPath: l.imgPath,
            quantity: l.quantity,
            unitPrice: l.price,
            discount: discount?.lines[i] ?? 0,
          })),
        )
        .execute();
      if (input.payment) await recordPlacement(trx, input.payment.paymentOrderId, order.id, now);
      // The coupon's use, counted here so racing orders never pass its limit (coupons.server).
      if (discount) await countCouponUse(trx, discount, order.id, input.userId, now);
      // In item id order, so two carts never wait on each other's rows in opposite orders.
      for (const line of lines) {
        const taken = await trx
          .updateTable("items")
          .set((eb) => ({ stock: eb("stock", "-", line.quantity), version: eb("version", "+", 1), updatedAt: now }))
          .where("id", "=", line.itemId)
          .where("stock", ">=", line.quantity)
          .executeTakeFirst();
        if (Number(taken.numUpdatedRows) !== 1) {
          throw new AppError(409, `${line.title} has just sold out. Please update your cart.`, undefined, undefined, "STOCK_SHORTAGE");
        }
      }
      await trx
        .insertInto("orderEvents")
        .values({
          orderId: order.id,
          fromStatus: null,
          toStatus: "processing",
          actor: input.actor ?? "customer",
          actorUserId: input.actor === "system" ? null : input.userId,
          createdAt: now,
        })
        .execute();
      await trx.deleteFrom("cartLines").where("cartId", "=", cart!.id).execute();
      if (cart!.couponCode) await trx.updateTable("carts").set({ couponCode: null }).where("id", "=", cart!.id).execute();
      // The cart is an order now: whatever its customer held while paying is theirs, or free again.
      await releaseForCustomer(trx, input.userId);
      // The confirmation mail is queued with the order: a crash after the commit loses neither.
      const placed = (await getOrder(order.id, { userId: null, isAdmin: true }, trx))!;
      const customer = await getUserById(input.userId, trx);
      if (customer) await queueOrderConfirmation(trx, placed, customer);
      return order.id;
    });
  } catch (error) {
    // A simultaneous placement with the same key or payment won the unique constraint.
    if (isUniqueViolation(error)) {
      const previous = await existingOrderFor(input, key, db);
      if (previous) throw previous;
    }
    throw error;
  }
}

// ---- status changes --------------------------------------------------------------------

/** Who changes an order's status: a customer (counted against their limit), or the shop. */
export type StatusChanger =
  | { actor: Extract<Actor, "customer">; userId: number }
  /**
   * `shipUnpaid`: the staff confirmed shipping an order paid on the test gateway (no money received);
   * `shipment`: the carrier and tracking number, recorded when the order is shipped
   */
  | { actor: Extract<Actor, "admin">; userId: null; shipUnpaid?: boolean; shipment?: ShipmentInput };

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
      throw new AppError(409, SHIP_UNPAID_REFUSED, { shipUnpaid: SHIP_UNPAID_FIELD });
    }
    const shipment = by.actor === "admin" ? by.shipment : undefined;
    if (shipment && (shipment.carrier || shipment.trackingNumber) && to !== "shipped") {
      const field = shipment.trackingNumber ? "trackingNumber" : "carrier";
      throw new AppError(400, SHIPMENT_ONLY_WHEN_SHIPPED, { [field]: SHIPMENT_ONLY_WHEN_SHIPPED });
    }
    const recorded = to === "shipped" ? { carrier: shipment?.carrier ?? null, trackingNumber: shipment?.trackingNumber ?? null } : {};
    const now = nowIso();
    const moved = await trx
      .updateTable("orders")
      .set({ status: to, updatedAt: now, ...recorded })
      .where("id", "=", orderId)
      .where("status", "=", order.status)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1) {
      throw new AppError(409, "This order changed a moment ago. Please reload and try again.");
    }
    if (to === "cancelled" && order.status === "processing") {
      const lines = await trx
        .selectFrom("orderItems")
        .select(["itemId", "quantity"])
        .where("orderId", "=", orderId)
        .orderBy("itemId")
        .execute();
      for (const line of lines) {
        if (line.itemId === null) continue;
        await trx
          .updateTable("items")
          .set((eb) => ({ stock: eb("stock", "+", line.quantity), version: eb("version", "+", 1), updatedAt: now }))
          .where("id", "=", line.itemId)
          .execute();
      }
    }
    // An online order's payment is refunded in full (ADR 0012), sent once this commits; its coupon use is given back.
    if (to === "cancelled") {
      refundId = await queueCancellationRefund(trx, orderId, by);
      await releaseCouponUse(trx, orderId);
    }
    await trx
      .insertInto("orderEvents")
      .values({ orderId, fromStatus: order.status, toStatus: to, actor: by.actor, actorUserId: by.userId, createdAt: now })
      .execute();
    if (by.actor === "admin") {
      const tracking = [shipment?.carrier, shipment?.trackingNumber].filter(Boolean).join(" ");
      const summary = `Order #${orderId}: ${order.status} → ${to}${to === "shipped" && tracking ? ` (${tracking})` : ""}`;
      await recordAudit(trx, { action: "status", entity: "order", entityId: orderId, summary });
    }
    // The customer's mails, queued with the change (app/lib/outbox.server.ts).
    if (to === "shipped") {
      const shipped = (await getOrder(orderId, { userId: null, isAdmin: true }, trx))!;
      const customer = await getUserById(order.userId, trx);
      if (customer) await queueShippedMail(trx, shipped, customer);
    }
    // Delivered: the customer is invited to review its pieces (issue 17, part 3).
    if (to === "delivered") await inviteReviews({ id: orderId, userId: order.userId, status: to }, trx);
  });
  await sendRefundQuietly(refundId, db);
  return (await getOrder(orderId, { userId: by.userId, isAdmin: by.actor === "admin" }, db))!;
}
