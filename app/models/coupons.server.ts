// Coupons (issue 17, part 2; docs/product.md, Coupons): checking a code against a cart, applying it
// to a customer's cart (rate-limited: guessing codes costs tries), the discount a cart or an order
// gets, and counting uses. The money rule is utils/pricing's couponDiscount; the staff's side is
// admin-coupons.server. A use is counted in the order's own transaction by a conditional update
// (`uses < usage_limit`), so racing customers never pass the limit; a cancellation gives it back in
// its own transaction. A paid payment is honoured at the price it was paid (ADR 0019).
import type { Selectable } from "kysely";
import { z } from "zod";
import type { Db } from "~/lib/db.server";
import { db as defaultDb, nowIso, toCount } from "~/lib/db.server";
import type { CouponsTable } from "~/lib/db-schema";
import { AppError } from "~/lib/errors.server";
import { parseWith } from "~/lib/http.server";
import type { Client } from "~/lib/rate-limit.server";
import { LIMITS, rateLimitAddress, rateLimitUser } from "~/lib/rate-limit.server";
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

/** Why the coupon cannot be used now, whatever the cart: paused, not yet or no longer valid, used up (by all or by this customer). */
async function stateProblem(db: Db, coupon: CouponRow, userId: number | null, now: string): Promise<string | null> {
  if (coupon.paused) return COUPON_MESSAGES.paused(coupon.code);
  if (coupon.validFrom && now < coupon.validFrom) return COUPON_MESSAGES.notYet(coupon.code, coupon.validFrom);
  if (coupon.validUntil && now >= coupon.validUntil) return COUPON_MESSAGES.expired(coupon.code, coupon.validUntil);
  if (coupon.usageLimit !== null && coupon.uses >= coupon.usageLimit) return COUPON_MESSAGES.usedUp(coupon.code);
  if (userId !== null && coupon.perCustomerLimit !== null && (await usesBy(db, coupon.id, userId)) >= coupon.perCustomerLimit) {
    return COUPON_MESSAGES.perCustomer(coupon.code, coupon.perCustomerLimit);
  }
  return null;
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
 * cannot be guessed at speed. The code is checked against the cart now (every refusal in its own
 * words, beside the field) and kept on the cart row, where every later read and the order check it
 * again. Applying the code the cart has already writes the same again (idempotent).
 */
export async function applyCoupon(userId: number, raw: unknown, client: Client, db: Db = defaultDb): Promise<string> {
  await rateLimitAddress({ ...LIMITS.coupon, max: LIMITS.coupon.perAddress }, client);
  await rateLimitUser(LIMITS.coupon, userId);
  const { couponCode: code } = parseWith(z.object({ couponCode: CouponCodeSchema.transform(String) }), { couponCode: raw });
  const cart = await customerCart(db, userId);
  if (!cart || cart.lines.length === 0) throw refusal(400, "Your cart is empty. Add something first, then apply the code.");
  const check = await checkCoupon(db, code, cart.lines, userId);
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
  /** a paid payment's coupon: its use is counted even past its limits (the money was taken at that price) */
  honoured: boolean;
}

/** How a refused code reads at order time: what is wrong, and what to do. */
const atOrder = (message: string) => `${message} Please remove the code to order without it.`;

/**
 * The discount of an order being placed, inside its transaction (the customer's cart is locked):
 * a paid payment's coupon (`snapshot`) at the rule it was paid with, whatever has happened to the
 * coupon since; else the cart's code, checked again now (expired, paused or used up since it was
 * applied: 409 with the reason, nothing written).
 */
export async function discountForOrder(
  trx: Db,
  input: { code: string | null; snapshot: CouponSnapshot | null; lines: readonly DiscountLine[]; userId: number },
): Promise<OrderDiscount | null> {
  if (input.snapshot) {
    const result = couponDiscount(input.lines, input.snapshot.rule);
    if (!result.ok) return null;
    const { couponId, code, rule } = input.snapshot;
    return { couponId, code, rule, amount: result.amount, lines: result.lines, honoured: true };
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
    honoured: false,
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
 * Count an order's use of its coupon, in the order's transaction. The total limit is a conditional
 * update (`uses < usage_limit`, and not paused): on PostgreSQL the row lock queues racing orders
 * and each re-reads the count; SQLite writes one transaction at a time. When nothing was updated
 * the coupon was used up (or paused) meanwhile: 409, and the whole order rolls back. The
 * per-customer limit is read under the customer's locked cart row. A paid payment's use is
 * counted without the limits (ADR 0019: the customer paid at that price).
 */
export async function countCouponUse(trx: Db, discount: OrderDiscount, orderId: number, userId: number, now: string): Promise<void> {
  let update = trx
    .updateTable("coupons")
    .set((eb) => ({ uses: eb("uses", "+", 1) }))
    .where("id", "=", discount.couponId);
  if (!discount.honoured) {
    const coupon = await trx.selectFrom("coupons").select(["perCustomerLimit"]).where("id", "=", discount.couponId).executeTakeFirst();
    if (coupon?.perCustomerLimit != null && (await usesBy(trx, discount.couponId, userId)) >= coupon.perCustomerLimit) {
      throw refusal(409, atOrder(COUPON_MESSAGES.perCustomer(discount.code, coupon.perCustomerLimit)));
    }
    update = update.where("paused", "=", 0).where((eb) => eb.or([eb("usageLimit", "is", null), eb("uses", "<", eb.ref("usageLimit"))]));
  }
  const counted = await update.executeTakeFirst();
  if (Number(counted.numUpdatedRows) !== 1) {
    const row = await trx.selectFrom("coupons").select("paused").where("id", "=", discount.couponId).executeTakeFirst();
    throw refusal(409, atOrder(row?.paused ? COUPON_MESSAGES.paused(discount.code) : COUPON_MESSAGES.usedUp(discount.code)));
  }
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
