// Sort links and the filters form of a product list (category pages, search results): plain links
// and a GET form, so both work without JavaScript. Every other parameter of the URL (the search's
// q) is kept; a new sort or filter starts again at page 1. The form's option filters (Fabric,
// Size…) are checkboxes named by the option, valued by the value, each with its count.
import { Form, useSearchParams } from "@remix-run/react";
import { Link } from "./Link";
import { FilterIcon } from "~/components/icons";
import type { Sort } from "~/utils/catalogue";
import type { CategoryQuery } from "~/utils/catalogue-schemas";
import { AVAILABILITY, PRICE_RANGE_KEYS, PRICE_RANGES, SORT_LABELS, SORTS } from "~/utils/catalogue";
import type { Facet } from "~/utils/option-filters";
import { formatCount } from "~/utils/money";

const SORT_CHOSEN = "border-wood-600 bg-wood-600 text-white";
const SORT_OTHER = "border-sand-200 bg-white text-ink hover:border-wood-400";
const FILTERS_SUMMARY = "flex min-h-12 cursor-pointer list-none items-center gap-2 px-5 font-semibold [&::-webkit-details-marker]:hidden";
const CHECK_ROW = "flex min-h-11 items-center gap-3";
const CHECK = "h-5 w-5 accent-wood-600";

/**
 * This URL's query with `changes` applied (null removes a key), `dropValue`'s pairs removed and no
 * page number: `?a=b`, or `.` when empty.
 */
function hrefWith(
  params: URLSearchParams,
  changes: Record<string, string | null>,
  drop: string[] = [],
  dropValue: Record<string, string> = {},
) {
  const next = new URLSearchParams(params);
  next.delete("page");
  for (const key of drop) next.delete(key);
  for (const [key, value] of Object.entries(dropValue)) next.delete(key, value);
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) next.delete(key);
    else next.set(key, value);
  }
  const qs = next.toString();
  return qs ? `?${qs}` : ".";
}

export function ListControls({
  query,
  filtersActive,
  invalid,
  keep = {},
  sortLabels = SORT_LABELS,
  facets = [],
}: {
  query: CategoryQuery;
  filtersActive: boolean;
  invalid: boolean;
  /** parameters the filters form carries along (the search's q) */
  keep?: Record<string, string>;
  /** the sort names, when the list's default order is not 'Default' (search: Relevance) */
  sortLabels?: Record<Sort, string>;
  /** the list's option filters with their counts (Fabric: Velvet (4)) */
  facets?: Facet[];
}) {
  const [params] = useSearchParams();
  const sortHref = (sort: Sort) => hrefWith(params, { sort: sort === "default" ? null : sort });
  const clearHref = hrefWith(params, {}, ["availability", "price", "featured", ...facets.map((f) => f.slug)]);
  const chosen = facets.flatMap((f) => f.values.filter((v) => v.chosen).map((v) => ({ option: f, value: v })));
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <nav aria-label="Sort" className="flex flex-wrap gap-2">
          {SORTS.map((s) => (
            <Link
              key={s}
              to={sortHref(s)}
              preventScrollReset
              aria-current={query.sort === s ? "true" : undefined}
              className={`btn min-h-10 border ${query.sort === s ? SORT_CHOSEN : SORT_OTHER}`}
            >
              {sortLabels[s]}
            </Link>
          ))}
        </nav>
      </div>
      <details className="group mt-4 rounded-2xl border border-sand-200 bg-white" open={filtersActive || invalid}>
        <summary className={FILTERS_SUMMARY}>
          <FilterIcon className="h-5 w-5" /> Filters
          {filtersActive ? <span className="ml-2 rounded-full bg-wood-100 px-2 py-0.5 text-xs text-wood-800">On</span> : null}
        </summary>
        <Form method="get" preventScrollReset className="grid gap-6 border-t border-sand-200 p-5 sm:grid-cols-2 lg:grid-cols-4">
          {Object.entries(keep).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          {query.sort !== "default" ? <input type="hidden" name="sort" value={query.sort} /> : null}
          <fieldset>
            <legend className="mb-2 font-semibold">Availability</legend>
            {Object.entries(AVAILABILITY).map(([value, label]) => (
              <label key={value} className={CHECK_ROW}>
                <input
                  type="checkbox"
                  name="availability"
                  value={value}
                  defaultChecked={query.availability.includes(value as keyof typeof AVAILABILITY)}
                  className={CHECK}
                />
                {label}
              </label>
            ))}
          </fieldset>
          <fieldset>
            <legend className="mb-2 font-semibold">Price Range</legend>
            {PRICE_RANGE_KEYS.map((key) => (
              <label key={key} className={CHECK_ROW}>
                <input type="checkbox" name="price" value={key} defaultChecked={query.price.includes(key)} className={CHECK} />
                {PRICE_RANGES[key].label}
              </label>
            ))}
          </fieldset>
          <fieldset>
            <legend className="mb-2 font-semibold">Featured</legend>
            <label className={CHECK_ROW}>
              <input type="checkbox" name="featured" value="1" defaultChecked={Boolean(query.featured)} className={CHECK} />
              Featured Items
            </label>
          </fieldset>
          {facets.map((facet) => (
            <fieldset key={facet.slug} data-testid={`facet-${facet.slug}`}>
              <legend className="mb-2 font-semibold">{facet.name}</legend>
              {facet.values.map((v) => (
                <label key={v.slug} className={CHECK_ROW}>
                  <input type="checkbox" name={facet.slug} value={v.slug} defaultChecked={v.chosen} className={CHECK} />
                  <span>
                    {v.label} <span className="text-stone-500">({formatCount(v.count)})</span>
                  </span>
                </label>
              ))}
            </fieldset>
          ))}
          <div className="flex flex-wrap gap-2 sm:col-span-2 lg:col-span-4">
            <button type="submit" className="btn-primary">
              Apply Filters
            </button>
            {filtersActive ? (
              <Link to={clearHref} preventScrollReset className="btn-ghost">
                Clear
              </Link>
            ) : null}
          </div>
        </Form>
      </details>
      {chosen.length > 0 ? (
        <ul aria-label="Chosen options" className="mt-4 flex flex-wrap gap-2">
          {chosen.map(({ option, value }) => (
            <li key={`${option.slug}=${value.slug}`}>
              <Link
                to={hrefWith(params, {}, [], { [option.slug]: value.slug })}
                preventScrollReset
                className="btn min-h-10 border border-wood-300 bg-wood-50 text-sm text-wood-800 hover:border-wood-500"
                aria-label={`Remove ${option.name}: ${value.label}`}
              >
                {option.name}: {value.label} <span aria-hidden="true">×</span>
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      {invalid ? (
        <p role="alert" className="mt-4 text-sm text-red-700">
          Some filters were not recognised and were ignored.
        </p>
      ) : null}
    </>
  );
}
