import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import {
  Form,
  isRouteErrorResponse,
  Link,
  useLoaderData,
  useNavigation,
  useParams,
  useRouteError,
  useSearchParams,
} from "@remix-run/react";
import { FilterIcon } from "~/components/icons";
import { notFoundBoundary, NotFoundPage } from "~/components/NotFoundPage";
import { Pagination } from "~/components/Pagination";
import { ProductGrid } from "~/components/ProductCard";
import { getCategoryBySlug, listItemsInCategory } from "~/models/catalogue.server";
import { pageInfo, showingText, STOREFRONT_PAGE_SIZE, storefrontPage } from "~/utils/pagination";
import { SlugSchema } from "~/utils/schemas";
import { breadcrumbJsonLd, privateMeta, seoMeta, siteUrlFrom } from "~/utils/seo";
import type { Sort } from "~/utils/catalogue";
import {
  AVAILABILITY,
  CategoryQuerySchema,
  PRICE_RANGE_KEYS,
  PRICE_RANGES,
  searchParamsToObject,
  SORT_LABELS,
  SORTS,
} from "~/utils/catalogue";

/** The 404 of a page number that is not one, or past the last page (the category exists). */
const PAGE_NOT_FOUND = "Page Not Found";

const isPageNotFound = (error: unknown) => isRouteErrorResponse(error) && error.status === 404 && error.data === PAGE_NOT_FOUND;

export const meta: MetaFunction<typeof loader> = ({ data: d, error, matches }) => {
  if (!d?.category) return privateMeta(`${isPageNotFound(error) ? PAGE_NOT_FOUND : "Category Not Found"} | Sagwan Living`);
  const page = d.info.page > 1 ? ` (Page ${d.info.page})` : "";
  const siteUrl = siteUrlFrom(matches);
  const path = `/category/${d.category.slug}`;
  return seoMeta(siteUrl, {
    title: `${d.category.title} Furniture${page} | Sagwan Living`,
    description: d.category.description,
    // Each page of the category is its own page; a sorted or filtered view is the category's.
    path: d.info.page > 1 && !d.filtersActive && d.query.sort === "default" ? `${path}?page=${d.info.page}` : path,
    image: d.category.imgPath,
    jsonLd: [
      breadcrumbJsonLd(siteUrl, [
        { name: "Home", path: "/" },
        { name: "Categories", path: "/categories" },
        { name: d.category.title, path },
      ]),
    ],
  });
};

/**
 * One page of a category: 24 products (STOREFRONT_PAGE_SIZE) sorted and filtered in SQL, `?page=N`
 * from 1. A page number that is not a whole number from 1, or one past the last page, is a 404
 * (docs/product.md); unknown filters are ignored with a 400 and a note.
 */
export async function loader({ params, request }: LoaderFunctionArgs) {
  const slug = SlugSchema.safeParse(params.slug);
  const category = slug.success ? await getCategoryBySlug(slug.data) : null;
  if (!category) throw new Response("Category Not Found", { status: 404 });
  const searchParams = new URL(request.url).searchParams;
  const page = storefrontPage(searchParams.getAll("page"));
  if (page === null) throw new Response(PAGE_NOT_FOUND, { status: 404 });
  const parsed = CategoryQuerySchema.safeParse(searchParamsToObject(searchParams));
  const query = parsed.success ? parsed.data : CategoryQuerySchema.parse({});
  const window = { offset: (page - 1) * STOREFRONT_PAGE_SIZE, limit: STOREFRONT_PAGE_SIZE };
  const list = await listItemsInCategory(category.id, query, window);
  const info = pageInfo(list.total, page, STOREFRONT_PAGE_SIZE);
  if (page > info.pages) throw new Response(PAGE_NOT_FOUND, { status: 404 });
  const filtersActive = query.availability.length > 0 || query.price.length > 0 || Boolean(query.featured);
  return data({ category, items: list.rows, info, query, filtersActive, invalid: !parsed.success }, { status: parsed.success ? 200 : 400 });
}

const SORT_CHOSEN = "border-wood-600 bg-wood-600 text-white";
const SORT_OTHER = "border-sand-200 bg-white text-ink hover:border-wood-400";
const FILTERS_SUMMARY = "flex min-h-12 cursor-pointer list-none items-center gap-2 px-5 font-semibold [&::-webkit-details-marker]:hidden";

function sortHref(params: URLSearchParams, sort: Sort) {
  const next = new URLSearchParams(params);
  next.delete("page");
  if (sort === "default") next.delete("sort");
  else next.set("sort", sort);
  const qs = next.toString();
  return qs ? `?${qs}` : ".";
}

