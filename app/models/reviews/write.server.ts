// A customer who received a piece (a line of one of their orders whose status is delivered) rates
// it 1-5 with a title and text, once per piece (customer and product: a second submit edits the
// first), and may edit it; signed-in customers mark others' reviews helpful, once each. The
// product's sums move in the same transaction as every change that moves them.
import type { Db } from "~/lib/db.server";
import { db as defaultDb, isUniqueViolation, nowIso } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { LIMITS, rateLimitUser } from "~/lib/rate-limit.server";
import type { ReviewInput } from "~/utils/review-schemas";
import { REVIEW_MESSAGES } from "~/utils/reviews";
import { hasReceived } from "./read.server";

/**
 * Take the product's row first in every transaction that moves its sums: reviews of one product
 * are written one after another (PostgreSQL's row lock; SQLite has one writer anyway), so an edit
 * reads the rating it replaces after any other write to it committed, never a stale one.
 */
export async function lockProduct(trx: Db, itemId: number): Promise<boolean> {
  const locked = await trx
    .updateTable("items")
    .set((eb) => ({ reviewCount: eb.ref("reviewCount") }))
    .where("id", "=", itemId)
    .executeTakeFirst();
  return Number(locked.numUpdatedRows) === 1;
}

/** Move a product's summed rating by a review's change (only visible reviews count). */
export async function moveTotals(trx: Db, itemId: number, count: number, rating: number): Promise<void> {
  if (count === 0 && rating === 0) return;
  await trx
    .updateTable("items")
    .set((eb) => ({ reviewCount: eb("reviewCount", "+", count), ratingTotal: eb("ratingTotal", "+", rating) }))
    .where("id", "=", itemId)
    .execute();
}

/**
 * The customer's review of a piece they received: written the first time, edited after (one per
 * customer and product, so a double submit is the same review, not two). Refused, with nothing
 * written: a product that does not exist (404), a customer who did not receive it (403). An edit
 * of a hidden review stays hidden. The product's sums move in the same transaction.
 */
export async function saveReview(userId: number, input: ReviewInput, db: Db = defaultDb): Promise<{ id: number; created: boolean }> {
  await rateLimitUser(LIMITS.review, userId);
  const write = () =>
    db.transaction().execute(async (trx) => {
      if (!(await lockProduct(trx, input.itemId))) throw new AppError(404, "Product not found");
      if (!(await hasReceived(userId, input.itemId, trx))) throw new AppError(403, REVIEW_MESSAGES.notBuyer);
      const now = nowIso();
      const existing = await trx
        .selectFrom("reviews")
        .select(["id", "rating", "visible"])
        .where("userId", "=", userId)
        .where("itemId", "=", input.itemId)
        .executeTakeFirst();
      const text = { rating: input.rating, title: input.title, body: input.body, updatedAt: now };
      if (existing) {
        await trx.updateTable("reviews").set(text).where("id", "=", existing.id).execute();
        if (existing.visible === 1) await moveTotals(trx, input.itemId, 0, input.rating - existing.rating);
        return { id: existing.id, created: false };
      }
      const created = await trx
        .insertInto("reviews")
        .values({ ...text, itemId: input.itemId, userId, createdAt: now })
        .returning("id")
        .executeTakeFirstOrThrow();
      await moveTotals(trx, input.itemId, 1, input.rating);
      return { id: created.id, created: true };
    });
  try {
    return await write();
  } catch (error) {
    // Two submits at once: the other made the review (the unique pair); this one edits it.
    if (isUniqueViolation(error)) return write();
    throw error;
  }
}

/**
 * A signed-in customer marks a review helpful: once (a second mark changes nothing and says so),
 * never their own (403), only a shown review (404 for a hidden or missing one).
 */
export async function markHelpful(
  userId: number,
  reviewId: number,
  db: Db = defaultDb,
): Promise<{ counted: boolean; helpfulCount: number }> {
  await rateLimitUser(LIMITS.reviewVote, userId);
  return db.transaction().execute(async (trx) => {
    const review = await trx.selectFrom("reviews").select(["id", "userId", "visible"]).where("id", "=", reviewId).executeTakeFirst();
    // A hidden review answers as a missing one: its id says nothing.
    if (!review || review.visible !== 1) throw new AppError(404, REVIEW_MESSAGES.notFound);
    if (review.userId === userId) throw new AppError(403, REVIEW_MESSAGES.ownVote);
    const vote = await trx
      .insertInto("reviewVotes")
      .values({ reviewId, userId, createdAt: nowIso() })
      .onConflict((oc) => oc.columns(["reviewId", "userId"]).doNothing())
      .returning("reviewId")
      .executeTakeFirst();
    if (vote) {
      await trx
        .updateTable("reviews")
        .set((eb) => ({ helpfulCount: eb("helpfulCount", "+", 1) }))
        .where("id", "=", reviewId)
        .execute();
    }
    const after = await trx.selectFrom("reviews").select("helpfulCount").where("id", "=", reviewId).executeTakeFirstOrThrow();
    return { counted: vote !== undefined, helpfulCount: after.helpfulCount };
  });
}
