// Secrets every app server on one database must share (issue 15; app/lib/secrets.server.ts): the
// session key, the one-time-code key and the test gateway's secrets. One row per secret, by name:
// `value` when the server generated it (no variable set: the first server to start inserts it,
// every other reads the same), or only `fingerprint` when it comes from the environment (a one-way
// scrypt of the value, never the value), so a server whose variable differs refuses to start.
// Portable across SQLite and PostgreSQL (SQLite keeps its secrets in files: one server). Frozen once landed.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("shared_secrets")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("value", "text")
    .addColumn("fingerprint", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("shared_secrets").ifExists().execute();
}
