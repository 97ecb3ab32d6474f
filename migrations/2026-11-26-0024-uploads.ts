// Uploaded product and category images in the database (issue 15): with several app servers on one
// PostgreSQL, an image uploaded through one must be served by every one, so the bytes live here
// instead of on a server's disk (app/lib/image-store.server.ts; the disk store stays the default for a
// single SQLite server). One row per upload, keyed by its random name (`{32 hex}.{jpg|png|webp}`,
// never reused), with its content type, bytes (BLOB on SQLite, bytea on PostgreSQL), size, strong
// ETag (the sha256 of the bytes) and when it was stored. Portable across SQLite and PostgreSQL.
// Frozen once landed.
import type { Kysely } from "kysely";
import { PostgresAdapter } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  const bytes = db.getExecutor().adapter instanceof PostgresAdapter ? "bytea" : "blob";
  await db.schema
    .createTable("uploads")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("bytes", bytes, (c) => c.notNull())
    .addColumn("size", "integer", (c) => c.notNull())
    .addColumn("etag", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("uploads").ifExists().execute();
}
