// A product's variants as the CSV file carries them, for the export and the import's check: its
// options (with their values' slugs) and each variant's SKU, figures, measures and version.
import type { Db } from "~/lib/db.server";
import { variantsOfItems } from "./variants.server";

export interface VariantFields {
  price: number;
  stock: number;
  active: boolean;
  weightGrams: number | null;
  lengthCm: number | null;
  widthCm: number | null;
  heightCm: number | null;
}

export interface CurrentVariant extends VariantFields {
  id: number;
  sku: string;
  version: number;
  /** its values' slugs, in option order */
  valueSlugs: string[];
  label: string;
  /** its values, in option order */
  values: string[];
}
export interface CurrentProduct {
  options: { name: string; slug: string; values: string[] }[];
  variants: CurrentVariant[];
}

/** These products' options (value slugs) and variants with every field the file carries. */
export async function loadVariants(db: Db, itemIds: number[]): Promise<Map<number, CurrentProduct>> {
  const result = new Map<number, CurrentProduct>();
  for (let i = 0; i < itemIds.length; i += 500) {
    const chunk = itemIds.slice(i, i + 500);
    const [sold, rows] = await Promise.all([
      variantsOfItems(db, chunk),
      db.selectFrom("productVariants").selectAll().where("itemId", "in", chunk).execute(),
    ]);
    const row = new Map(rows.map((r) => [r.id, r]));
    for (const [id, product] of sold) {
      const slugOf = new Map(product.options.flatMap((o) => o.values.map((v) => [v.id, v.slug] as const)));
      result.set(id, {
        options: product.options.map((o) => ({ name: o.name, slug: o.slug, values: o.values.map((v) => v.slug) })),
        variants: product.variants.map((v) => {
          const r = row.get(v.id)!;
          return {
            id: v.id,
            sku: v.sku,
            version: r.version,
            valueSlugs: v.valueIds.map((id) => slugOf.get(id)!),
            label: v.label,
            values: product.options.map((o) => v.options[o.name] ?? ""),
            price: r.price,
            stock: r.stock,
            active: r.active === 1,
            weightGrams: r.weightGrams,
            lengthCm: r.lengthCm,
            widthCm: r.widthCm,
            heightCm: r.heightCm,
          };
        }),
      });
    }
  }
  return result;
}
