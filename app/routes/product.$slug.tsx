import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { Link } from "~/components/Link";
import { useEffect, useMemo, useState } from "react";
import { ReturnIcon, ShieldIcon, TruckIcon } from "~/components/service-icons";
import { LaterRegion, onDemand } from "~/components/LaterRegion";
import { notFoundBoundary } from "~/components/NotFoundPage";
import { ProductGrid } from "~/components/ProductCard";
import { QuantityInput } from "~/components/QuantityInput";
import { RatingBadge } from "~/components/ReviewStars";
import { useCartFetcher, useFirstAddInFlight } from "~/hooks/useCartFetcher";
import { currentWishlistId, getUserId } from "~/web/visitor.server";
import { storefront } from "~/models/catalogue/storefront.server";
import { storefrontPhotos } from "~/models/catalogue/photos.server";
import { Gallery } from "~/components/product/Gallery";
import { photosOfVariant, photoView } from "~/utils/photos";
import { variantAvailability } from "~/models/reservations.server";
import { isInWishlist } from "~/models/wishlist.server";
import { deliveryCheck, deliveryInit } from "~/web/delivery.server";
import { reviewsForPage } from "~/web/reviews.server";
import { CART_ACTION } from "~/utils/cart";
import { SlugSchema } from "~/utils/schemas";
import { formatPrice } from "~/utils/money";
import { MAX_PRODUCT_PAGE_QUANTITY } from "~/utils/pricing";
import { breadcrumbJsonLd, privateMeta, productJsonLd, seoMeta, siteUrlFrom } from "~/utils/seo";
import { stockNote } from "~/utils/stock";
import { notFoundPage } from "~/lib/errors.server";
import { sitemapOrigin } from "~/lib/sitemap.server";
import { choiceProblem, chosenValues, pickerOptions, variantOfChoice } from "~/utils/variants";
import { VariantPicker } from "~/components/product/VariantPicker";
import { WishlistButton } from "~/components/product/WishlistButton";

// What few visitors of a product page use, loaded by the browser on demand (components/LaterRegion):
// the reviews and the delivery check, at the visitor's first interaction.
const Reviews = onDemand(import.meta.env.SSR ? (await import("~/components/Reviews")).ReviewsSection : null, () =>
  import("~/components/Reviews").then((m) => m.ReviewsSection),
);
const Delivery = onDemand(import.meta.env.SSR ? (await import("~/components/DeliveryCheck")).DeliveryCheck : null, () =>
  import("~/components/DeliveryCheck").then((m) => m.DeliveryCheck),
);

export const meta: MetaFunction<typeof loader> = ({ data: d, matches }) => {
  if (!d?.item) return privateMeta("Product Not Found | Sagwan Living");
  const siteUrl = siteUrlFrom(matches);
  return seoMeta(siteUrl, {
    title: `${d.item.title} | Sagwan Living`,
    description: d.item.description,
    path: `/product/${d.item.slug}`,
    image: d.item.imgPath,
    type: "product",
    jsonLd: [d.productLd, breadcrumbJsonLd(siteUrl, d.trail)],
  });
};

export async function loader({ params, request }: LoaderFunctionArgs) {
  const slug = SlugSchema.safeParse(params.slug);
  const item = slug.success ? await storefront.itemBySlug(slug.data) : null;
  if (!item) throw notFoundPage("Product Not Found");
  const product = await storefront.variants(item.id);
  if (!product) throw notFoundPage("Product Not Found");
  // The variant the query chooses (?finish=walnut&size=3-seater); a product without options has its one.
  const chosen = chosenValues(product, new URL(request.url).searchParams);
  const variant = variantOfChoice(product, chosen);
  const [category, related, saved, available, reviews, photos] = await Promise.all([
    storefront.categoryById(item.categoryId),
    storefront.related(item.slug),
    currentWishlistId(request).then((id) => isInWishlist(id, item.id)),
    // Stock less what other customers hold while they pay (ADR 0012); none of a variant no longer sold.
    variant?.active ? getUserId(request).then((userId) => variantAvailability(variant, userId)) : 0,
    reviewsForPage(request, item.id),
    storefrontPhotos(item.id),
  ]);
  const delivery = await deliveryCheck(request, item.id);
  return data(
    {
      item,
      // What the page's choice shows: each option's values, which is chosen, which make a variant on sale.
      picker: pickerOptions(product, chosen),
      variant: variant && { id: variant.id, price: variant.price, stock: variant.stock, active: variant.active },
      choice: choiceProblem(product.options, variant, chosen),
      category,
      // The breadcrumb, drawn by the page and told to search engines (the current page last).
      trail: [
        { name: "Home", path: "/" },
        { name: "Categories", path: "/categories" },
        ...(category ? [{ name: category.title, path: `/category/${category.slug}` }] : []),
        { name: item.title, path: `/product/${item.slug}` },
      ],
      related: await storefront.cards(related),
      // Built here, not in meta: its code stays on the server (the page's JavaScript budget, ADR 0016).
      productLd: productJsonLd(sitemapOrigin(request).origin, item, category, product),
      saved,
      available,
      reviews,
      delivery: delivery.check,
      photos: photosOfVariant(photos, variant?.id ?? null).map(photoView),
    },
    deliveryInit(delivery),
  );
}

