// Stock held while a customer pays (issue 13, item 2; ADR 0012): one row per payment order and
// product, the units it holds and until when. Rows past `expires_at` no longer count and are
// deleted by housekeeping; a payment order's rows go when it fails or becomes an order, and with
// the payment order, its customer or the product. `user_id` is the payment order's customer, so
// "held by others" needs no join. Portable across SQLite and PostgreSQL. Frozen once landed.
import type { Kysely } from "kysely";
import { sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("stock_reservations")
    .addColumn("payment_order_id", "text", (c) => c.notNull().references("payment_orders.id").onDelete("cascade"))
    .addColumn("item_id", "integer", (c) => c.notNull().references("items.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity between 1 and 99`))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("stock_reservations_pkey", ["payment_order_id", "item_id"])
    .execute();
  // What a product has held: live rows by product, their expiry beside it.
  await db.schema
    .createIndex("stock_reservations_item_id_expires_at_idx")
    .on("stock_reservations")
    .columns(["item_id", "expires_at"])
    .execute();
  await db.schema.createIndex("stock_reservations_user_id_idx").on("stock_reservations").column("user_id").execute();
  await db.schema.createIndex("stock_reservations_expires_at_idx").on("stock_reservations").column("expires_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("stock_reservations").ifExists().execute();
}
