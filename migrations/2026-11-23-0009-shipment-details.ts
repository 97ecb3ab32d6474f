// Shipment details (issue 13, item 5): when the shop marks an order shipped it may record the
// carrier and the tracking number, which the customer sees on the order page and in the
// 'shipped' mail. Both nullable: orders shipped before, and shipments without them, have none.
// Portable across SQLite and PostgreSQL. Frozen once landed.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("orders").addColumn("carrier", "text").execute();
  await db.schema.alterTable("orders").addColumn("tracking_number", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("tracking_number").execute();
  await db.schema.alterTable("orders").dropColumn("carrier").execute();
}
