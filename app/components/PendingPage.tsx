import { ProductGridSkeleton } from "./ProductCard";

function Loading({ text }: { text: string }) {
  return (
    <p role="status" className="flex items-center gap-3 text-stone-600">
      <span aria-hidden="true" className="h-4 w-4 animate-spin rounded-full border-2 border-wood-300 border-t-wood-700" />
      {text}
    </p>
  );
}

/** What the lists show while they load (docs/product.md, Screens): their loading text and a skeleton. */
export function PendingPage({ path }: { path: string }) {
  if (path === "/") {
    return (
      <div className="container-page space-y-12 py-12" aria-busy="true">
        <section>
          <h2 className="text-3xl font-semibold">Explore Categories</h2>
          <div className="mt-6">
            <Loading text="Loading categories..." />
          </div>
        </section>
        <section>
          <h2 className="text-3xl font-semibold">Featured Products</h2>
          <div className="mt-6">
            <Loading text="Loading featured products..." />
          </div>
          <div className="mt-6">
            <ProductGridSkeleton count={4} />
          </div>
        </section>
      </div>
    );
  }
  if (path === "/categories") {
    return (
      <div className="container-page py-12" aria-busy="true">
        <h1 className="text-3xl font-semibold sm:text-4xl">Furniture Categories</h1>
        <div className="mt-6">
          <Loading text="Loading categories..." />
        </div>
      </div>
    );
  }
  if (path === "/search") {
    return (
      <div className="container-page py-12" aria-busy="true">
        <Loading text="Searching..." />
        <div className="mt-8">
          <ProductGridSkeleton />
        </div>
      </div>
    );
  }
  if (path.startsWith("/category/")) {
    return (
      <div className="container-page py-12" aria-busy="true">
        <div className="h-9 w-64 animate-pulse rounded bg-sand-200" />
        <div className="mt-8">
          <ProductGridSkeleton />
        </div>
      </div>
    );
  }
  return null;
}
