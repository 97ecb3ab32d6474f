// Coupons (issue 17, part 2; docs/product.md, Coupons): checking a code against a cart, applying it
// to a customer's cart (rate-limited: guessing codes costs tries), the discount a cart or an order
// gets, holding and counting uses. The money rule is utils/pricing's couponDiscount; the staff's side
// is admin-coupons.server. A payment order holds a use while its customer pays, as it holds its
// units (`coupon_holds`, made under the coupon's locked row); a use is counted in the order's own
// transaction under the same lock, against the counted uses plus the live holds, so racing customers
// and parallel payment orders never pass a limit; a cancellation gives it back in its own
// transaction. A payment paid within its hold is honoured at the price it was paid (ADR 0019).
import type { Expression, ExpressionBuilder, Selectable, SqlBool } from "kysely";
import { z } from "zod";
import type { Db } from "~/lib/db.server";
import { db as defaultDb, dbNow, isPostgres, nowIso, toCount } from "~/lib/db.server";
import type { CouponsTable, DB } from "~/lib/db-schema";
import { AppError } from "~/lib/errors.server";
import { parseWith } from "~/lib/http.server";
import type { Client } from "~/lib/rate-limit.server";
import { forgiveTry, LIMITS, rateLimitAddress, rateLimitClient, rateLimitUser } from "~/lib/rate-limit.server";
import { COUPON_MESSAGES, describeDeal } from "~/utils/coupon-fields";
import { CouponCodeSchema } from "~/utils/coupon-schemas";
import type { DiscountLine, DiscountRule } from "~/utils/pricing";
import { couponDiscount } from "~/utils/pricing";

export type CouponRow = Selectable<CouponsTable>;

/** The cart's coupon as its pages and the cart API show it. */
export interface CartCoupon {
  code: string;
  /** '10% off (at most ₹2,000)' */
  deal: string;
  /** the rule the browser prices optimistic changes with; null while the code gives nothing (`problem` says why) */
  rule: DiscountRule | null;
  problem: string | null;
}

/** What a payment order keeps of the coupon its amount was priced with. */
export interface CouponSnapshot {
  couponId: number;
  code: string;
  rule: DiscountRule;
}

/** A refusal of a code: its message stands beside the coupon field (`couponCode`). */
function refusal(status: 400 | 404 | 409, message: string): AppError {
  return new AppError(status, message, { couponCode: message });
}

export async function couponByCode(db: Db, code: string): Promise<CouponRow | undefined> {
  return db.selectFrom("coupons").selectAll().where("code", "=", code).executeTakeFirst();
}

/** A coupon's money rule: its categories when it is limited to some (none left: it applies to nothing). */
export async function ruleOf(db: Db, coupon: CouponRow): Promise<DiscountRule> {
  const categoryIds = coupon.limited
    ? (await db.selectFrom("couponCategories").select("categoryId").where("couponId", "=", coupon.id).execute()).map((r) => r.categoryId)
    : null;
  return { kind: coupon.kind, value: coupon.value, minSubtotal: coupon.minSubtotal, maxDiscount: coupon.maxDiscount, categoryIds };
}

async function usesBy(db: Db, couponId: number, userId: number): Promise<number> {
  const row = await db
    .selectFrom("couponUses")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("couponId", "=", couponId)
    .where("userId", "=", userId)
    .executeTakeFirstOrThrow();
  return toCount(row.n);
}

/**
 * How long a payment verified within its hold keeps the use held while its order is not placed: as
 * long as a paid payment whose order was refused waits for its customer (REFUSED_PAYMENT_HOURS,
 * checkout.server.ts). Past it, placing the order is a late payment (the last security check, low:
 * payments verified and never placed held a scarce code's uses for good, out of the staff's reach).
 */
export const PAID_HOLD_HOURS = 24;

/** When a hold paid at `paidAt` stops holding. */
const paidHoldEnd = (paidAt: string) => new Date(new Date(paidAt).getTime() + PAID_HOLD_HOURS * 60 * 60 * 1000).toISOString();

/** A hold that holds now: before its end, or its payment verified within it (until its order or refund, for PAID_HOLD_HOURS). */
export function isLiveHold(now: string) {
  const paidSince = new Date(new Date(now).getTime() - PAID_HOLD_HOURS * 60 * 60 * 1000).toISOString();
  return (eb: ExpressionBuilder<DB, "couponHolds">): Expression<SqlBool> =>
    eb.or([eb("expiresAt", ">", now), eb("paidAt", ">", paidSince)]);
}

