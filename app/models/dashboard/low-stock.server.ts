// Low stock is per variant: every variant on sale with LOW_STOCK units or fewer, of a piece that is
// not made to order (the dashboard's chart and count; the admin products list's "2 variants low").
// The variants on sale are read by their stock through a partial index (migration 0035).
import type { Db } from "~/lib/db.server";
import { variantLabels } from "~/models/catalogue/variants.server";
import { LOW_STOCK } from "~/utils/dashboard";

export interface LowVariant {
  /** the product's id, title and slug */
  id: number;
  title: string;
  slug: string;
  variantId: number;
  sku: string;
  /** 'Velvet, 3-seater'; '' for a piece sold as one */
  label: string;
  stock: number;
}

/** The variants on sale at or under LOW_STOCK, with their product (made-to-order pieces aside). */
export function lowVariants(db: Db) {
  return db
    .selectFrom("productVariants as pv")
    .innerJoin("items", "items.id", "pv.itemId")
    .where("pv.active", "=", 1)
    .where("pv.stock", "<=", LOW_STOCK)
    .where("items.madeToOrder", "=", 0);
}

/** The rows with each variant's label. */
export async function withVariantLabels(db: Db, rows: Omit<LowVariant, "label">[]): Promise<LowVariant[]> {
  const labels = await variantLabels(
    db,
    rows.map((r) => r.variantId),
  );
  return rows.map((r) => ({ ...r, label: labels.get(r.variantId) ?? "" }));
}
