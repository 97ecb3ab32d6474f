// Reviews and ratings from real buyers (issue 17, part 3):
// `reviews` holds one review per customer and product (the unique pair makes a double submit an
// edit, never a second review), its rating 1-5, title and text (plain text), whether the staff
// hid it and why, and how many customers found it helpful; `review_votes` holds who marked which
// review helpful (one vote each: the primary key). A product's visible reviews are summed on the
// product itself (`review_count`, `rating_total`), changed in the review's own transaction, so a
// category page of 24 cards reads its ratings with the rows it already reads, never an aggregate
// per card. Portable across SQLite and PostgreSQL. Frozen once landed.
import type { CreateTableBuilder, Kysely } from "kysely";
import { PostgresAdapter, sql } from "kysely";

function withId(db: Kysely<unknown>, table: CreateTableBuilder<string, string>) {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? table.addColumn("id", "serial", (c) => c.primaryKey())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("items")
    .addColumn("review_count", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("items")
    .addColumn("rating_total", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  await withId(db, db.schema.createTable("reviews"))
    .addColumn("item_id", "integer", (c) => c.notNull().references("items.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("rating", "integer", (c) => c.notNull().check(sql`rating between 1 and 5`))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    // 1 while shown; 0 once the staff hid it (with hidden_reason)
    .addColumn("visible", "integer", (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`visible in (0, 1)`),
    )
    .addColumn("hidden_reason", "text")
    .addColumn("helpful_count", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`helpful_count >= 0`),
    )
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("reviews_user_item_key", ["user_id", "item_id"])
    .execute();
  // A product's page of reviews, newest first, and its histogram: the visible ones by id.
  await db.schema.createIndex("reviews_item_visible_id_idx").on("reviews").columns(["item_id", "visible", "id"]).execute();
  // Most helpful first.
  await db.schema
    .createIndex("reviews_item_visible_helpful_idx")
    .on("reviews")
    .columns(["item_id", "visible", "helpful_count", "id"])
    .execute();

  await db.schema
    .createTable("review_votes")
    .addColumn("review_id", "integer", (c) => c.notNull().references("reviews.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("review_votes_pkey", ["review_id", "user_id"])
    .execute();
  await db.schema.createIndex("review_votes_user_id_idx").on("review_votes").column("user_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("review_votes").ifExists().execute();
  await db.schema.dropTable("reviews").ifExists().execute();
  await db.schema.alterTable("items").dropColumn("rating_total").execute();
  await db.schema.alterTable("items").dropColumn("review_count").execute();
}
