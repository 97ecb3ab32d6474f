// Reviews and ratings from real buyers (issue 17, part 3; docs/product.md, Reviews). A customer
// who received a piece (a line of one of their orders whose status is delivered) rates it 1-5
// with a title and text, once per piece (customer and product: a second submit edits the first),
// and may edit it; signed-in customers mark others' reviews helpful, once each; the staff hide a
// review with a reason (and show it again), and its author is mailed. A product's visible reviews
// are summed on the product row (`review_count`, `rating_total`) in the same transaction as every
// change that moves them, so product cards read their rating with the row they already read.
import type { Db } from "~/lib/db.server";
import { containsText, db as defaultDb, isUniqueViolation, nowIso, toCount } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { LIMITS, rateLimitUser } from "~/lib/rate-limit.server";
import type { PageInfo } from "~/utils/pagination";
import { ADMIN_PAGE_SIZE, pageInfo } from "~/utils/pagination";
import type { AdminReviewQuery, ReviewInput, ReviewListQuery } from "~/utils/review-schemas";
import type { ReviewSort } from "~/utils/reviews";
import { averageRating, RATINGS, REVIEW_MESSAGES, REVIEWS_PAGE_SIZE } from "~/utils/reviews";
import { recordAudit } from "./audit.server";
import { queueReviewInvite, queueReviewModeratedMail } from "./review-mail.server";

/** A review as the storefront shows it: every one is by a customer who received the piece. */
export interface PublicReview {
  id: number;
  itemId: number;
  rating: number;
  title: string;
  body: string;
  /** the author's first name and the initial of their last ('Priya S.') */
  author: string;
  helpfulCount: number;
  createdAt: string;
  updatedAt: string;
  verifiedPurchase: true;
}

/** The customer's own review of a piece, as their form shows it (hidden ones too, with the staff's reason). */
export interface OwnReview {
  id: number;
  rating: number;
  title: string;
  body: string;
  visible: boolean;
  hiddenReason: string | null;
}

export interface RatingSummary {
  averageRating: number | null;
  reviewCount: number;
  /** visible reviews per star, 5 to 1 */
  histogram: { rating: number; count: number }[];
}

export interface ProductReviews extends RatingSummary {
  reviews: PublicReview[];
  info: PageInfo;
  sort: ReviewSort;
}

/** What the product page offers the visitor: the form (a buyer), their review, the reviews they found helpful. */
export interface ReviewViewer {
  signedIn: boolean;
  canReview: boolean;
  own: OwnReview | null;
  voted: number[];
}

/** 'Priya Sharma' → 'Priya S.'; one word stays as it is. */
export function authorName(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return "A customer";
  const first = words[0]!.slice(0, 40);
  const last = words.length > 1 ? words.at(-1)!.charAt(0).toUpperCase() : "";
  return last ? `${first} ${last}.` : first;
}

