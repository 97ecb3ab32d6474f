// Refunds (issue 13, item 3; ADR 0012): one row per refund the shop owes or made, of one payment
// (`payment_id`, of its payment order), for an order or for a payment that never became one. The
// shop's key (`idempotency_key`: `cancel:{orderId}`, `unplaced:{paymentOrderId}`, `twice:{paymentId}`,
// `return:{returnId}`) makes queueing it idempotent; `gateway_key` is what Razorpay's
// X-Refund-Idempotency header carries (a new one only when the staff retry a failed refund).
// `sending_until` is the lease of one sender at a time. Money in whole rupees, as everywhere.
// Portable across SQLite and PostgreSQL. Frozen once landed.
import type { Kysely } from "kysely";
import { PostgresAdapter, sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  const table = db.schema.createTable("refunds");
  await (
    db.getExecutor().adapter instanceof PostgresAdapter
      ? table.addColumn("id", "serial", (c) => c.primaryKey())
      : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
  )
    .addColumn("payment_order_id", "text", (c) => c.notNull().references("payment_orders.id"))
    .addColumn("payment_id", "text", (c) => c.notNull())
    .addColumn("order_id", "integer", (c) => c.references("orders.id"))
    .addColumn("amount", "integer", (c) => c.notNull().check(sql`amount > 0`))
    .addColumn("reason", "text", (c) => c.notNull().check(sql`reason in ('unplaced', 'cancelled', 'returned')`))
    .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
    .addColumn("gateway_key", "text", (c) => c.notNull().unique())
    .addColumn("status", "text", (c) => c.notNull().check(sql`status in ('pending', 'processed', 'failed')`))
    .addColumn("gateway_refund_id", "text", (c) => c.unique())
    .addColumn("failure_reason", "text")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("sending_until", "text")
    .addColumn("actor", "text", (c) => c.notNull().check(sql`actor in ('customer', 'admin', 'system')`))
    .addColumn("actor_user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("processed_at", "text")
    .execute();
  // An order's refunds (its pages), a payment's (the cap: never more than it took), the queue by state.
  await db.schema.createIndex("refunds_order_id_idx").on("refunds").column("order_id").execute();
  await db.schema.createIndex("refunds_payment_order_id_idx").on("refunds").columns(["payment_order_id", "payment_id"]).execute();
  await db.schema.createIndex("refunds_status_id_idx").on("refunds").columns(["status", "id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("refunds").ifExists().execute();
}