/**
 * The uses of a coupon held now by payment orders (of one customer's, with `userId`): live holds,
 * before their end or paid within it, and when the first unpaid one ends (null: none will).
 */
export async function heldUses(
  db: Db,
  couponId: number,
  userId: number | null,
  now: string,
): Promise<{ held: number; until: string | null }> {
  let query = db
    .selectFrom("couponHolds")
    .select((eb) => [
      eb.fn.countAll<number | string>().as("n"),
      eb.fn.min<string | null>(eb.case().when("paidAt", "is", null).then(eb.ref("expiresAt")).end()).as("until"),
    ])
    .where("couponId", "=", couponId)
    .where(isLiveHold(now));
  if (userId !== null) query = query.where("userId", "=", userId);
  const row = await query.executeTakeFirstOrThrow();
  return { held: toCount(row.n), until: row.until ?? null };
}

/**
 * Why the coupon cannot be used now, whatever the cart: paused, not yet or no longer valid, used up
 * (by all or by this customer), or what is left of a limit held by payments being made (ADR 0019):
 * counted uses plus live holds reach the limit.
 */
async function stateProblem(db: Db, coupon: CouponRow, userId: number | null, now: string): Promise<string | null> {
  if (coupon.paused) return COUPON_MESSAGES.paused(coupon.code);
  if (coupon.validFrom && now < coupon.validFrom) return COUPON_MESSAGES.notYet(coupon.code, coupon.validFrom);
  if (coupon.validUntil && now >= coupon.validUntil) return COUPON_MESSAGES.expired(coupon.code, coupon.validUntil);
  const { usageLimit, perCustomerLimit } = coupon;
  if (usageLimit !== null && coupon.uses >= usageLimit) return COUPON_MESSAGES.usedUp(coupon.code);
  const perCustomer = userId !== null ? perCustomerLimit : null;
  const used = perCustomer !== null ? await usesBy(db, coupon.id, userId!) : 0;
  if (perCustomer !== null && used >= perCustomer) return COUPON_MESSAGES.perCustomer(coupon.code, perCustomer);
  const all = usageLimit !== null ? await heldUses(db, coupon.id, null, now) : null;
  const mine = userId !== null && (all?.held || perCustomer !== null) ? await heldUses(db, coupon.id, userId, now) : null;
  const overAll = all !== null && coupon.uses + all.held >= usageLimit!;
  // The customer's own payments hold what is left (of their limit, or of the total): they can finish those.
  if (mine && ((perCustomer !== null && used + mine.held >= perCustomer) || (overAll && mine.held > 0))) {
    return COUPON_MESSAGES.heldForYou(coupon.code, mine.until);
  }
  if (overAll) return COUPON_MESSAGES.allHeld(coupon.code, all.until);
  return null;
}

/**
 * Inside a transaction: the coupon's row, locked on PostgreSQL (FOR UPDATE) so that holding and
 * counting its uses queue on it, each then reading the committed uses and holds (READ COMMITTED
 * reads afresh per statement); SQLite runs one write transaction at a time. Taken after the cart
 * and its products, as every placement takes them.
 */
export async function lockedCoupon(trx: Db, couponId: number): Promise<CouponRow | undefined> {
  const query = trx.selectFrom("coupons").selectAll().where("id", "=", couponId);
  return (isPostgres(trx) ? query.forUpdate() : query).executeTakeFirst();
}

/** Why the rule gives this cart nothing (below the minimum, no line of its categories), or null. */
async function cartProblem(db: Db, coupon: CouponRow, rule: DiscountRule, lines: readonly DiscountLine[]): Promise<string | null> {
  const result = couponDiscount(lines, rule);
  if (result.ok) return null;
  if (result.reason === "below-minimum") return COUPON_MESSAGES.belowMinimum(coupon.code, rule.minSubtotal, result.missing);
  const names = rule.categoryIds?.length
    ? (await db.selectFrom("categories").select("title").where("id", "in", rule.categoryIds).orderBy("title").execute()).map((c) => c.title)
    : [];
  return COUPON_MESSAGES.notApplicable(coupon.code, names);
}

export type CouponCheck = { ok: true; coupon: CouponRow; rule: DiscountRule } | { ok: false; status: 404 | 409; message: string };

