// A rating drawn as five stars (ADR 0018): the stars are decoration, the words beside or
// in the label say it (colour is never the only signal).
import { StarIcon } from "./icons";
import { ratingLabel } from "~/utils/reviews";
import { formatCount } from "~/utils/money";

/** Five stars, the first `Math.round(rating)` filled; decorative (the caller says the rating in words). */
export function Stars({ rating, className = "h-4 w-4" }: { rating: number; className?: string }) {
  const filled = Math.round(rating);
  return (
    <span className="inline-flex items-center gap-0.5" aria-hidden="true">
      {[1, 2, 3, 4, 5].map((n) => (
        <StarIcon key={n} className={`${className} ${n <= filled ? "text-wood-600" : "text-stone-300"}`} />
      ))}
    </span>
  );
}

/** '★★★★☆ 4.3 (12)' for product cards and the product page's heading; nothing without reviews. */
export function RatingBadge({ average, count, className = "" }: { average: number | null; count: number; className?: string }) {
  if (average === null || count === 0) return null;
  return (
    <p className={`flex items-center gap-1.5 text-sm text-stone-700 ${className}`} data-testid="rating">
      <Stars rating={average} />
      <span className="sr-only">{ratingLabel(average, count)}</span>
      <span aria-hidden="true">
        <span className="font-semibold text-ink">{average.toFixed(1)}</span> ({formatCount(count)})
      </span>
    </p>
  );
}
