// Coupons (docs/product.md, Coupons): whether a code can discount a cart for a customer now. The
// money rule is utils/pricing's couponDiscount. A payment order holds a use while its customer pays,
// as it holds its units (`coupon_holds`): every check counts the live holds with the counted uses,
// so racing customers and parallel payment orders never pass a limit (ADR 0019). Applying a code to
// a cart is apply.server; holding and counting uses, uses.server; the staff's side, admin.server.
import type { Expression, ExpressionBuilder, Selectable, SqlBool } from "kysely";
import type { Db } from "~/lib/db.server";
import { isPostgres, nowIso, toCount } from "~/lib/db.server";
import type { CouponsTable, DB } from "~/lib/db-schema";
import { AppError } from "~/lib/errors.server";
import { COUPON_MESSAGES } from "~/utils/coupon-fields";
import type { DiscountLine, DiscountRule } from "~/utils/pricing";
import { couponDiscount } from "~/utils/pricing";

export type CouponRow = Selectable<CouponsTable>;

/** What a payment order keeps of the coupon its amount was priced with. */
export interface CouponSnapshot {
  couponId: number;
  code: string;
  rule: DiscountRule;
}

/** A refusal of a code: its message stands beside the coupon field (`couponCode`). */
export function refusal(status: 400 | 404 | 409, message: string): AppError {
  return new AppError(status, message, { fieldErrors: { couponCode: message } });
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

export async function usesBy(db: Db, couponId: number, userId: number): Promise<number> {
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
 * payments/unplaced.server.ts). Past it, placing the order is a late payment: otherwise payments
 * verified and never placed would hold a scarce code's uses for good, out of the staff's reach.
 */
export const PAID_HOLD_HOURS = 24;

/** When a hold paid at `paidAt` stops holding. */
export const paidHoldEnd = (paidAt: string) => new Date(new Date(paidAt).getTime() + PAID_HOLD_HOURS * 60 * 60 * 1000).toISOString();

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
export async function stateProblem(db: Db, coupon: CouponRow, userId: number | null, now: string): Promise<string | null> {
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
