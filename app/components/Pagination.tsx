// Numbered pagination for the admin lists and the category pages (docs/product.md): shown only with
// more than one page, 'Showing X to Y of Z', previous/next disabled at the ends. Plain links that keep
// every other parameter of the URL (search, sort, filters): works without JS.
import { useLocation } from "@remix-run/react";
import { Link } from "./Link";
import { ChevronLeftIcon, ChevronRightIcon } from "~/components/icons";
import { withParams } from "~/utils/admin-url";
import type { PageInfo } from "~/utils/pagination";
import { pageNumbers, showingText } from "~/utils/pagination";

const CURRENT = "border-wood-600 bg-wood-600 font-semibold text-white";
const OTHER = "border-sand-300 bg-white hover:bg-sand-100";

export function Pagination({ info, noun, label, showing = true }: { info: PageInfo; noun?: string; label: string; showing?: boolean }) {
  const location = useLocation();
  if (info.pages <= 1) return null;
  const href = (page: number) =>
    `${location.pathname}${withParams(location.search, { page: page === 1 ? null : page, new: null, edit: null, delete: null })}`;
  const edge = "inline-flex h-11 min-w-11 items-center justify-center gap-1 rounded-md border px-2 text-sm sm:px-3";
  return (
    <nav
      aria-label={`${label} pages`}
      className={`mt-4 flex flex-col items-center gap-3 sm:flex-row ${showing ? "justify-between" : "justify-center"}`}
    >
      {showing ? (
        <p className="text-sm text-stone-600" data-testid="showing">
          {showingText(info, noun)}
        </p>
      ) : null}
      <ul className="flex flex-wrap items-center justify-center gap-0.5 sm:gap-1">
        <li>
          {info.page > 1 ? (
            <Link to={href(info.page - 1)} className={`${edge} border-sand-300 bg-white hover:bg-sand-100`} rel="prev">
              <ChevronLeftIcon className="h-4 w-4" /> <span className="sr-only sm:not-sr-only">Previous</span>
            </Link>
          ) : (
            <button type="button" disabled className={`${edge} cursor-not-allowed border-sand-200 text-stone-400`}>
              <ChevronLeftIcon className="h-4 w-4" /> <span className="sr-only sm:not-sr-only">Previous</span>
            </button>
          )}
        </li>
        {pageNumbers(info.page, info.pages).map((n, i) =>
          n === null ? (
            <li key={`gap-${i}`} className="px-0.5 text-stone-500 sm:px-1" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={n}>
              <Link
                to={href(n)}
                aria-current={n === info.page ? "page" : undefined}
                aria-label={`Page ${n}`}
                className={`${edge} ${n === info.page ? CURRENT : OTHER}`}
              >
                {n}
              </Link>
            </li>
          ),
        )}
        <li>
          {info.page < info.pages ? (
            <Link to={href(info.page + 1)} className={`${edge} border-sand-300 bg-white hover:bg-sand-100`} rel="next">
              <span className="sr-only sm:not-sr-only">Next</span> <ChevronRightIcon className="h-4 w-4" />
            </Link>
          ) : (
            <button type="button" disabled className={`${edge} cursor-not-allowed border-sand-200 text-stone-400`}>
              <span className="sr-only sm:not-sr-only">Next</span> <ChevronRightIcon className="h-4 w-4" />
            </button>
          )}
        </li>
      </ul>
    </nav>
  );
}