/** Did this customer receive this piece: a line of one of their orders whose status is delivered? */
export async function hasReceived(userId: number, itemId: number, db: Db = defaultDb): Promise<boolean> {
  const row = await db
    .selectFrom("orders")
    .innerJoin("orderItems", "orderItems.orderId", "orders.id")
    .select("orders.id")
    .where("orders.userId", "=", userId)
    .where("orders.status", "=", "delivered")
    .where("orderItems.itemId", "=", itemId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** A product's rating: its average and count (from the product row) and the histogram of its visible reviews. */
export async function ratingSummary(itemId: number, db: Db = defaultDb): Promise<RatingSummary> {
  const [item, counts] = await Promise.all([
    db.selectFrom("items").select(["reviewCount", "ratingTotal"]).where("id", "=", itemId).executeTakeFirst(),
    db
      .selectFrom("reviews")
      .select(["rating", (eb) => eb.fn.countAll<number | string>().as("n")])
      .where("itemId", "=", itemId)
      .where("visible", "=", 1)
      .groupBy("rating")
      .execute(),
  ]);
  if (!item) throw new AppError(404, "Product not found");
  const byRating = new Map(counts.map((c) => [c.rating, toCount(c.n)]));
  return {
    averageRating: averageRating(item.ratingTotal, item.reviewCount),
    reviewCount: item.reviewCount,
    histogram: RATINGS.map((rating) => ({ rating, count: byRating.get(rating) ?? 0 })),
  };
}

/** One page of a product's visible reviews, newest or most helpful first, with its rating summary. */
export async function productReviews(
  itemId: number,
  query: ReviewListQuery,
  db: Db = defaultDb,
  size = REVIEWS_PAGE_SIZE,
): Promise<ProductReviews> {
  const summary = await ratingSummary(itemId, db);
  // Not held to the last page: a page past the end reads no rows (docs/api.md, Lists).
  const offset = Math.min((query.page - 1) * size, 2_147_483_647);
  const total = summary.reviewCount;
  const info: PageInfo = {
    page: query.page,
    pages: Math.max(1, Math.ceil(total / size)),
    total,
    offset,
    from: offset < total ? offset + 1 : 0,
    to: Math.min(offset + size, total),
  };
  let list = db
    .selectFrom("reviews")
    .innerJoin("users", "users.id", "reviews.userId")
    .select([
      "reviews.id",
      "reviews.itemId",
      "reviews.rating",
      "reviews.title",
      "reviews.body",
      "reviews.helpfulCount",
      "reviews.createdAt",
      "reviews.updatedAt",
      "users.name",
    ])
    .where("reviews.itemId", "=", itemId)
    .where("reviews.visible", "=", 1);
  if (query.sort === "helpful") list = list.orderBy("reviews.helpfulCount", "desc");
  const rows = await list.orderBy("reviews.id", "desc").limit(size).offset(info.offset).execute();
  const reviews = rows.map(({ name, ...r }) => ({ ...r, author: authorName(name), verifiedPurchase: true as const }));
  return { ...summary, reviews, info, sort: query.sort };
}

/** What the product page offers a visitor (nothing but a sign-in link to a guest). */
export async function reviewViewer(userId: number | null, itemId: number, db: Db = defaultDb): Promise<ReviewViewer> {
  if (userId === null) return { signedIn: false, canReview: false, own: null, voted: [] };
  const [canReview, own, voted] = await Promise.all([
    hasReceived(userId, itemId, db),
    ownReview(userId, itemId, db),
    db
      .selectFrom("reviewVotes")
      .innerJoin("reviews", "reviews.id", "reviewVotes.reviewId")
      .select("reviewVotes.reviewId")
      .where("reviewVotes.userId", "=", userId)
      .where("reviews.itemId", "=", itemId)
      .execute(),
  ]);
  return { signedIn: true, canReview, own, voted: voted.map((v) => v.reviewId) };
}

export async function ownReview(userId: number, itemId: number, db: Db = defaultDb): Promise<OwnReview | null> {
  const row = await db
    .selectFrom("reviews")
    .select(["id", "rating", "title", "body", "visible", "hiddenReason"])
    .where("userId", "=", userId)
    .where("itemId", "=", itemId)
    .executeTakeFirst();
  return row ? { ...row, visible: row.visible === 1 } : null;
}

/**
 * Take the product's row first in every transaction that moves its sums: reviews of one product
 * are written one after another (PostgreSQL's row lock; SQLite has one writer anyway), so an edit
 * reads the rating it replaces after any other write to it committed, never a stale one.
 */
async function lockProduct(trx: Db, itemId: number): Promise<boolean> {
  const locked = await trx
    .updateTable("items")
    .set((eb) => ({ reviewCount: eb.ref("reviewCount") }))
    .where("id", "=", itemId)
    .executeTakeFirst();
  return Number(locked.numUpdatedRows) === 1;
}

/** Move a product's summed rating by a review's change (only visible reviews count). */
async function moveTotals(trx: Db, itemId: number, count: number, rating: number): Promise<void> {
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
    // A hidden review answers as a missing one: its id says nothing (security review, low).
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

/**
 * The staff hide a review (with the reason its author reads) or show it again. A hidden review
 * leaves the product's average, count and list; the change, the sums and the audit row are one
 * transaction; a review already in that state is a 409. The author's mail is queued in it too.
 */
export async function moderateReview(
  reviewId: number,
  change: { hide: true; reason: string } | { hide: false },
  db: Db = defaultDb,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const target = await trx.selectFrom("reviews").select("itemId").where("id", "=", reviewId).executeTakeFirst();
    if (!target) throw new AppError(404, REVIEW_MESSAGES.notFound);
    await lockProduct(trx, target.itemId);
    const row = await trx
      .selectFrom("reviews")
      .innerJoin("items", "items.id", "reviews.itemId")
      .innerJoin("users", "users.id", "reviews.userId")
      .select([
        "reviews.id",
        "reviews.itemId",
        "reviews.rating",
        "reviews.title",
        "reviews.visible",
        "items.title as product",
        "items.slug",
        "users.name",
        "users.email",
      ])
      .where("reviews.id", "=", reviewId)
      .executeTakeFirst();
    if (!row) throw new AppError(404, REVIEW_MESSAGES.notFound);
    const from = change.hide ? 1 : 0;
    const moved = await trx
      .updateTable("reviews")
      .set({ visible: change.hide ? 0 : 1, hiddenReason: change.hide ? change.reason : null })
      .where("id", "=", reviewId)
      .where("visible", "=", from)
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) !== 1)
      throw new AppError(409, change.hide ? REVIEW_MESSAGES.alreadyHidden : REVIEW_MESSAGES.alreadyVisible);
    await moveTotals(trx, row.itemId, change.hide ? -1 : 1, change.hide ? -row.rating : row.rating);
    const summary = `Review #${reviewId} of ${row.product}: ${change.hide ? `hidden (${change.reason})` : "shown again"}`;
    await recordAudit(trx, { action: "status", entity: "review", entityId: reviewId, summary });
    await queueReviewModeratedMail(
      trx,
      {
        id: row.id,
        title: row.title,
        product: row.product,
        slug: row.slug,
        hidden: change.hide,
        reason: change.hide ? change.reason : null,
      },
      { name: row.name, email: row.email },
    );
  });
}

