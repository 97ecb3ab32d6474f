// Coupon uses held by payment orders (issue 17, part 2; the security review of the coupons, ADR 0019):
// one row per payment order priced with a coupon, made in the payment order's transaction under the
// coupon's row, until when it holds the use (`expires_at`, the payment order's stock hold time) and
// `paid_at` once its payment was verified while the hold was live (it then holds until its order or
// its refund). Live rows count against the coupon's total and per-customer limits with the counted
// uses; a row goes when its payment order becomes an order (the use is counted), fails or is
// refunded, and with the payment order, the coupon or the customer. Portable across SQLite and
// PostgreSQL. Frozen once landed.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("coupon_holds")
    .addColumn("payment_order_id", "text", (c) => c.primaryKey().references("payment_orders.id").onDelete("cascade"))
    .addColumn("coupon_id", "integer", (c) => c.notNull().references("coupons.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("paid_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  // A coupon's holds (all, or one customer's), read under the coupon's row when a use is held or counted.
  await db.schema.createIndex("coupon_holds_coupon_user_idx").on("coupon_holds").columns(["coupon_id", "user_id"]).execute();
  await db.schema.createIndex("coupon_holds_expires_at_idx").on("coupon_holds").column("expires_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("coupon_holds").ifExists().execute();
}
