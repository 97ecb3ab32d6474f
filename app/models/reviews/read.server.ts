// Reviews and ratings from real buyers (docs/product.md, Reviews), as the storefront reads them: a
// product's rating and visible reviews, what its page offers a visitor, and the pieces of a
// delivered order its customer can review. A product's visible reviews are summed on the product
// row (`review_count`, `rating_total`), so product cards read their rating with the row they
// already read. Writing them is write.server; the staff's side is admin.server.
import type { Db } from "~/lib/db.server";
import { db as defaultDb, toCount } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import type { PageInfo } from "~/utils/pagination";
import type { ReviewListQuery } from "~/utils/review-schemas";
import type { ReviewSort } from "~/utils/reviews";
import { averageRating, RATINGS, REVIEWS_PAGE_SIZE } from "~/utils/reviews";

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
  /** the variant the author received ('Velvet'; '' for a product without options): their latest delivered one */
  variantLabel: string;
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
  size = REVIEWS_PAGE_SIZE,
  db: Db = defaultDb,
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
      // The variant of the author's latest delivered line of the piece (by the line's id: no sort).
      (eb) =>
        eb
          .selectFrom("orderItems as bought")
          .select("bought.variantLabel")
          .where(
            "bought.id",
            "=",
            eb
              .selectFrom("orderItems")
              .innerJoin("orders", "orders.id", "orderItems.orderId")
              .select((e) => e.fn.max("orderItems.id").as("id"))
              .whereRef("orders.userId", "=", "reviews.userId")
              .whereRef("orderItems.itemId", "=", "reviews.itemId")
              .where("orders.status", "=", "delivered"),
          )
          .as("variantLabel"),
    ])
    .where("reviews.itemId", "=", itemId)
    .where("reviews.visible", "=", 1);
  if (query.sort === "helpful") list = list.orderBy("reviews.helpfulCount", "desc");
  const rows = await list.orderBy("reviews.id", "desc").limit(size).offset(info.offset).execute();
  const reviews = rows.map(({ name, variantLabel, ...r }) => ({
    ...r,
    author: authorName(name),
    verifiedPurchase: true as const,
    variantLabel: variantLabel ?? "",
  }));
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
