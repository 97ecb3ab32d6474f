// A coupon's uses at payment and order time: the discount of an order being placed, the coupon a
// payment order is priced with, its hold on a use while its customer pays (made under the coupon's
// locked row), the use counted in the order's own transaction under the same lock, and given back
// by a cancellation in its own. A payment paid within its hold is honoured at the price it was paid
// (ADR 0019).
import type { Db } from "~/lib/db.server";
import { dbNow } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { COUPON_MESSAGES } from "~/utils/coupon-fields";
import type { DiscountLine, DiscountRule } from "~/utils/pricing";
import { couponDiscount } from "~/utils/pricing";
import type { CouponSnapshot } from "./check.server";
import { checkCoupon, lockedCoupon, paidHoldEnd, refusal, stateProblem, usesBy } from "./check.server";

/** What an order takes off: the coupon, its code, the amount and each line's share (in the lines' order). */
export interface OrderDiscount {
  couponId: number;
  code: string;
  amount: number;
  lines: number[];
  /** the rule it was priced with (a payment order keeps it: snapshotOf) */
  rule: DiscountRule;
  /** a paid payment's coupon: the payment order, whose hold on the use decides whether it is honoured (countCouponUse) */
  paymentOrderId: string | null;
}

/** How a refused code reads at order time: what is wrong, and what to do. */
const atOrder = (message: string) => `${message} Please remove the code to order without it.`;

/**
 * The discount of an order being placed, inside its transaction (the customer's cart is locked):
 * a paid payment's coupon (`snapshot`, of payment order `paymentOrderId`) at the rule it was paid
 * with, whatever has happened to the coupon since (countCouponUse decides whether its use may be
 * counted); else the cart's code, checked again now (expired, paused or used up since it was
 * applied: 409 with the reason, nothing written).
 */
export async function discountForOrder(
  trx: Db,
  input: {
    code: string | null;
    snapshot: CouponSnapshot | null;
    paymentOrderId?: string | null;
    lines: readonly DiscountLine[];
    userId: number;
  },
): Promise<OrderDiscount | null> {
  if (input.snapshot) {
    const result = couponDiscount(input.lines, input.snapshot.rule);
    if (!result.ok) {
      // Nothing to take off these lines (the amount paid decides whether they are ordered): the hold ends with the order.
      if (input.paymentOrderId) await trx.deleteFrom("couponHolds").where("paymentOrderId", "=", input.paymentOrderId).execute();
      return null;
    }
    const { couponId, code, rule } = input.snapshot;
    return { couponId, code, rule, amount: result.amount, lines: result.lines, paymentOrderId: input.paymentOrderId ?? null };
  }
  if (!input.code) return null;
  const check = await checkCoupon(trx, input.code, input.lines, input.userId);
  if (!check.ok) throw refusal(409, atOrder(check.message));
  const result = couponDiscount(input.lines, check.rule);
  if (!result.ok) return null;
  return {
    couponId: check.coupon.id,
    code: check.coupon.code,
    rule: check.rule,
    amount: result.amount,
    lines: result.lines,
    paymentOrderId: null,
  };
}

/** The coupon a payment order is priced with, as the payment order keeps it (JSON), or null. */
export function snapshotJson(discount: OrderDiscount | null): string | null {
  if (!discount) return null;
  const snapshot: CouponSnapshot = { couponId: discount.couponId, code: discount.code, rule: discount.rule };
  return JSON.stringify(snapshot);
}

export function parseSnapshot(json: string | null): CouponSnapshot | null {
  return json ? (JSON.parse(json) as CouponSnapshot) : null;
}

/**
 * A new payment order priced with a coupon holds one use of it until `expiresAt` (its stock hold's
 * end), in the payment order's transaction: under the coupon's locked row, the coupon is checked
 * again with every live hold counted (stateProblem), so parallel payment orders of one customer or
 * of many never hold more than a limit has left. Refused: 409 beside the coupon field, and the
 * payment order rolls back with it.
 */
export async function holdCouponUse(
  trx: Db,
  hold: { paymentOrderId: string; couponId: number; userId: number; expiresAt: string; now: string },
): Promise<void> {
  const coupon = await lockedCoupon(trx, hold.couponId);
  if (!coupon) throw refusal(409, atOrder(COUPON_MESSAGES.gone));
  // Checked by the clock read once the lock is held (the database's on PostgreSQL: dbNow).
  const problem = await stateProblem(trx, coupon, hold.userId, await dbNow(trx));
  if (problem) throw refusal(409, atOrder(problem));
  await trx
    .insertInto("couponHolds")
    .values({
      paymentOrderId: hold.paymentOrderId,
      couponId: hold.couponId,
      userId: hold.userId,
      expiresAt: hold.expiresAt,
      paidAt: null,
      createdAt: hold.now,
    })
    .execute();
}

