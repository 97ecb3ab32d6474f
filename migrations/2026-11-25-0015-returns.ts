// Returns (issue 13, item 4; ADR 0012): a customer asks to return some or all units of a
// delivered order within 48 hours of delivery; the staff approve or reject; an approved return
// becomes `returned` when the goods arrive, which puts them back in stock and starts the refund.
// `return_requests` is the return and its state, `return_lines` the order lines and units it
// covers, `return_events` its timeline (kept apart from order_events: an order's last event is
// its status). Portable across SQLite and PostgreSQL. Frozen once landed.
import type { CreateTableBuilder, Kysely } from "kysely";
import { PostgresAdapter, sql } from "kysely";

function withId(db: Kysely<unknown>, table: CreateTableBuilder<string, string>) {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? table.addColumn("id", "serial", (c) => c.primaryKey())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
}

const STATUSES = sql`status in ('requested', 'approved', 'rejected', 'returned')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("return_requests"))
    .addColumn("order_id", "integer", (c) => c.notNull().references("orders.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("status", "text", (c) => c.notNull().check(STATUSES))
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("details", "text", (c) => c.notNull())
    .addColumn("staff_note", "text")
    .addColumn("refund_amount", "integer", (c) => c.notNull().check(sql`refund_amount >= 0`))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("return_requests_order_id_idx").on("return_requests").column("order_id").execute();
  // The staff's queue: returns by state, oldest first.
  await db.schema.createIndex("return_requests_status_id_idx").on("return_requests").columns(["status", "id"]).execute();

  await db.schema
    .createTable("return_lines")
    .addColumn("return_id", "integer", (c) => c.notNull().references("return_requests.id").onDelete("cascade"))
    .addColumn("order_item_id", "integer", (c) => c.notNull().references("order_items.id").onDelete("cascade"))
    .addColumn("quantity", "integer", (c) => c.notNull().check(sql`quantity >= 1`))
    .addPrimaryKeyConstraint("return_lines_pkey", ["return_id", "order_item_id"])
    .execute();
  await db.schema.createIndex("return_lines_order_item_id_idx").on("return_lines").column("order_item_id").execute();

  await withId(db, db.schema.createTable("return_events"))
    .addColumn("return_id", "integer", (c) => c.notNull().references("return_requests.id").onDelete("cascade"))
    .addColumn("from_status", "text")
    .addColumn("to_status", "text", (c) => c.notNull())
    .addColumn("actor", "text", (c) => c.notNull().check(sql`actor in ('customer', 'admin', 'system')`))
    .addColumn("actor_user_id", "integer", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("note", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("return_events_return_id_idx").on("return_events").column("return_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("return_events").ifExists().execute();
  await db.schema.dropTable("return_lines").ifExists().execute();
  await db.schema.dropTable("return_requests").ifExists().execute();
}
