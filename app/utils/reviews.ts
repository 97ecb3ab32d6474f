// Reviews and ratings from real buyers (ADR 0018): the review form's fields and messages,
// the list's sorts, and the figures a product's rating is shown with. Zod-free (the browser reads
// it); the schemas are review-schemas.ts. The rules are in docs/product.md, Reviews.

import { formatCount } from "./money";

export const RATINGS = [5, 4, 3, 2, 1] as const;
export const MIN_RATING = 1;
export const MAX_RATING = 5;

export const REVIEW_FIELDS = {
  title: { required: true, maxLength: 100 },
  body: { required: true, maxLength: 2000 },
  hiddenReason: { required: true, maxLength: 300 },
} as const;

/** Reviews on one page of a product's list. */
export const REVIEWS_PAGE_SIZE = 5;

export const REVIEW_SORTS = ["newest", "helpful"] as const;
export type ReviewSort = (typeof REVIEW_SORTS)[number];
export const REVIEW_SORT_LABELS: Record<ReviewSort, string> = { newest: "Newest first", helpful: "Most helpful first" };

/** The product page's GET parameters of its reviews list (kept apart from the page's own). */
export const REVIEW_PARAMS = { sort: "reviews", page: "reviews-page" } as const;

export const REVIEW_MESSAGES = {
  rating: `Choose a rating from ${MIN_RATING} to ${MAX_RATING} stars.`,
  title: `Give your review a title (at most ${REVIEW_FIELDS.title.maxLength} characters).`,
  body: `Tell other buyers about the piece (at most ${REVIEW_FIELDS.body.maxLength} characters).`,
  notBuyer: "Only customers who received this piece can review it. Reviews open once your order is delivered.",
  signIn: "Please sign in to review a piece you bought.",
  ownVote: "You cannot mark your own review as helpful.",
  notFound: "That review was not found.",
  hiddenReason: `Tell the author why it is hidden (at most ${REVIEW_FIELDS.hiddenReason.maxLength} characters).`,
  alreadyHidden: "This review is already hidden.",
  alreadyVisible: "This review is already shown.",
};

export const REVIEW_FILTERS = ["all", "visible", "hidden"] as const;
export type ReviewFilter = (typeof REVIEW_FILTERS)[number];
export const REVIEW_FILTER_LABEL: Record<ReviewFilter, string> = { all: "All reviews", visible: "Shown", hidden: "Hidden" };

/** The average of `count` ratings summing to `total`, to one decimal (4.25 → 4.3); null when there are none. */
export function averageRating(total: number, count: number): number | null {
  if (count <= 0) return null;
  return Math.round((total * 10) / count) / 10;
}

/** '4.3 out of 5 stars from 12 reviews' (what a screen reader says for the stars). */
export function ratingLabel(average: number, count: number): string {
  return `Rated ${average.toFixed(1)} out of 5 from ${formatCount(count)} ${count === 1 ? "review" : "reviews"}`;
}

/** Plain text as typed, made tidy: NFC, no control characters but line breaks, at most one blank line in a row. */
export function tidyText(value: string): string {
  return (
    value
      .normalize("NFC")
      .replace(/\r\n?/g, "\n")
      // eslint-disable-next-line no-control-regex -- control characters are what it removes
      .replace(/[\u0000-\u0009\u000B-\u001F\u007F]/g, "")
      .replace(/\n{3,}/g, "\n\n")
      .trim()
  );
}
