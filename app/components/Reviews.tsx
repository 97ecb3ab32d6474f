// The product page's reviews: the average, count and histogram of the visible
// reviews, the list (newest or most helpful first, paged: GET links, no JavaScript needed), each
// marked 'Verified purchase', the helpful button (a POST form; with JavaScript a fetcher), and
// the review form for a customer who received the piece.
import { useFetcher, useLocation } from "@remix-run/react";
import { Link } from "./Link";
import type { FormEvent } from "react";
import { lazy, Suspense } from "react";
import type { ProductReviews, PublicReview, ReviewViewer } from "~/models/reviews/read.server";
import { formatLongDate } from "~/utils/dates";
import type { ReviewSort } from "~/utils/reviews";
import { ratingLabel, REVIEW_PARAMS, REVIEW_SORT_LABELS, REVIEW_SORTS } from "~/utils/reviews";
import { Stars } from "./ReviewStars";
import { formatCount } from "~/utils/money";

/**
 * The review form, shown only to a customer who received the piece: rendered by the server (it
 * posts without JavaScript), loaded by the browser only on the pages that show it.
 */
const ReviewForm = import.meta.env.SSR
  ? (await import("./ReviewForm")).ReviewForm
  : lazy(() => import("./ReviewForm").then((m) => ({ default: m.ReviewForm })));

/** This page's URL with the reviews list's parameters changed, ending at the list. */
function listHref(search: string, change: { sort?: ReviewSort; page?: number }): string {
  const params = new URLSearchParams(search);
  if (change.sort !== undefined) {
    params.delete(REVIEW_PARAMS.page);
    if (change.sort === "newest") params.delete(REVIEW_PARAMS.sort);
    else params.set(REVIEW_PARAMS.sort, change.sort);
  }
  if (change.page !== undefined) {
    if (change.page <= 1) params.delete(REVIEW_PARAMS.page);
    else params.set(REVIEW_PARAMS.page, String(change.page));
  }
  const query = params.toString();
  return `${query ? `?${query}` : "?"}#reviews`;
}