/** Can `code` discount these lines for this customer now? Reads only. */
export async function checkCoupon(
  db: Db,
  code: string,
  lines: readonly DiscountLine[],
  userId: number | null,
  now = nowIso(),
): Promise<CouponCheck> {
  const coupon = await couponByCode(db, code);
  if (!coupon) return { ok: false, status: 404, message: COUPON_MESSAGES.unknown(code) };
  const problem = await stateProblem(db, coupon, userId, now);
  if (problem) return { ok: false, status: 409, message: problem };
  const rule = await ruleOf(db, coupon);
  const money = await cartProblem(db, coupon, rule, lines);
  if (money) return { ok: false, status: 409, message: money };
  return { ok: true, coupon, rule };
}

/** The cart's coupon for its pages and the API: the rule while it applies, else why not. */
export async function cartCoupon(
  db: Db,
  code: string | null,
  lines: readonly DiscountLine[],
  userId: number | null,
): Promise<CartCoupon | null> {
  if (!code) return null;
  const check = await checkCoupon(db, code, lines, userId);
  if (check.ok) return { code, deal: describeDeal(check.coupon), rule: check.rule, problem: null };
  const coupon = check.status === 404 ? undefined : await couponByCode(db, code);
  return { code, deal: coupon ? describeDeal(coupon) : "", rule: null, problem: check.message };
}

/** The signed-in customer's cart with its lines as the money rule reads them. */
async function customerCart(db: Db, userId: number): Promise<{ id: string; lines: DiscountLine[] } | null> {
  const cart = await db.selectFrom("carts").select("id").where("userId", "=", userId).executeTakeFirst();
  if (!cart) return null;
  const lines = await db
    .selectFrom("cartLines")
    .innerJoin("items", "items.id", "cartLines.itemId")
    .select(["items.price", "items.categoryId", "cartLines.quantity"])
    .where("cartLines.cartId", "=", cart.id)
    .execute();
  return { id: cart.id, lines };
}

/**
 * A customer applies a code to their cart (cart page, checkout page, API). Each try counts against
 * the account's and the address's coupon limits (LIMITS.coupon) before the code is read, so codes
 * cannot be guessed at speed, and each is counted as a guess of a code that exists nowhere
 * (LIMITS.couponUnknown, under its shop-wide ceiling) until the code is found: a real code gets that
 * try back, so a guesser held by the ceiling is refused whatever the code (no answer tells it which
 * codes exist). The code is checked against the cart now (every refusal in its own words, beside the
 * field) and kept on the cart row, where every later read and the order check it again. Applying the
 * code the cart has already writes the same again (idempotent).
 */
export async function applyCoupon(userId: number, raw: unknown, client: Client, db: Db = defaultDb): Promise<string> {
  await rateLimitAddress({ ...LIMITS.coupon, max: LIMITS.coupon.perAddress }, client);
  await rateLimitUser(LIMITS.coupon, userId);
  const { couponCode: code } = parseWith(z.object({ couponCode: CouponCodeSchema.transform(String) }), { couponCode: raw });
  const cart = await customerCart(db, userId);
  if (!cart || cart.lines.length === 0) throw refusal(400, "Your cart is empty. Add something first, then apply the code.");
  const guesser = `user:${userId}`;
  await rateLimitClient(LIMITS.couponUnknown, client, guesser);
  const check = await checkCoupon(db, code, cart.lines, userId);
  if (check.ok || check.status !== 404) await forgiveTry(LIMITS.couponUnknown, client, guesser);
  if (!check.ok) throw refusal(check.status, check.message);
  await db.updateTable("carts").set({ couponCode: code, updatedAt: nowIso() }).where("id", "=", cart.id).execute();
  return code;
}

/** The customer takes the code off their cart (nothing to take off is fine). */
export async function removeCoupon(userId: number, db: Db = defaultDb): Promise<void> {
  await db.updateTable("carts").set({ couponCode: null, updatedAt: nowIso() }).where("userId", "=", userId).execute();
}

// ---- orders ---------------------------------------------------------------------------------

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
 * while this waited has lapsed, and another customer may have taken the use meanwhile (the third
 * security check: a paid mark written at T-2 s but committed after T let two orders use a last use).
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
    if (problem) throw new AppError(409, problem, undefined, undefined, "COUPON_LAPSED");
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
