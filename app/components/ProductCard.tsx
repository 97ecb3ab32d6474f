import { useLocation } from "@remix-run/react";
import { Link } from "./Link";
import type { ReactNode } from "react";
import type { CardItem } from "~/utils/catalogue";
import { CART_ACTION } from "~/utils/cart";
import { formatPrice } from "~/utils/money";
import { HIGH_PRIORITY } from "~/utils/images";
import { CartIcon } from "./icons";
import { RatingBadge } from "./ReviewStars";
import { useCartFetcher, useFirstAddInFlight } from "~/hooks/useCartFetcher";

const CARD =
  "group relative flex flex-col overflow-hidden rounded-2xl border border-sand-200 bg-white shadow-sm transition hover:shadow-md";
const ADD_BUTTON = [
  "flex h-11 w-11 items-center justify-center rounded-full bg-wood-600 text-white shadow transition",
  "hover:bg-wood-700 disabled:cursor-not-allowed disabled:bg-stone-300",
].join(" ");

/** A card's line of its first option's values: "Fabric: Jute Blend · Suede · Velvet" (three at most, then "+2"). */
function VariantValues({ option, values }: { option: string; values: string[] }) {
  const shown = values.slice(0, 3);
  return (
    <p className="mt-2 flex flex-wrap items-center gap-1 text-xs text-stone-600" data-testid="card-variants">
      <span className="sr-only">{option}:</span>
      {shown.map((value) => (
        <span key={value} className="rounded-full border border-sand-300 px-2 py-0.5">
          {value}
        </span>
      ))}
      {values.length > shown.length ? <span>+{values.length - shown.length}</span> : null}
    </p>
  );
}

export function ProductCard({ item, eager = false, actions }: { item: CardItem; eager?: boolean; actions?: ReactNode }) {
  const location = useLocation();
  const { fetcher, onSubmit } = useCartFetcher(`add-card-${item.id}`);
  const waiting = useFirstAddInFlight();
  const busy = fetcher.state !== "idle" || waiting;
  const error = fetcher.data && !fetcher.data.ok ? fetcher.data.formError : null;
  return (
    <article className={CARD} data-testid="product-card">
      <Link to={`/product/${item.slug}`} className="flex flex-1 flex-col" prefetch="intent">
        <div className="relative aspect-[4/3] overflow-hidden bg-sand-100">
          <img
            src={item.imgPath}
            alt={item.title}
            width={800}
            height={600}
            loading={eager ? "eager" : "lazy"}
            // The first cards hold a list page's LCP image (ADR 0016): fetched ahead of scripts.
            {...(eager ? HIGH_PRIORITY : {})}
            decoding="async"
            className="h-full w-full object-cover transition duration-500 group-hover:scale-[1.03]"
          />
          {item.featured ? (
            <span className="absolute left-3 top-3 rounded-full bg-wood-600 px-3 py-1 text-xs font-semibold text-white">Featured</span>
          ) : null}
          {!item.inStock ? (
            <div className="absolute inset-0 flex items-center justify-center bg-white/60">
              <span className="rounded-full bg-ink px-4 py-1.5 text-sm font-semibold text-white">Out of Stock</span>
            </div>
          ) : null}
        </div>
        <div className="flex flex-1 flex-col p-4 pr-16">
          <h3 className="font-sans text-base font-semibold leading-snug text-ink">{item.title}</h3>
          <p className="mt-1 text-sm text-stone-600">{item.summary}</p>
          <RatingBadge average={item.averageRating} count={item.reviewCount} className="mt-2" />
          {item.variants ? <VariantValues option={item.variants.option} values={item.variants.values} /> : null}
          <p className="mt-auto pt-3 text-lg font-semibold text-wood-700">
            {item.variants?.from ? <span className="text-sm font-medium text-stone-600">From </span> : null}
            <span>{formatPrice(item.price)}</span>
          </p>
        </div>
      </Link>
      {item.variants ? (
        // A piece sold in several variants is chosen on its page first.
        <Link
          to={`/product/${item.slug}`}
          aria-label={`Choose the ${item.variants.option.toLowerCase()} of ${item.title}`}
          className={`absolute bottom-4 right-4 ${ADD_BUTTON}`}
        >
          <CartIcon className="h-5 w-5" />
        </Link>
      ) : (
        <fetcher.Form method="post" action={CART_ACTION} onSubmit={onSubmit} className="absolute bottom-4 right-4">
          <input type="hidden" name="intent" value="add" />
          <input type="hidden" name="itemId" value={item.id} />
          <input type="hidden" name="quantity" value="1" />
          <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
          <button type="submit" aria-label={`Add ${item.title} to cart`} disabled={!item.inStock || busy} className={ADD_BUTTON}>
            <CartIcon className="h-5 w-5" />
          </button>
        </fetcher.Form>
      )}
      {error ? (
        <p role="alert" className="px-4 pb-3 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      {actions ? <div className="border-t border-sand-200 px-4 py-2">{actions}</div> : null}
    </article>
  );
}

export function ProductGrid({
  items,
  eagerFirst = 0,
  renderActions,
}: {
  items: CardItem[];
  eagerFirst?: number;
  renderActions?: (item: CardItem) => ReactNode;
}) {
  return (
    <div className="grid grid-cols-1 gap-5 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4">
      {items.map((item, i) => (
        <ProductCard key={item.id} item={item} eager={i < eagerFirst} actions={renderActions?.(item)} />
      ))}
    </div>
  );
}

/** Placeholder cards while a product list loads. */
export function ProductGridSkeleton({ count = 8 }: { count?: number }) {
  return (
    <div className="grid grid-cols-1 gap-5 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-4" aria-hidden="true" data-testid="product-skeleton">
      {Array.from({ length: count }, (_, i) => (
        <div key={i} className="animate-pulse overflow-hidden rounded-2xl border border-sand-200 bg-white">
          <div className="aspect-[4/3] bg-sand-100" />
          <div className="space-y-3 p-4">
            <div className="h-4 w-3/4 rounded bg-sand-100" />
            <div className="h-3 w-full rounded bg-sand-100" />
            <div className="h-5 w-1/3 rounded bg-sand-100" />
          </div>
        </div>
      ))}
    </div>
  );
}