function Histogram({ data }: { data: ProductReviews }) {
  return (
    <ul className="mt-4 space-y-1.5" aria-label="Ratings by stars" data-testid="review-histogram">
      {data.histogram.map(({ rating, count }) => {
        const share = data.reviewCount ? Math.round((count / data.reviewCount) * 100) : 0;
        return (
          <li key={rating} className="grid grid-cols-[4.5rem_1fr_2.5rem] items-center gap-2 text-sm">
            <span className="text-stone-700">
              {rating} {rating === 1 ? "star" : "stars"}
            </span>
            <span className="h-2.5 overflow-hidden rounded-full bg-sand-100" aria-hidden="true">
              <span className="block h-full rounded-full bg-wood-600" style={{ width: `${share}%` }} />
            </span>
            <span className="text-right tabular-nums text-stone-600" data-testid={`histogram-${rating}`}>
              {formatCount(count)}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/** 'Helpful': once per customer, never on one's own review; a guest is asked to sign in. */
function HelpfulButton({ review, slug, viewer }: { review: PublicReview; slug: string; viewer: ReviewViewer & { userReviewId?: number } }) {
  const location = useLocation();
  const fetcher = useFetcher<{ ok: boolean; formError?: string; helpfulCount?: number }>({ key: `helpful-${review.id}` });
  const voted = viewer.voted.includes(review.id) || (fetcher.data?.ok ?? false) || fetcher.state !== "idle";
  const count = fetcher.data?.ok && fetcher.data.helpfulCount !== undefined ? fetcher.data.helpfulCount : review.helpfulCount;
  const error = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data.formError : null;
  const here = location.pathname + location.search;
  const own = viewer.userReviewId === review.id;
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formData = new FormData(event.currentTarget);
    formData.delete("redirectTo");
    fetcher.submit(formData, { method: "post", action: `/product/${slug}/review` });
  };
  return (
    <div className="mt-3 flex flex-wrap items-center gap-3 text-sm text-stone-600">
      <span data-testid="helpful-count">
        {count === 0 ? "No one has marked this helpful yet" : `${formatCount(count)} found this helpful`}
      </span>
      {own ? null : !viewer.signedIn ? (
        <Link to={`/login?redirectTo=${encodeURIComponent(`${here}#review-${review.id}`)}`} className="font-medium text-wood-700 underline">
          Sign in to mark it helpful
        </Link>
      ) : voted ? (
        <span className="font-medium text-green-800">You found this helpful</span>
      ) : (
        <fetcher.Form method="post" action={`/product/${slug}/review`} onSubmit={onSubmit}>
          <input type="hidden" name="intent" value="helpful" />
          <input type="hidden" name="reviewId" value={review.id} />
          <input type="hidden" name="redirectTo" value={`${here}#review-${review.id}`} />
          <button type="submit" className="btn-secondary min-h-11 px-4 py-1 text-sm" aria-label={`Mark “${review.title}” as helpful`}>
            Helpful
          </button>
        </fetcher.Form>
      )}
      {error ? (
        <p role="alert" className="w-full text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

const VERIFIED = [
  "inline-flex items-center gap-1 rounded-full bg-green-50 px-2 py-0.5",
  "text-xs font-semibold text-green-800 ring-1 ring-inset ring-green-200",
].join(" ");

function ReviewItem({ review, slug, viewer }: { review: PublicReview; slug: string; viewer: ReviewViewer & { userReviewId?: number } }) {
  return (
    <li id={`review-${review.id}`} className="border-b border-sand-200 py-5 last:border-b-0" data-testid="review">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <Stars rating={review.rating} />
        <span className="sr-only">{review.rating} out of 5 stars</span>
        <h3 className="font-sans text-base font-semibold text-ink">{review.title}</h3>
      </div>
      <p className="mt-1 flex flex-wrap items-center gap-x-2 text-sm text-stone-600">
        <span>{review.author}</span>
        <span aria-hidden="true">·</span>
        <time dateTime={review.createdAt}>{formatLongDate(review.createdAt)}</time>
        <span className={VERIFIED}>✓ Verified purchase</span>
        {review.variantLabel ? <span data-testid="review-variant">Bought: {review.variantLabel}</span> : null}
      </p>
      <p className="mt-2 whitespace-pre-line leading-relaxed text-stone-700">{review.body}</p>
      <HelpfulButton review={review} slug={slug} viewer={viewer} />
    </li>
  );
}

export function ReviewsSection({ slug, data, viewer }: { slug: string; data: ProductReviews; viewer: ReviewViewer }) {
  const location = useLocation();
  const { info } = data;
  const withOwn = { ...viewer, userReviewId: viewer.own?.id };
  return (
    <section id="reviews" aria-labelledby="reviews-heading" className="container-page scroll-mt-24 py-8">
      <h2 id="reviews-heading" className="text-2xl font-semibold">
        Customer Reviews
      </h2>
      <div className="mt-6 grid gap-8 lg:grid-cols-[320px_1fr]">
        <div>
          {data.averageRating !== null ? (
            <div className="card p-5" data-testid="review-summary">
              <p className="flex items-end gap-2">
                <span className="text-4xl font-semibold text-ink">{data.averageRating.toFixed(1)}</span>
                <span className="pb-1 text-stone-600">out of 5</span>
              </p>
              <div className="mt-1 flex items-center gap-2">
                <Stars rating={data.averageRating} className="h-5 w-5" />
                <span className="sr-only">{ratingLabel(data.averageRating, data.reviewCount)}</span>
                <span className="text-sm text-stone-600" aria-hidden="true">
                  {formatCount(data.reviewCount)} {data.reviewCount === 1 ? "review" : "reviews"}
                </span>
              </div>
              <Histogram data={data} />
            </div>
          ) : (
            <p className="card p-5 text-stone-700" data-testid="review-summary">
              No reviews yet. Reviews come only from customers who received the piece.
            </p>
          )}
          <div className="mt-6">
            {viewer.canReview ? (
              <div className="card p-5">
                <h3 className="font-sans text-lg font-semibold">{viewer.own ? "Your review" : "Write a review"}</h3>
                <p className="mb-4 mt-1 text-sm text-stone-600">You received this piece: tell other buyers how you find it.</p>
                <Suspense fallback={null}>
                  <ReviewForm slug={slug} own={viewer.own} />
                </Suspense>
              </div>
            ) : viewer.signedIn ? (
              <p className="text-sm text-stone-600">Only customers who received this piece can review it.</p>
            ) : (
              <p className="text-sm text-stone-600">
                Bought this piece?{" "}
                <Link
                  to={`/login?redirectTo=${encodeURIComponent(`${location.pathname}${location.search}#reviews`)}`}
                  className="font-medium text-wood-700 underline"
                >
                  Sign in to review it
                </Link>
              </p>
            )}
          </div>
        </div>
        <div>
          {data.reviewCount > 0 ? (
            <>
              <nav aria-label="Sort reviews" className="flex flex-wrap gap-2">
                {REVIEW_SORTS.map((sort) => (
                  <Link
                    key={sort}
                    to={listHref(location.search, { sort })}
                    preventScrollReset
                    aria-current={data.sort === sort ? "true" : undefined}
                    className={`inline-flex min-h-11 items-center rounded-full px-4 text-sm font-semibold ring-1 ring-inset ${
                      data.sort === sort
                        ? "bg-wood-600 text-white ring-wood-600"
                        : "bg-white text-stone-700 ring-sand-300 hover:ring-wood-600"
                    }`}
                  >
                    {REVIEW_SORT_LABELS[sort]}
                  </Link>
                ))}
              </nav>
              <ul className="mt-2" aria-label="Reviews">
                {data.reviews.map((review) => (
                  <ReviewItem key={review.id} review={review} slug={slug} viewer={withOwn} />
                ))}
              </ul>
              {info.pages > 1 ? (
                <nav aria-label="Review pages" className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm">
                  {info.page > 1 ? (
                    <Link to={listHref(location.search, { page: info.page - 1 })} preventScrollReset className="btn-secondary">
                      Previous reviews
                    </Link>
                  ) : (
                    <span />
                  )}
                  <span className="text-stone-600">
                    Page {info.page} of {info.pages}
                  </span>
                  {info.page < info.pages ? (
                    <Link to={listHref(location.search, { page: info.page + 1 })} preventScrollReset className="btn-secondary">
                      More reviews
                    </Link>
                  ) : (
                    <span />
                  )}
                </nav>
              ) : null}
            </>
          ) : null}
        </div>
      </div>
    </section>
  );
}
