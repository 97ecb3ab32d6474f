// Initial schema for the whole product. Frozen once landed: never edit, add a new migration.
// Portable across SQLite and PostgreSQL: integer money, ISO-8601 text timestamps, 0/1 flags.
import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely } from "kysely";
import { PostgresAdapter, sql } from "kysely";

type AnyTable = CreateTableBuilder<string, string>;

function isPostgres(db: Kysely<unknown>) {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

function withId(db: Kysely<unknown>, table: AnyTable): AnyTable {
  return isPostgres(db)
    ? table.addColumn("id", "serial", (c) => c.primaryKey())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
}

const required = (c: ColumnDefinitionBuilder) => c.notNull();

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("users"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("mobile", "text")
    .addColumn("password_hash", "text")
    .addColumn("email_verified_at", "text")
    .addColumn("created_at", "text", required)
    .addColumn("updated_at", "text", required)
    .execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("data", "text", (c) => c.notNull())
    .addColumn("created_at", "text", required)
    .addColumn("last_seen_at", "text", required)
    .addColumn("expires_at", "text", required)
    .execute();
  await db.schema.createIndex("sessions_user_id_idx").on("sessions").column("user_id").execute();
  await db.schema.createIndex("sessions_expires_at_idx").on("sessions").column("expires_at").execute();

  await withId(db, db.schema.createTable("api_tokens"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", required)
    .addColumn("expires_at", "text", required)
    .addColumn("revoked_at", "text")
    .execute();
  await db.schema.createIndex("api_tokens_user_id_idx").on("api_tokens").column("user_id").execute();

  await withId(db, db.schema.createTable("one_time_codes"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("purpose", "text", (c) => c.notNull().check(sql`purpose in ('signup', 'password_reset')`))
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("expires_at", "text", required)
    .addColumn("used_at", "text")
    .addColumn("created_at", "text", required)
    .execute();
  await db.schema.createIndex("one_time_codes_email_purpose_idx").on("one_time_codes").columns(["email", "purpose"]).execute();

  await db.schema
    .createTable("rate_limits")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("count", "integer", (c) => c.notNull())
    .addColumn("reset_at", "text", required)
    .execute();

  await withId(db, db.schema.createTable("categories"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("img_path", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", required)
    .addColumn("updated_at", "text", required)
    .execute();
  await db.schema.createIndex("categories_position_idx").on("categories").columns(["position", "id"]).execute();

  await withId(db, db.schema.createTable("items"))
    .addColumn("category_id", "integer", (c) => c.notNull().references("categories.id").onDelete("restrict"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("price", "integer", (c) => c.notNull().check(sql`price >= 0`))
    .addColumn("img_path", "text", (c) => c.notNull())
    .addColumn("featured", "integer", (c) => c.notNull().defaultTo(0).check(sql`featured in (0, 1)`))
    .addColumn("stock", "integer", (c) => c.notNull().defaultTo(0).check(sql`stock >= 0`))
    .addColumn("specifications", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("created_at", "text", required)
    .addColumn("updated_at", "text", required)
    .execute();
  await db.schema.createIndex("items_category_id_price_idx").on("items").columns(["category_id", "price"]).execute();
  await db.schema.createIndex("items_featured_idx").on("items").columns(["featured", "id"]).execute();

  await db.schema
    .createTable("carts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.unique().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", required)
    .addColumn("updated_at", "text", required)
    .execute();

  await withId(db, db.schema.createTable("cart_lines"))
    .addColumn("cart_id", "text", (c) => c.notNull().references("carts.id").onDelete("cascade"))
    .addColumn("item_id", "integer", (c) => c.notNull().references("items.id").onDelete("cascade"))
    .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity between 1 and 99`))
    .addColumn("created_at", "text", required)
    .addUniqueConstraint("cart_lines_cart_item_unique", ["cart_id", "item_id"])
    .execute();
  await db.schema.createIndex("cart_lines_item_id_idx").on("cart_lines").column("item_id").execute();

  await db.schema
    .createTable("payment_orders")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("amount_paise", "integer", (c) => c.notNull().check(sql`amount_paise > 0`))
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("payment_id", "text", (c) => c.unique())
    .addColumn("created_at", "text", required)
    .addColumn("updated_at", "text", required)
    .execute();

  await withId(db, db.schema.createTable("orders"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("restrict"))
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('processing', 'shipped', 'delivered', 'cancelled')`),
    )
    .addColumn("payment_method", "text", (c) => c.notNull().check(sql`payment_method in ('cod', 'online')`))
    .addColumn("payment_order_id", "text", (c) => c.unique().references("payment_orders.id"))
    .addColumn("payment_id", "text", (c) => c.unique())
    .addColumn("idempotency_key", "text", (c) => c.unique())
    .addColumn("subtotal", "integer", (c) => c.notNull())
    .addColumn("shipping", "integer", (c) => c.notNull())
    .addColumn("gst", "integer", (c) => c.notNull())
    .addColumn("total", "integer", (c) => c.notNull())
    .addColumn("ship_name", "text", (c) => c.notNull())
    .addColumn("ship_address", "text", (c) => c.notNull())
    .addColumn("ship_city", "text", (c) => c.notNull())
    .addColumn("ship_state", "text", (c) => c.notNull())
    .addColumn("ship_pincode", "text", (c) => c.notNull())
    .addColumn("ship_phone", "text", (c) => c.notNull())
    .addColumn("ship_email", "text", (c) => c.notNull())
    .addColumn("created_at", "text", required)
    .addColumn("updated_at", "text", required)
    .execute();
  await db.schema.createIndex("orders_user_id_created_at_idx").on("orders").columns(["user_id", "created_at"]).execute();
  await db.schema.createIndex("orders_status_idx").on("orders").column("status").execute();
  await db.schema.createIndex("orders_created_at_idx").on("orders").column("created_at").execute();

  await withId(db, db.schema.createTable("order_items"))
    .addColumn("order_id", "integer", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("item_id", "integer", (c) => c.references("items.id").onDelete("set null"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("slug", "text", (c) => c.notNull())
    .addColumn("img_path", "text", (c) => c.notNull())
    .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity >= 1`))
    .addColumn("unit_price", "integer", (c) => c.notNull().check(sql`unit_price >= 0`))
    .execute();
  await db.schema.createIndex("order_items_order_id_idx").on("order_items").column("order_id").execute();

  await withId(db, db.schema.createTable("order_events"))
    .addColumn("order_id", "integer", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("from_status", "text")
    .addColumn("to_status", "text", (c) => c.notNull())
    .addColumn("actor", "text", (c) => c.notNull().check(sql`actor in ('customer', 'admin', 'system')`))
    .addColumn("actor_user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", required)
    .execute();
  await db.schema.createIndex("order_events_order_id_idx").on("order_events").column("order_id").execute();

  await withId(db, db.schema.createTable("newsletter_subscribers"))
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", required)
    .execute();

  await withId(db, db.schema.createTable("contact_messages"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("phone", "text")
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull())
    .addColumn("created_at", "text", required)
    .execute();
  await db.schema.createIndex("contact_messages_created_at_idx").on("contact_messages").column("created_at").execute();

  await withId(db, db.schema.createTable("audit_log"))
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("entity", "text", (c) => c.notNull())
    .addColumn("entity_id", "text")
    .addColumn("summary", "text", (c) => c.notNull())
    .addColumn("created_at", "text", required)
    .execute();
  await db.schema.createIndex("audit_log_created_at_idx").on("audit_log").column("created_at").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    "audit_log", "contact_messages", "newsletter_subscribers", "order_events", "order_items", "orders",
    "payment_orders", "cart_lines", "carts", "items", "categories", "rate_limits", "one_time_codes",
    "api_tokens", "sessions", "users",
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
