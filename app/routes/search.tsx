import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { storefront } from "~/models/catalogue/storefront.server";
import { data } from "@remix-run/node";
import { Form, isRouteErrorResponse, useLoaderData, useNavigation, useRouteError, useSearchParams } from "@remix-run/react";
import { Link } from "~/components/Link";
import { SearchIcon } from "~/components/icons";
import { ListControls } from "~/components/ListControls";
import { NotFoundPage } from "~/components/NotFoundPage";
import { Pagination } from "~/components/Pagination";
import { ProductGrid } from "~/components/ProductCard";
import { ErrorPage } from "~/components/ErrorPage";
import { isAppError } from "~/lib/errors.server";
import { clientOf } from "~/lib/rate-limit.server";
import { searchFor } from "~/web/search.server";
import type { Sort } from "~/utils/catalogue";
import { searchParamsToObject, SORT_LABELS } from "~/utils/catalogue";
import { CategoryQuerySchema } from "~/utils/catalogue-schemas";
import { formatCount } from "~/utils/money";
import { pageInfoOf, parseListQuery, STOREFRONT_PAGE } from "~/lib/paging.server";
import { PAGE_NOT_FOUND, showingText } from "~/utils/pagination";
import { parseOptionChoice } from "~/utils/option-filters";
import { parseSearch, SEARCH_MAX_LENGTH, SEARCH_MAX_RESULTS, SEARCH_MAX_WORDS, SEARCH_MIN_PREFIX } from "~/utils/search";
import { privateMeta, seoMeta, siteUrlFrom } from "~/utils/seo";

const SEARCH_SORT_LABELS: Record<Sort, string> = { ...SORT_LABELS, default: "Relevance" };

const isPageNotFound = (error: unknown) => isRouteErrorResponse(error) && error.status === 404 && error.data === PAGE_NOT_FOUND;

export const meta: MetaFunction<typeof loader> = ({ data: d, error, matches }) => {
  if (!d) return privateMeta(`${isPageNotFound(error) ? PAGE_NOT_FOUND : "Search"} | Sagwan Living`);
  const page = d.info.page > 1 ? ` (Page ${d.info.page})` : "";
  const text = d.search.text;
  return [
    ...seoMeta(siteUrlFrom(matches), {
      title: text ? `Search results for “${text}”${page} | Sagwan Living` : "Search | Sagwan Living",
      description: text
        ? `Handcrafted furniture matching “${text}” at Sagwan Living: sofas, beds, dining sets and more, delivered across India.`
        : "Search Sagwan Living's handcrafted furniture by name, wood, colour, size or room.",
      // One canonical page per search and page number; sorts and filters are views of it.
      path: text ? `/search?q=${encodeURIComponent(text)}${d.info.page > 1 ? `&page=${d.info.page}` : ""}` : "/search",
    }),
    // Result pages are for shoppers, not for search engines' indexes (the catalogue is reached through
    // categories and the sitemaps); their links are followed.
    { name: "robots", content: "noindex, follow" },
  ];
};