export interface AdminReviewRow {
  id: number;
  rating: number;
  title: string;
  body: string;
  product: string;
  slug: string;
  customer: string;
  visible: boolean;
  hiddenReason: string | null;
  helpfulCount: number;
  createdAt: string;
}

/** The staff's reviews list, ADMIN_PAGE_SIZE a page, newest first: by state, and by text in the product, title or customer's email. */
export async function listReviewsPage(query: AdminReviewQuery, db: Db = defaultDb): Promise<{ rows: AdminReviewRow[]; info: PageInfo }> {
  const base = () => {
    let q = db.selectFrom("reviews").innerJoin("items", "items.id", "reviews.itemId").innerJoin("users", "users.id", "reviews.userId");
    if (query.status !== "all") q = q.where("reviews.visible", "=", query.status === "visible" ? 1 : 0);
    if (query.q) {
      const text = query.q;
      q = q.where((eb) =>
        eb.or([containsText("items.title", text), containsText("reviews.title", text), containsText("users.email", text)]),
      );
    }
    return q;
  };
  const { n } = await base()
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirstOrThrow();
  const info = pageInfo(toCount(n), query.page);
  const rows = await base()
    .select([
      "reviews.id",
      "reviews.rating",
      "reviews.title",
      "reviews.body",
      "reviews.visible",
      "reviews.hiddenReason",
      "reviews.helpfulCount",
      "reviews.createdAt",
      "items.title as product",
      "items.slug",
      "users.email as customer",
    ])
    .orderBy("reviews.id", "desc")
    .limit(ADMIN_PAGE_SIZE)
    .offset(info.offset)
    .execute();
  return { rows: rows.map((r) => ({ ...r, visible: r.visible === 1 })), info };
}

/** The pieces of a delivered order its customer can review, with the review they wrote (the order page's links, the invitation mail). */
export async function reviewablePieces(
  order: { id: number; userId: number; status: string },
  db: Db = defaultDb,
): Promise<{ itemId: number; title: string; slug: string; reviewed: boolean }[]> {
  if (order.status !== "delivered") return [];
  const rows = await db
    .selectFrom("orderItems")
    .innerJoin("items", "items.id", "orderItems.itemId")
    .leftJoin("reviews", (join) => join.onRef("reviews.itemId", "=", "items.id").on("reviews.userId", "=", order.userId))
    .select(["items.id as itemId", "items.title", "items.slug", "reviews.id as reviewId"])
    .where("orderItems.orderId", "=", order.id)
    .orderBy("orderItems.id")
    .execute();
  const seen = new Set<number>();
  return rows.flatMap((r) => {
    if (seen.has(r.itemId)) return [];
    seen.add(r.itemId);
    return [{ itemId: r.itemId, title: r.title, slug: r.slug, reviewed: r.reviewId !== null }];
  });
}

/**
 * The invitation to review an order's pieces, queued in the transaction that makes the order
 * delivered (a delivered order never moves again, so once per order). Lists the pieces still in
 * the catalogue that the customer has not reviewed yet; none: no mail.
 */
export async function inviteReviews(order: { id: number; userId: number; status: string }, trx: Db): Promise<void> {
  const pieces = (await reviewablePieces(order, trx)).filter((p) => !p.reviewed);
  if (pieces.length === 0) return;
  const customer = await trx.selectFrom("users").select(["name", "email"]).where("id", "=", order.userId).executeTakeFirst();
  if (customer) await queueReviewInvite(trx, order.id, pieces, customer);
}