type Tab = "description" | "specifications";

const TAB = "-mb-px inline-flex min-h-11 items-center border-b-2 px-4 font-semibold";
/** What the shop promises with every piece, beside its price. */
const SERVICES = [
  [TruckIcon, "Free Shipping", "On orders over ₹25,000"],
  [ShieldIcon, "5 Year Warranty", "On frames and joinery"],
  [ReturnIcon, "30-Day Returns", "For damaged or defective items"],
] as const;
const STOCK_BADGE = "mt-4 inline-flex items-center gap-2 rounded-full px-3 py-1 text-sm font-semibold";

export default function ProductPage() {
  const { item, picker, variant, choice, category, trail, related, saved, available, reviews, delivery, photos } =
    useLoaderData<typeof loader>();
  const inStock = available > 0;
  const note = stockNote(available, variant?.stock ?? 0);
  const location = useLocation();
  const tabParam = new URLSearchParams(location.search).get("tab");
  const tab: Tab = tabParam === "specifications" ? "specifications" : "description";
  const [quantity, setQuantity] = useState(1);
  const { fetcher, onSubmit } = useCartFetcher("add-product");
  const waiting = useFirstAddInFlight();
  const busy = fetcher.state !== "idle";
  const error = fetcher.data && !fetcher.data.ok ? fetcher.data.formError : null;

  // The regions below the fold, made again only when their data changes: a region still waiting
  // for the visitor's first interaction (components/LaterRegion) must not be handed a new element
  // by an update of the page's own state (the quantity), which would make React draw it anew.
  const deliveryRegion = useMemo(
    () => (
      <LaterRegion demand={Delivery}>
        <Delivery.Component check={delivery} madeToOrder={item.madeToOrder} />
      </LaterRegion>
    ),
    [delivery, item.madeToOrder],
  );
  const reviewsRegion = useMemo(
    () => (
      <LaterRegion demand={Reviews}>
        <Reviews.Component slug={item.slug} data={reviews.data} viewer={reviews.viewer} />
      </LaterRegion>
    ),
    [item.slug, reviews.data, reviews.viewer],
  );
  const relatedRegion = useMemo(
    () =>
      related.length ? (
        <LaterRegion>
          <section className="container-page py-10">
            <h2 className="text-2xl font-semibold">Related Products</h2>
            <div className="mt-6">
              <ProductGrid items={related} />
            </div>
          </section>
        </LaterRegion>
      ) : null,
    [related],
  );

  // A new product starts again at quantity 1 (and the tab follows the URL, so it resets too).
  useEffect(() => setQuantity(1), [item.slug]);

  const specs = Object.entries(item.specifications);
  const maxQty = Math.max(1, Math.min(MAX_PRODUCT_PAGE_QUANTITY, available));
  const tabLink = (t: Tab, label: string) => (
    <Link
      to={t === "description" ? "?" : `?tab=${t}`}
      replace
      preventScrollReset
      role="tab"
      aria-selected={tab === t}
      id={`tab-${t}`}
      aria-controls={`panel-${t}`}
      className={`${TAB} ${tab === t ? "border-wood-600 text-wood-700" : "border-transparent text-stone-600 hover:text-ink"}`}
    >
      {label}
    </Link>
  );

  return (
    <>
      <div className="container-page pt-6">
        <nav aria-label="Breadcrumb" className="text-sm text-stone-600">
          <ol className="flex flex-wrap items-center gap-1">
            {trail.map((crumb, i) =>
              i < trail.length - 1 ? (
                <li key={crumb.path}>
                  <Link to={crumb.path} className="hover:text-wood-700">
                    {crumb.name}
                  </Link>{" "}
                  /
                </li>
              ) : (
                <li key={crumb.path} aria-current="page" className="font-medium text-ink">
                  {crumb.name}
                </li>
              ),
            )}
          </ol>
        </nav>
        <Link
          to={category ? `/category/${category.slug}` : "/categories"}
          className="mt-3 inline-block text-sm font-medium text-wood-700 hover:underline"
        >
          ← Back to {category ? category.title : "Categories"}
        </Link>
      </div>

      <section className="container-page grid gap-10 py-8 lg:grid-cols-2">
        <Gallery title={item.title} imgPath={item.imgPath} featured={item.featured} photos={photos} />
        <div>
          <h1 className="text-3xl font-semibold sm:text-4xl">{item.title}</h1>
          <RatingBadge average={item.averageRating} count={item.reviewCount} className="mt-2" />
          <p className="mt-4 text-3xl font-semibold text-wood-700" data-testid="product-price">
            {formatPrice(variant?.price ?? item.price)}
          </p>
          <p className="mt-1 text-sm text-stone-500">+ 18% GST, added at checkout</p>
          <p className="mt-4 leading-relaxed text-stone-700">{item.description}</p>
          {picker.length ? <VariantPicker options={picker} /> : null}
          {choice ? (
            <p className="mt-3 text-sm font-semibold text-red-800" data-testid="variant-problem">
              {choice}
            </p>
          ) : null}
          <p className={`${STOCK_BADGE} ${inStock ? "bg-green-50 text-green-800" : "bg-red-50 text-red-800"}`} data-testid="stock">
            <span aria-hidden="true" className={`h-2 w-2 rounded-full ${inStock ? "bg-green-600" : "bg-red-600"}`} />
            {inStock ? "In Stock" : "Out of Stock"}
          </p>
          {note ? (
            <p className="mt-2 text-sm font-semibold text-wood-700" data-testid="stock-left">
              {note}
            </p>
          ) : null}

          <fetcher.Form method="post" action={CART_ACTION} onSubmit={onSubmit} className="mt-6 flex flex-wrap items-center gap-3">
            <input type="hidden" name="intent" value="add" />
            <input type="hidden" name="itemId" value={item.id} />
            {variant && picker.length > 0 ? <input type="hidden" name="variantId" value={variant.id} /> : null}
            <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
            <QuantityInput
              id="product-quantity"
              label="Quantity"
              value={quantity}
              min={1}
              max={maxQty}
              onChange={setQuantity}
              disabled={!inStock}
            />
            <button type="submit" className="btn-primary min-w-40" disabled={!inStock || busy || waiting}>
              {choice && !variant ? "Choose Your Piece" : !inStock ? "Out of Stock" : busy ? "Adding..." : "Add to Cart"}
            </button>
          </fetcher.Form>
          {error ? (
            <p role="alert" className="mt-3 text-sm text-red-700">
              {error}
            </p>
          ) : null}
          <div className="mt-3">
            <WishlistButton itemId={item.id} saved={saved} />
          </div>
          {deliveryRegion}

          <ul className="mt-8 grid gap-3 sm:grid-cols-3">
            {SERVICES.map(([Icon, title, text]) => (
              <li key={title} className="card flex items-start gap-3 p-4">
                <Icon className="h-6 w-6 shrink-0 text-wood-600" />
                <div>
                  <p className="text-sm font-semibold">{title}</p>
                  <p className="text-sm text-stone-600">{text}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section className="container-page py-6">
        <div role="tablist" aria-label="Product information" className="flex border-b border-sand-200">
          {tabLink("description", "Description")}
          {tabLink("specifications", "Specifications")}
        </div>
        <div id={`panel-${tab}`} role="tabpanel" aria-labelledby={`tab-${tab}`} className="py-6">
          {tab === "description" ? (
            <p className="max-w-3xl leading-relaxed text-stone-700">{item.description}</p>
          ) : specs.length ? (
            <table className="w-full max-w-2xl text-left text-sm">
              <tbody className="divide-y divide-sand-200">
                {specs.map(([key, value]) => (
                  <tr key={key}>
                    <th scope="row" className="w-1/3 py-3 pr-4 font-semibold">
                      {key}
                    </th>
                    <td className="py-3 text-stone-700">{value}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          ) : (
            <p className="text-stone-600">No specifications listed.</p>
          )}
        </div>
      </section>

      {reviewsRegion}

      {relatedRegion}
    </>
  );
}

/** An unknown product (or one taken off the shop): its own 404 page inside the shop layout. */
export const ErrorBoundary = notFoundBoundary({
  title: "Product Not Found",
  message: "We couldn't find that product. It may have been moved or is no longer available.",
  to: "/categories",
  linkText: "Browse Categories",
});