/**
 * The search results (docs/product.md, Search): 24 products a page (STOREFRONT_PAGE), the
 * category page's sort (Relevance first), filters and pages, `?page=N` from 1. No q, or no word
 * of two characters, is an empty page that says so; a page number that is not one, or past the
 * last page, is a 404; unknown filters are ignored with a 400 and a note, as on category pages.
 * A repeated q reads the first; a long one its first 200 characters and 8 words, and says so.
 * Option filters (`?fabric=velvet`) apply among the matches considered, with counts, as on a category page.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const searchParams = url.searchParams;
  const search = parseSearch(searchParams.get("q"));
  const paging = parseListQuery(url, STOREFRONT_PAGE);
  const parsed = CategoryQuerySchema.safeParse(searchParamsToObject(searchParams));
  const query = parsed.success ? parsed.data : CategoryQuerySchema.parse({});
  const list = search.searchable
    ? await searchFor(clientOf(request), search.words, { ...query, options: parseOptionChoice(searchParams) }, paging, true).catch(
        (error: unknown) => {
          // Too many slow searches from this address: the error page says so, with a 429.
          if (isAppError(error, "RATE_LIMITED")) throw new Response(error.message, { status: 429, headers: error.headers });
          throw error;
        },
      )
    : { rows: [], total: 0, capped: false, facets: [] };
  const info = pageInfoOf(paging, list.total);
  const facets = list.facets ?? [];
  const filtersActive =
    query.availability.length > 0 ||
    query.price.length > 0 ||
    Boolean(query.featured) ||
    facets.some((f) => f.values.some((v) => v.chosen));
  return data(
    {
      search: { text: search.text, searchable: search.searchable, shortened: search.tooLong || search.dropped > 0 },
      items: await storefront.cards(list.rows),
      info,
      capped: list.capped,
      query,
      facets,
      filtersActive,
      invalid: !parsed.success,
    },
    { status: parsed.success ? 200 : 400 },
  );
}

function SearchBox({ text }: { text: string }) {
  return (
    <Form method="get" action="/search" role="search" className="mt-5 flex max-w-xl gap-2">
      <label htmlFor="search-page-q" className="sr-only">
        Search
      </label>
      <input
        id="search-page-q"
        type="search"
        name="q"
        defaultValue={text}
        key={text}
        maxLength={SEARCH_MAX_LENGTH}
        placeholder="Search sofas, beds, teak…"
        className="field-input min-h-12 flex-1"
      />
      <button type="submit" className="btn-primary min-h-12">
        <SearchIcon className="h-5 w-5" />
        <span>Search</span>
      </button>
    </Form>
  );
}

export default function SearchPage() {
  const { search, items, info, capped, query, facets, filtersActive, invalid } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === "/search";
  const heading = search.text ? `Results for “${search.text}”` : "Search";

  return (
    <>
      <section className="border-b border-sand-200 bg-wood-50">
        <div className="container-page py-10">
          <h1 className="text-3xl font-semibold break-words sm:text-4xl">{heading}</h1>
          <SearchBox text={search.text} />
          {search.shortened ? (
            <p className="mt-3 text-sm text-stone-600">
              Only the first {SEARCH_MAX_WORDS} words and {SEARCH_MAX_LENGTH} characters were searched.
            </p>
          ) : null}
        </div>
      </section>
      <section className="container-page py-8">
        {!search.text ? (
          <EmptyState
            title="What are you looking for?"
            message="Search by name, wood, colour, size or room: try “teak”, “king” or “recliner”."
          />
        ) : !search.searchable ? (
          <EmptyState
            title="Type a little more"
            message={`Search for a word of at least ${SEARCH_MIN_PREFIX} letters or digits: try “teak”, “king” or “recliner”.`}
          />
        ) : (
          <>
            <ListControls
              query={query}
              facets={facets}
              filtersActive={filtersActive}
              invalid={invalid}
              keep={{ q: params.get("q") ?? search.text }}
              sortLabels={SEARCH_SORT_LABELS}
            />
            <p className="mt-6 text-sm text-stone-600" aria-live="polite" data-testid="showing">
              {info.total === 0 ? "0 products" : showingText(info, info.total === 1 ? "product" : "products")}
              {capped ? ` among the ${formatCount(SEARCH_MAX_RESULTS)} most relevant: add a word to narrow the search` : ""}
            </p>
            <div className={`mt-4 transition-opacity ${loading ? "opacity-50" : ""}`} aria-busy={loading}>
              {items.length === 0 ? (
                <EmptyState
                  title={`No products match “${search.text}”`}
                  message={
                    filtersActive
                      ? "Try clearing the filters, using fewer words or checking the spelling."
                      : "Try fewer words, another spelling, or browse the categories."
                  }
                />
              ) : (
                <ProductGrid items={items} eagerFirst={2} />
              )}
            </div>
            <div className="mt-6">
              <Pagination info={info} label="Results" showing={false} />
            </div>
          </>
        )}
      </section>
    </>
  );
}

function EmptyState({ title, message }: { title: string; message: string }) {
  return (
    <div className="rounded-2xl border border-dashed border-sand-200 bg-white px-4 py-16 text-center">
      <h2 className="text-xl font-semibold break-words">{title}</h2>
      <p className="mx-auto mt-2 max-w-md text-stone-600">{message}</p>
      <Link to="/categories" className="btn-secondary mt-6">
        Browse Categories
      </Link>
    </div>
  );
}

/** A page number that is not one, or past the last page: a 404 with the way back to the first page of the same search. */
export function ErrorBoundary() {
  const error = useRouteError();
  const [params] = useSearchParams();
  if (isPageNotFound(error)) {
    const q = params.get("q");
    return (
      <NotFoundPage
        title={PAGE_NOT_FOUND}
        message="This search has no such page."
        to={q ? `/search?q=${encodeURIComponent(q)}` : "/search"}
        linkText="Back to the First Page"
      />
    );
  }
  return <ErrorPage />;
}
