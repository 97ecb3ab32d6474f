// Placing an order from the customer's cart, in one transaction: stock, order, items, first event,
// coupon use, payment record, the emptied cart and the confirmation mail.
import type { Db } from "~/lib/db.server";
import { db as defaultDb, isUniqueViolation, nowIso } from "~/lib/db.server";
import { AppError, OrderExistsError } from "~/lib/errors.server";
import { countOrderPlaced } from "~/lib/metrics.server";
import { isTestPaymentId } from "~/lib/payments.server";
import type { PaymentMethod } from "~/lib/db-schema";
import type { ShippingAddress } from "~/utils/checkout";
import { discountedTotals } from "~/utils/pricing";
import { countCouponUse, discountForOrder, parseSnapshot } from "~/models/coupons/uses.server";
import { checkOrderDelivery } from "~/models/delivery/quote.server";
import { lockForPlacement, recordPlacement } from "~/models/payments/payment-orders.server";
import { releaseForCustomer } from "~/models/reservations.server";
import { takeUnits } from "~/models/catalogue/variants.server";
import { getUserById } from "~/models/users/users.server";
import { queueOrderConfirmation } from "./mail.server";
import { assertUnpaidAllowed, CART_CHANGED, orderableLines } from "./orderable.server";
import { getOrder } from "./read.server";

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

export const AMOUNT_MISMATCH = "The payment does not match your order total. Your cart changed after you paid; nothing was ordered.";

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
 * Place an order from the customer's cart, in one transaction: lock the cart, re-read it with
 * the catalogue's prices and stock, compute the totals, write the order, its items and first
 * event, take the units from stock (a conditional update that cannot go below zero), and
 * empty the cart. Nothing is written when any step fails.
 */
export async function placeOrder(input: PlaceOrderInput, db: Db = defaultDb): Promise<number> {
  const key = input.idempotencyKey ? `${input.userId}:${input.idempotencyKey}` : null;
  try {
    const orderId = await db.transaction().execute(async (trx) => {
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
        throw new AppError(409, CART_CHANGED, { code: "STALE_TOTAL" });
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
            variantId: l.variantId,
            sku: l.sku,
            variantLabel: l.variantLabel,
            title: l.productTitle,
            slug: l.slug,
            imgPath: l.imgPath,
            quantity: l.quantity,
            unitPrice: l.price,
            discount: discount?.lines[i] ?? 0,
          })),
        )
        .execute();
      if (input.payment) await recordPlacement(trx, input.payment.paymentOrderId, order.id, now);
      // The coupon's use, counted here so racing orders never pass its limit (coupons/uses.server).
      if (discount) await countCouponUse(trx, discount, order.id, input.userId, now);
      // In product then variant id order, under the products' locks (orderableLines), so two carts
      // never wait on each other's rows in opposite orders.
      for (const line of lines) {
        if (!(await takeUnits(trx, line.variantId, line.quantity, now))) {
          throw new AppError(409, `${line.title} has just sold out. Please update your cart.`, { code: "STOCK_SHORTAGE" });
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
    // Counted once committed: a placement that rolled back placed nothing.
    countOrderPlaced(input.paymentMethod);
    return orderId;
  } catch (error) {
    // A simultaneous placement with the same key or payment won the unique constraint.
    if (isUniqueViolation(error)) {
      const previous = await existingOrderFor(input, key, db);
      if (previous) throw previous;
    }
    throw error;
  }
}
