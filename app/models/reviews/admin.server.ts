// The staff's reviews: the list by state and text, and hiding a review with a reason its author
// reads (or showing it again). A hidden review leaves the product's average, count and list.
import type { Db } from "~/lib/db.server";
import type { ListPage, RowWindow } from "~/lib/paging.server";
import { containsText, db as defaultDb, toCount } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import type { AdminReviewQuery } from "~/utils/review-schemas";
import { REVIEW_MESSAGES } from "~/utils/reviews";
import { recordAudit } from "~/models/audit.server";
import type { Actor } from "~/models/staff/staff.server";
import { queueReviewModeratedMail } from "./mail.server";
import { lockProduct, moveTotals } from "./write.server";

/**
 * The staff hide a review (with the reason its author reads) or show it again. A hidden review
 * leaves the product's average, count and list; the change, the sums and the audit row are one
 * transaction; a review already in that state is a 409. The author's mail is queued in it too.
 */
export async function moderateReview(
  reviewId: number,
  change: { hide: true; reason: string } | { hide: false },
  actor: Actor,
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
    await recordAudit(trx, {
      action: "status",
      entity: "review",
      entityId: reviewId,
      summary,
      actor,
      details: { visible: [from === 1, !change.hide] },
    });
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

/** The staff's reviews list, a page of it, newest first: by state, and by text in the product, title or customer's email. */
export async function listReviewsPage(
  query: Pick<AdminReviewQuery, "q" | "status">,
  window: RowWindow,
  db: Db = defaultDb,
): Promise<ListPage<AdminReviewRow>> {
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
  const total = toCount(n);
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
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return { rows: rows.map((r) => ({ ...r, visible: r.visible === 1 })), total };
}
