// On a delivered order's page: a link per piece to review it, or to edit the
// review its customer wrote.
import { Link } from "./Link";
import { StarIcon } from "./icons";

export function ReviewsOrderLinks({ pieces }: { pieces: { itemId: number; title: string; slug: string; reviewed: boolean }[] }) {
  if (pieces.length === 0) return null;
  return (
    <section aria-labelledby="review-pieces-heading" className="card p-5 sm:p-6">
      <h2 id="review-pieces-heading" className="text-lg font-semibold">
        Review your pieces
      </h2>
      <p className="mt-1 text-sm text-stone-600">Your rating helps other buyers choose.</p>
      <ul className="mt-3 space-y-2">
        {pieces.map((p) => (
          <li key={p.itemId} className="flex flex-wrap items-center justify-between gap-2">
            <span className="text-sm font-medium">{p.title}</span>
            <Link
              to={`/product/${p.slug}/review`}
              className="btn-secondary min-h-11 px-3 py-1.5 text-sm"
              aria-label={`${p.reviewed ? "Edit your review of" : "Review"} ${p.title}`}
            >
              <StarIcon className="h-4 w-4 text-wood-600" /> {p.reviewed ? "Edit your review" : "Write a review"}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
