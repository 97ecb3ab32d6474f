// A customer's code on their cart: applying it (rate-limited: guessing codes costs tries), taking
// it off, and the cart's coupon as its pages and the cart API show it. The code is kept on the cart
// row, where every later read and the order check it again (check.server).
import { z } from "zod";
import type { Db } from "~/lib/db.server";
import { db as defaultDb, nowIso } from "~/lib/db.server";
import { parseWith } from "~/lib/http.server";
import type { Client } from "~/lib/rate-limit.server";
import { forgiveTry, LIMITS, rateLimitAddress, rateLimitClient, rateLimitUser } from "~/lib/rate-limit.server";
import { describeDeal } from "~/utils/coupon-fields";
import { CouponCodeSchema } from "~/utils/coupon-schemas";
import type { DiscountLine, DiscountRule } from "~/utils/pricing";
import { checkCoupon, couponByCode, refusal } from "./check.server";

/** The cart's coupon as its pages and the cart API show it. */
export interface CartCoupon {
  code: string;
  /** '10% off (at most ₹2,000)' */
  deal: string;
  /** the rule the browser prices optimistic changes with; null while the code gives nothing (`problem` says why) */
  rule: DiscountRule | null;
  problem: string | null;
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
