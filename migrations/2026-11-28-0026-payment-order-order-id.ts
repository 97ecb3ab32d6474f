// A payment order records the order it became, on its own row (`order_id`), written in the order's
// own transaction. Every decision that a payment order "never became an order" (its full refund,
// its failure) and every placement of an order for it is then taken under the payment order's
// locked row, from that row's columns, never from the absence of a row in `orders`, which a
// transaction still inserting it cannot show (ADR 0012). Existing payment orders get the order
// that names them. Portable across SQLite and PostgreSQL. Frozen once landed.
import type { Kysely } from "kysely";
import { sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("payment_orders")
    .addColumn("order_id", "integer", (c) => c.references("orders.id"))
    .execute();
  await sql`update payment_orders set order_id = (select orders.id from orders where orders.payment_order_id = payment_orders.id)`.execute(
    db,
  );
  await db.schema.createIndex("payment_orders_order_id_key").unique().on("payment_orders").column("order_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("payment_orders_order_id_key").execute();
  await db.schema.alterTable("payment_orders").dropColumn("order_id").execute();
}
