// Settings: one row per key. The first is `seeded`, written when a database's first start
// decided its catalogue (the demo catalogue, or none), so a later start never seeds again,
// even when the staff deleted every category (issue 12). A database that already holds
// categories or products was seeded before this record existed: it gets the row here.
// Portable across SQLite and PostgreSQL. Frozen once landed.
import type { Kysely } from "kysely";
import { sql } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("settings")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await sql`insert into settings (key, value, updated_at)
    select 'seeded', 'existing', cast(${new Date().toISOString()} as text)
    where exists (select 1 from categories) or exists (select 1 from items)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("settings").ifExists().execute();
}
