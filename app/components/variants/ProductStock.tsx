// The admin products list's stock cell: the units of the variants on sale in all, how many
// variants the product is sold in, and how many of those on sale are low ("2 variants low"), each
// in words as well as colour.
import { LOW_STOCK } from "~/utils/dashboard";

export function ProductStock({ stock, inStock, variants, low }: { stock: number; inStock: boolean; variants: number; low: number }) {
  return (
    <div className="flex flex-col items-start gap-1">
      {inStock ? (
        <span data-testid="product-stock">{stock}</span>
      ) : (
        <span className="whitespace-nowrap rounded-full bg-red-50 px-2 py-0.5 text-xs font-semibold text-red-700">Out of Stock</span>
      )}
      {variants > 1 ? <span className="text-xs text-stone-500">{variants} variants</span> : null}
      {low > 0 && (variants > 1 || inStock) ? (
        <span
          className="whitespace-nowrap rounded-full bg-yellow-50 px-2 py-0.5 text-xs font-semibold text-yellow-800"
          title={`${LOW_STOCK} units or fewer`}
          data-testid="low-variants"
        >
          {variants > 1 ? `${low} variant${low === 1 ? "" : "s"} low` : "Low"}
        </span>
      ) : null}
    </div>
  );
}
