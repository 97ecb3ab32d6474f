// Product photos (docs/decisions/0035): several photos per product, each resized once when it is
// uploaded (app/lib/photos.server.ts) into renditions kept in the image store beside the original.
//   product_photos: one row per photo of a product (`item_id`, deleted with the product), in the
//     order the staff set (`position`, 1 first), with its alt text, the stored name of the original
//     (`{32 hex}.{jpg|png|webp}`, metadata stripped, upright), its width and height after
//     orientation, and `rendition_base`, the 32 hex every rendition's name starts with
//     (`{base}-{width}.avif` and `.webp`, widths 160 to 1440 no wider than the original).
//   variant_id: the variant a photo shows (a colour, a size), null for the product as a whole; a
//     photo of a variant that is deleted stays, as the product's.
// The first index reads a product's photos in order; the second serves the variants' foreign key.
// Portable across SQLite and PostgreSQL. Frozen once landed.
import type { CreateTableBuilder, Kysely } from "kysely";
import { PostgresAdapter, sql } from "kysely";

function withId(db: Kysely<unknown>, table: CreateTableBuilder<string, string>) {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? table.addColumn("id", "serial", (c) => c.primaryKey())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("product_photos"))
    .addColumn("item_id", "integer", (c) => c.notNull().references("items.id").onDelete("cascade"))
    .addColumn("variant_id", "integer", (c) => c.references("product_variants.id").onDelete("set null"))
    .addColumn("position", "integer", (c) => c.notNull().check(sql`position >= 1`))
    .addColumn("alt", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("original_name", "text", (c) => c.notNull().unique())
    .addColumn("width", "integer", (c) => c.notNull().check(sql`width >= 1`))
    .addColumn("height", "integer", (c) => c.notNull().check(sql`height >= 1`))
    .addColumn("rendition_base", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("product_photos_item_position_idx").on("product_photos").columns(["item_id", "position", "id"]).execute();
  await db.schema.createIndex("product_photos_variant_idx").on("product_photos").column("variant_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("product_photos_variant_idx").ifExists().execute();
  await db.schema.dropIndex("product_photos_item_position_idx").ifExists().execute();
  await db.schema.dropTable("product_photos").ifExists().execute();
}
