// Wishlists: a visitor's saved products, kept like the cart (a row the session points at;
// joined to the account at login by later work). Frozen once landed.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("wishlists")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "integer", (c) => c.unique().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("wishlist_items")
    .addColumn("wishlist_id", "text", (c) => c.notNull().references("wishlists.id").onDelete("cascade"))
    .addColumn("item_id", "integer", (c) => c.notNull().references("items.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("wishlist_items_pk", ["wishlist_id", "item_id"])
    .execute();
  await db.schema.createIndex("wishlist_items_item_id_idx").on("wishlist_items").column("item_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("wishlist_items").ifExists().execute();
  await db.schema.dropTable("wishlists").ifExists().execute();
}