export default function CategoryPage() {
  const { category, items, info, query, filtersActive, invalid } = useLoaderData<typeof loader>();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname === `/category/${category.slug}`;

  return (
    <>
      <section className="border-b border-sand-200 bg-wood-50">
        <div className="container-page py-10">
          <Link to="/categories" className="text-sm font-medium text-wood-700 hover:underline">
            ← Back to Categories
          </Link>
          <h1 className="mt-3 text-3xl font-semibold sm:text-4xl">{category.title}</h1>
          <p className="mt-2 max-w-2xl text-stone-600">{category.description}</p>
        </div>
      </section>
      <section className="container-page py-8">
        <div className="flex flex-wrap items-center justify-between gap-4">
          <nav aria-label="Sort" className="flex flex-wrap gap-2">
            {SORTS.map((s) => (
              <Link
                key={s}
                to={sortHref(params, s)}
                preventScrollReset
                aria-current={query.sort === s ? "true" : undefined}
                className={`btn min-h-10 border ${query.sort === s ? SORT_CHOSEN : SORT_OTHER}`}
              >
                {SORT_LABELS[s]}
              </Link>
            ))}
          </nav>
        </div>
        <details className="group mt-4 rounded-2xl border border-sand-200 bg-white" open={filtersActive || invalid}>
          <summary className={FILTERS_SUMMARY}>
            <FilterIcon className="h-5 w-5" /> Filters
            {filtersActive ? <span className="ml-2 rounded-full bg-wood-100 px-2 py-0.5 text-xs text-wood-800">On</span> : null}
          </summary>
          <Form method="get" preventScrollReset className="grid gap-6 border-t border-sand-200 p-5 sm:grid-cols-3">
            {query.sort !== "default" ? <input type="hidden" name="sort" value={query.sort} /> : null}
            <fieldset>
              <legend className="mb-2 font-semibold">Availability</legend>
              {Object.entries(AVAILABILITY).map(([value, label]) => (
                <label key={value} className="flex min-h-11 items-center gap-3">
                  <input
                    type="checkbox"
                    name="availability"
                    value={value}
                    defaultChecked={query.availability.includes(value as keyof typeof AVAILABILITY)}
                    className="h-5 w-5 accent-wood-600"
                  />
                  {label}
                </label>
              ))}
            </fieldset>
            <fieldset>
              <legend className="mb-2 font-semibold">Price Range</legend>
              {PRICE_RANGE_KEYS.map((key) => (
                <label key={key} className="flex min-h-11 items-center gap-3">
                  <input
                    type="checkbox"
                    name="price"
                    value={key}
                    defaultChecked={query.price.includes(key)}
                    className="h-5 w-5 accent-wood-600"
                  />
                  {PRICE_RANGES[key].label}
                </label>
              ))}
            </fieldset>
            <fieldset>
              <legend className="mb-2 font-semibold">Featured</legend>
              <label className="flex min-h-11 items-center gap-3">
                <input
                  type="checkbox"
                  name="featured"
                  value="1"
                  defaultChecked={Boolean(query.featured)}
                  className="h-5 w-5 accent-wood-600"
                />
                Featured Items
              </label>
              <div className="mt-4 flex flex-wrap gap-2">
                <button type="submit" className="btn-primary">
                  Apply Filters
                </button>
                {filtersActive ? (
                  <Link to={query.sort === "default" ? "." : `?sort=${query.sort}`} preventScrollReset className="btn-ghost">
                    Clear
                  </Link>
                ) : null}
              </div>
            </fieldset>
          </Form>
        </details>
        {invalid ? (
          <p role="alert" className="mt-4 text-sm text-red-700">
            Some filters were not recognised and were ignored.
          </p>
        ) : null}
        <p className="mt-6 text-sm text-stone-600" aria-live="polite" data-testid="showing">
          {info.total === 0 ? "0 products" : showingText(info, info.total === 1 ? "product" : "products")}
        </p>
        <div className={`mt-4 transition-opacity ${loading ? "opacity-50" : ""}`} aria-busy={loading}>
          {items.length === 0 ? (
            <div className="rounded-2xl border border-dashed border-sand-200 bg-white py-16 text-center">
              <p className="text-lg">No products found in this category.</p>
              <Link to="/categories" className="btn-secondary mt-6">
                Browse Other Categories
              </Link>
            </div>
          ) : (
            <ProductGrid items={items} eagerFirst={2} />
          )}
        </div>
        <div className="mt-6">
          <Pagination info={info} label="Products" showing={false} />
        </div>
      </section>
    </>
  );
}

/**
 * A page number that is not one, or past the last page: its own 404 with the way back to the
 * first page. An unknown category: its own 404 page inside the shop layout; any other failure
 * says what went wrong.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const { slug } = useParams();
  if (isPageNotFound(error) && slug) {
    return (
      <NotFoundPage
        title={PAGE_NOT_FOUND}
        message="This category has no such page."
        to={`/category/${encodeURIComponent(slug)}`}
        linkText="Back to the First Page"
      />
    );
  }
  return <CategoryNotFound />;
}

const CategoryNotFound = notFoundBoundary(
  {
    title: "Category Not Found",
    message: "The category you're looking for doesn't exist.",
    to: "/categories",
    linkText: "View All Categories",
  },
  CategoryError,
);

function CategoryError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error) ? error.statusText || String(error.data) : "We couldn't load this category.";
  return (
    <section className="container-page py-20 text-center">
      <p role="alert" className="text-lg text-red-700">
        Error: {message}
      </p>
      <Link to="/categories" className="btn-secondary mt-6">
        View All Categories
      </Link>
    </section>
  );
}
