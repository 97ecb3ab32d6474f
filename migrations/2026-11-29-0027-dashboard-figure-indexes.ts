// Indexes for the dashboard's figures (docs/decisions/0030): each figure reads one index range
// and never the table's rows (tests/integration/query-plans.test.ts checks each plan on both
// databases; `npm run bench -- --orders 1000000` times them).
//   orders (the order's calendar day in India, status, payment_method, total, discount,
//     coupon_code): revenue and orders per day, by status, by payment method and by coupon over
//     the last 30 or 90 days, grouped in the index's order. The day is an expression of
//     created_at (ISO UTC text): SQLite's `date(created_at, '+330 minutes')`; on PostgreSQL the
//     function shop_ist_day, which does the same (India keeps UTC+05:30, no daylight saving).
//     Both databases read an expression index alone only when the expression's column is in
//     it, so created_at ends the index.
//   order_items (order_id, item_id, quantity, unit_price, discount): a line's sale read from the
//     index by its order (top products and categories). It replaces (order_id), which it covers.
//   items (made_to_order, stock, id): the pieces low in stock, fewest first, and their count.
//   refunds (created_at, status, amount), return_requests (created_at, status, refund_amount):
//     returns and refunds asked for in the range.
// Frozen once landed.
import type { Kysely } from "kysely";
import { PostgresAdapter, sql } from "kysely";

function isPostgres(db: Kysely<unknown>) {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) {
    // Immutable: created_at is always an ISO instant with its zone (Z), read the same under any setting.
    await sql`create function shop_ist_day(at text) returns text language sql immutable parallel safe as
      $$ select to_char((at::timestamptz at time zone 'UTC') + interval '330 minutes', 'YYYY-MM-DD') $$`.execute(db);
    await sql`create index orders_ist_day_figures_idx on orders
      (shop_ist_day(created_at), status, payment_method, total, discount, coupon_code, created_at)`.execute(db);
  } else {
    await sql`create index orders_ist_day_figures_idx on orders
      (date(created_at, '+330 minutes'), status, payment_method, total, discount, coupon_code, created_at)`.execute(db);
  }
  await db.schema
    .createIndex("order_items_order_id_sale_idx")
    .on("order_items")
    .columns(["order_id", "item_id", "quantity", "unit_price", "discount"])
    .execute();
  await db.schema.dropIndex("order_items_order_id_idx").ifExists().execute();
  await db.schema.createIndex("items_made_to_order_stock_id_idx").on("items").columns(["made_to_order", "stock", "id"]).execute();
  await db.schema.createIndex("refunds_created_at_figures_idx").on("refunds").columns(["created_at", "status", "amount"]).execute();
  await db.schema
    .createIndex("return_requests_created_at_figures_idx")
    .on("return_requests")
    .columns(["created_at", "status", "refund_amount"])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("return_requests_created_at_figures_idx").ifExists().execute();
  await db.schema.dropIndex("refunds_created_at_figures_idx").ifExists().execute();
  await db.schema.dropIndex("items_made_to_order_stock_id_idx").ifExists().execute();
  await db.schema.createIndex("order_items_order_id_idx").on("order_items").column("order_id").execute();
  await db.schema.dropIndex("order_items_order_id_sale_idx").ifExists().execute();
  await db.schema.dropIndex("orders_ist_day_figures_idx").ifExists().execute();
  if (isPostgres(db)) await sql`drop function if exists shop_ist_day(text)`.execute(db);
}
