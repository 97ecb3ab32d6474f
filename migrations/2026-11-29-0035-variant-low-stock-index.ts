// Low stock is per variant (the dashboard's chart and count, the admin products list): an index of
// the variants on sale by their stock, so "every variant on sale with 5 units or fewer" reads the
// few low ones rather than every variant (about 250,000 with the large catalogue). Partial (only
// active variants), on both databases. Frozen once landed.
import type { Kysely } from "kysely";
import { sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("product_variants_active_stock_idx")
    .on("product_variants")
    .columns(["stock", "id"])
    .where(sql.ref("active"), "=", 1)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("product_variants_active_stock_idx").ifExists().execute();
}