/**
 * A payment verified while its payment order's coupon hold is live keeps the use held until its
 * order is placed or it is refunded (a cart changed after paying may be placed later at the price paid).
 * Decided under the coupon's locked row, by the clock read once the lock is held: a hold that ended
 * while this waited has lapsed, and another customer may have taken the use meanwhile (a paid mark
 * written at T-2 s but committed after T would let two orders use a last use).
 * In an order's own transaction nothing is marked: the order decides there (countCouponUse), and
 * the coupon's lock must come after the products' that the order takes later.
 */
export async function keepCouponHoldForPayment(db: Db, paymentOrderId: string): Promise<void> {
  if (db.isTransaction) return;
  await db.transaction().execute(async (trx) => {
    const hold = await trx
      .selectFrom("couponHolds")
      .select("couponId")
      .where("paymentOrderId", "=", paymentOrderId)
      .where("paidAt", "is", null)
      .executeTakeFirst();
    if (!hold) return;
    await lockedCoupon(trx, hold.couponId);
    const now = await dbNow(trx);
    await trx
      .updateTable("couponHolds")
      .set({ paidAt: now })
      .where("paymentOrderId", "=", paymentOrderId)
      .where("paidAt", "is", null)
      .where("expiresAt", ">", now)
      .execute();
  });
}

/**
 * Count an order's use of its coupon, in the order's transaction, under the coupon's locked row
 * (lockedCoupon): the cart's code is checked again with the counted uses and every live hold
 * (stateProblem; refused: 409 beside the field, and the whole order rolls back). A paid payment's
 * use ends its payment order's hold: a live one (before its end, or paid within it) is honoured,
 * counted past the total limit, a pause or the end of the validity (the customer paid at that
 * price while the use was held for them), but never past the customer's own limit; one whose hold
 * had ended is a late payment, counted only if the code still applies now (else COUPON_LAPSED: the
 * caller refunds the payment, as for stock a late payment no longer finds).
 */
export async function countCouponUse(trx: Db, discount: OrderDiscount, orderId: number, userId: number, now: string): Promise<void> {
  const coupon = await lockedCoupon(trx, discount.couponId);
  // Everything below is decided by the clock read once the lock is held (the database's on
  // PostgreSQL: dbNow): `now`, read when the order's transaction began, may be from before a wait
  // on this lock while others used the code, and from another server's clock.
  const lockedNow = await dbNow(trx);
  if (discount.paymentOrderId === null) {
    const problem = coupon ? await stateProblem(trx, coupon, userId, lockedNow) : COUPON_MESSAGES.gone;
    if (problem) throw refusal(409, atOrder(problem));
  } else {
    const hold = await trx
      .deleteFrom("couponHolds")
      .where("paymentOrderId", "=", discount.paymentOrderId)
      .returning(["expiresAt", "paidAt"])
      .executeTakeFirst();
    // Live: paid within the hold (marked under this lock by an earlier, committed verification), or not yet ended.
    const live = hold !== undefined && ((hold.paidAt !== null && paidHoldEnd(hold.paidAt) > lockedNow) || hold.expiresAt > lockedNow);
    let problem: string | null = coupon ? null : COUPON_MESSAGES.gone;
    if (coupon && !live) {
      const late = await stateProblem(trx, coupon, userId, lockedNow);
      problem = late && COUPON_MESSAGES.lapsed(late);
    } else if (coupon?.perCustomerLimit != null && (await usesBy(trx, coupon.id, userId)) >= coupon.perCustomerLimit) {
      problem = COUPON_MESSAGES.perCustomer(coupon.code, coupon.perCustomerLimit);
    }
    if (problem) throw new AppError(409, problem, { code: "COUPON_LAPSED" });
  }
  await trx
    .updateTable("coupons")
    .set((eb) => ({ uses: eb("uses", "+", 1) }))
    .where("id", "=", discount.couponId)
    .execute();
  await trx.insertInto("couponUses").values({ couponId: discount.couponId, orderId, userId, createdAt: now }).execute();
}

/** A cancelled order gives its coupon use back, in the cancellation's transaction (once: the row goes). */
export async function releaseCouponUse(trx: Db, orderId: number): Promise<void> {
  const use = await trx.deleteFrom("couponUses").where("orderId", "=", orderId).returning("couponId").executeTakeFirst();
  if (!use) return;
  await trx
    .updateTable("coupons")
    .set((eb) => ({ uses: eb("uses", "-", 1) }))
    .where("id", "=", use.couponId)
    .where("uses", ">", 0)
    .execute();
}
