// Indexes for paging a category of 100,000 products (issue 14, ADR 0013): a category's page in
// its default order (`category_id`, then `id`) and by price (`category_id`, `price`, `id`: the id
// breaks ties, so PostgreSQL needs no sort step either). The second replaces the initial
// schema's (`category_id`, `price`), which it covers. Portable across SQLite and PostgreSQL.
// Frozen once landed.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("items_category_id_id_idx").on("items").columns(["category_id", "id"]).execute();
  await db.schema.createIndex("items_category_id_price_id_idx").on("items").columns(["category_id", "price", "id"]).execute();
  await db.schema.dropIndex("items_category_id_price_idx").ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("items_category_id_price_idx").on("items").columns(["category_id", "price"]).execute();
  await db.schema.dropIndex("items_category_id_price_id_idx").ifExists().execute();
  await db.schema.dropIndex("items_category_id_id_idx").ifExists().execute();
}
