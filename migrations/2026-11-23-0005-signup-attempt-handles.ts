// Sign-up attempt handles: an API client names its sign-up by `handle` (base64url of 16 random
// bytes, unique), never by the row's sequential id, which any client could count up to. Attempts
// made before this migration have no handle: they simply end (the customer registers again).
// Password-reset rows keep a null handle. Frozen once landed.
import type { Kysely } from "kysely";
import { sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`delete from one_time_codes where purpose = 'signup'`.execute(db);
  await db.schema.alterTable("one_time_codes").addColumn("handle", "text").execute();
  // Unique, but several nulls allowed (SQLite and PostgreSQL alike): reset rows have none.
  await db.schema.createIndex("one_time_codes_handle_idx").on("one_time_codes").column("handle").unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("one_time_codes_handle_idx").execute();
  await db.schema.alterTable("one_time_codes").dropColumn("handle").execute();
}
