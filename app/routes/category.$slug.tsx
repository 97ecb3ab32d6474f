import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { isRouteErrorResponse, useLoaderData, useNavigation, useParams, useRouteError } from "@remix-run/react";
import { Link } from "~/components/Link";
import { ListControls } from "~/components/ListControls";
import { notFoundBoundary, NotFoundPage } from "~/components/NotFoundPage";
import { Pagination } from "~/components/Pagination";
import { ProductGrid } from "~/components/ProductCard";
import { categoryListing, storefront } from "~/models/catalogue/storefront.server";
import { parseOptionChoice } from "~/utils/option-filters";
import { pageInfoOf, parseListQuery, STOREFRONT_PAGE } from "~/lib/paging.server";
import { PAGE_NOT_FOUND, showingText } from "~/utils/pagination";
import { SlugSchema } from "~/utils/schemas";
import { breadcrumbJsonLd, privateMeta, seoMeta, siteUrlFrom } from "~/utils/seo";
import { searchParamsToObject } from "~/utils/catalogue";
import { CategoryQuerySchema } from "~/utils/catalogue-schemas";
import { notFoundPage } from "~/lib/errors.server";

/** The 404 of a page number that is not one, or past the last page (the category exists). */

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
 * One page of a category: 24 products (STOREFRONT_PAGE) sorted and filtered in SQL, `?page=N`
 * from 1. A page number that is not a whole number from 1, or one past the last page, is a 404
 * (docs/product.md); unknown filters are ignored with a 400 and a note. Option filters
 * (`?fabric=velvet`) name an option and a value the category's products have; others are ignored.
 */
export async function loader({ params, request }: LoaderFunctionArgs) {
  const slug = SlugSchema.safeParse(params.slug);
  const category = slug.success ? await storefront.categoryBySlug(slug.data) : null;
  if (!category) throw notFoundPage("Category Not Found");
  const url = new URL(request.url);
  const searchParams = url.searchParams;
  const paging = parseListQuery(url, STOREFRONT_PAGE);
  const parsed = CategoryQuerySchema.safeParse(searchParamsToObject(searchParams));
  const query = parsed.success ? parsed.data : CategoryQuerySchema.parse({});
  const { list, facets, filtersActive } = await categoryListing(category.id, query, parseOptionChoice(searchParams), paging);
  const info = pageInfoOf(paging, list.total);
  return data(
    { category, items: await storefront.cards(list.rows), info, query, facets, filtersActive, invalid: !parsed.success },
    { status: parsed.success ? 200 : 400 },
  );
}

export default function CategoryPage() {
  const { category, items, info, query, facets, filtersActive, invalid } = useLoaderData<typeof loader>();
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
        <ListControls query={query} facets={facets} filtersActive={filtersActive} invalid={invalid} />
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
