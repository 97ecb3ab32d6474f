// The review forms' schemas (ADR 0018): a customer's review, a helpful vote, the staff's
// hide and unhide, the product page's and the admin list's GET parameters. Fields: utils/reviews.
import { z } from "zod";
import { MAX_RATING, MIN_RATING, REVIEW_FIELDS, REVIEW_FILTERS, REVIEW_MESSAGES, REVIEW_SORTS, tidyText } from "./reviews";
import { IdSchema } from "./schemas";

const text = (max: number, message: string) =>
  z.string({ error: message }).transform(tidyText).pipe(z.string().min(1, message).max(max, message));

export const ReviewSchema = z.object({
  itemId: IdSchema,
  rating: z.preprocess(
    (v) => (typeof v === "string" && /^\s*\d\s*$/.test(v) ? Number(v) : v),
    z
      .number({ error: REVIEW_MESSAGES.rating })
      .int(REVIEW_MESSAGES.rating)
      .min(MIN_RATING, REVIEW_MESSAGES.rating)
      .max(MAX_RATING, REVIEW_MESSAGES.rating),
  ),
  title: text(REVIEW_FIELDS.title.maxLength, REVIEW_MESSAGES.title),
  body: text(REVIEW_FIELDS.body.maxLength, REVIEW_MESSAGES.body),
});
export type ReviewInput = z.infer<typeof ReviewSchema>;

export const HelpfulVoteSchema = z.object({ reviewId: IdSchema });

export const ReviewModerationSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("hide"),
      reviewId: IdSchema,
      reason: text(REVIEW_FIELDS.hiddenReason.maxLength, REVIEW_MESSAGES.hiddenReason),
    }),
    z.object({ intent: z.literal("unhide"), reviewId: IdSchema }),
  ],
  { error: "Unknown review action" },
);
export type ReviewModeration = z.infer<typeof ReviewModerationSchema>;

const pageNumber = z.coerce.number().int().min(1).max(1_000_000).catch(1);

/** The product page's reviews list: anything unknown falls back (the page never fails on its URL). */
export const ReviewListQuerySchema = z.object({ sort: z.enum(REVIEW_SORTS).catch("newest"), page: pageNumber });
export type ReviewListQuery = z.infer<typeof ReviewListQuerySchema>;

/** GET /api/item/reviews (paging is parseListQuery's, lib/paging.server): unlike the page's, a bad parameter is a 400. */
export const ReviewApiQuerySchema = z.object({
  itemId: IdSchema,
  sort: z.enum(REVIEW_SORTS, { error: `sort must be one of: ${REVIEW_SORTS.join(", ")}` }).default("newest"),
});

/** The staff's reviews list: search text and state (the page is the paging module's). */
export const AdminReviewQuerySchema = z.object({
  q: z.string().trim().max(100).catch(""),
  status: z.enum(REVIEW_FILTERS).catch("all"),
});
export type AdminReviewQuery = z.infer<typeof AdminReviewQuerySchema>;
