// Indexes for lists that scale (issue 14, item 4; docs/decisions/0014): every storefront and
// admin list filters and sorts on an index, and no page reads more rows than it shows, plus a
// count (tests/integration/query-plans.test.ts checks each query's plan on both databases).
//   items (category_id, stock, id): a category's availability filter. Out of stock is an equality,
//     so its pages come in id order straight from the index; both counts read the index alone
//     (the in-stock count of a 20,000-product category read every row: 49-195 ms on SQLite).
//   items (category_id, featured, id): a category's featured filter, in id order, however many are featured.
//   orders (created_at, id): the admin's order list, newest first, and its date range, with the id
//     breaking ties (PostgreSQL then needs no sort step). It replaces the initial schema's (created_at).
//   orders (status, created_at, id) and (payment_method, created_at, id): the same list filtered
//     by status or payment method. The first replaces the initial schema's (status), which it
//     covers (the dashboard's count per status reads it alone).
// Portable across SQLite and PostgreSQL. Frozen once landed.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("items_category_id_stock_id_idx").on("items").columns(["category_id", "stock", "id"]).execute();
  await db.schema.createIndex("items_category_id_featured_id_idx").on("items").columns(["category_id", "featured", "id"]).execute();
  await db.schema.createIndex("orders_created_at_id_idx").on("orders").columns(["created_at", "id"]).execute();
  await db.schema.createIndex("orders_status_created_at_id_idx").on("orders").columns(["status", "created_at", "id"]).execute();
  await db.schema
    .createIndex("orders_payment_method_created_at_id_idx")
    .on("orders")
    .columns(["payment_method", "created_at", "id"])
    .execute();
  await db.schema.dropIndex("orders_status_idx").ifExists().execute();
  await db.schema.dropIndex("orders_created_at_idx").ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("orders_created_at_idx").on("orders").column("created_at").execute();
  await db.schema.createIndex("orders_status_idx").on("orders").column("status").execute();
  await db.schema.dropIndex("orders_payment_method_created_at_id_idx").ifExists().execute();
  await db.schema.dropIndex("orders_status_created_at_id_idx").ifExists().execute();
  await db.schema.dropIndex("orders_created_at_id_idx").ifExists().execute();
  await db.schema.dropIndex("items_category_id_featured_id_idx").ifExists().execute();
  await db.schema.dropIndex("items_category_id_stock_id_idx").ifExists().execute();
}
