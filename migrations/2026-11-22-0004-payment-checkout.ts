// Online payments: a payment order remembers the checkout it pays for (the shipping details,
// as JSON), so the order can still be placed when only the
// Razorpay webhook reports the payment (the customer closed the tab). `failure` keeps why a
// paid payment order could not become an order (for the shop to refund). Frozen once landed.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("payment_orders").addColumn("checkout", "text").execute();
  await db.schema.alterTable("payment_orders").addColumn("failure", "text").execute();
  await db.schema.createIndex("payment_orders_user_id_idx").on("payment_orders").column("user_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("payment_orders_user_id_idx").execute();
  await db.schema.alterTable("payment_orders").dropColumn("failure").execute();
  await db.schema.alterTable("payment_orders").dropColumn("checkout").execute();
}
