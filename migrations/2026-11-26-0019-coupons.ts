// Coupons (issue 17, part 2; docs/decisions: the money rule for discounts).
// `coupons` is a code the staff made (a percentage or a fixed amount of rupees, with a minimum
// subtotal, a cap, a validity window, a total and a per-customer limit, optionally limited to
// categories: `limited` with its `coupon_categories`), `uses` its live count, raised by a
// conditional update in the order's transaction and lowered when the order is cancelled;
// `coupon_uses` the order that used it (one per order), for the per-customer limit and the
// cancellation. The applied code lives on the cart row; an order keeps its code and discount, each
// line its share of it (partial returns refund what was paid); a payment order keeps the rule
// it was priced with (JSON), so a paid payment becomes an order at the price paid. Money in whole
// rupees. Portable across SQLite and PostgreSQL. Frozen once landed.
import type { CreateTableBuilder, Kysely } from "kysely";
import { PostgresAdapter, sql } from "kysely";

function withId(db: Kysely<unknown>, table: CreateTableBuilder<string, string>) {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? table.addColumn("id", "serial", (c) => c.primaryKey())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("coupons"))
    .addColumn("code", "text", (c) => c.notNull().unique())
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('percent', 'fixed')`))
    .addColumn("value", "integer", (c) => c.notNull().check(sql`value > 0`))
    .addColumn("min_subtotal", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`min_subtotal >= 0`),
    )
    .addColumn("max_discount", "integer", (c) => c.check(sql`max_discount > 0`))
    .addColumn("valid_from", "text")
    .addColumn("valid_until", "text")
    .addColumn("usage_limit", "integer", (c) => c.check(sql`usage_limit > 0`))
    .addColumn("per_customer_limit", "integer", (c) => c.check(sql`per_customer_limit > 0`))
    .addColumn("uses", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`uses >= 0`),
    )
    .addColumn("paused", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("limited", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("coupon_categories")
    .addColumn("coupon_id", "integer", (c) => c.notNull().references("coupons.id").onDelete("cascade"))
    .addColumn("category_id", "integer", (c) => c.notNull().references("categories.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("coupon_categories_pkey", ["coupon_id", "category_id"])
    .execute();
  await db.schema.createIndex("coupon_categories_category_id_idx").on("coupon_categories").column("category_id").execute();

  await withId(db, db.schema.createTable("coupon_uses"))
    .addColumn("coupon_id", "integer", (c) => c.notNull().references("coupons.id").onDelete("cascade"))
    .addColumn("order_id", "integer", (c) => c.notNull().unique().references("orders.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("coupon_uses_coupon_user_idx").on("coupon_uses").columns(["coupon_id", "user_id"]).execute();

  await db.schema.alterTable("carts").addColumn("coupon_code", "text").execute();
  await db.schema
    .alterTable("orders")
    .addColumn("discount", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("orders").addColumn("coupon_code", "text").execute();
  await db.schema
    .alterTable("order_items")
    .addColumn("discount", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("payment_orders").addColumn("coupon", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("payment_orders").dropColumn("coupon").execute();
  await db.schema.alterTable("order_items").dropColumn("discount").execute();
  await db.schema.alterTable("orders").dropColumn("coupon_code").execute();
  await db.schema.alterTable("orders").dropColumn("discount").execute();
  await db.schema.alterTable("carts").dropColumn("coupon_code").execute();
  await db.schema.dropTable("coupon_uses").ifExists().execute();
  await db.schema.dropTable("coupon_categories").ifExists().execute();
  await db.schema.dropTable("coupons").ifExists().execute();
}
