// Email changes wait for a code (issue 12, defect 3): a one_time_codes row of the new purpose
// `email_change` holds the code mailed to the new address, and `user_id` names the account that
// asked (deleted with it). The purpose's check constraint is widened: PostgreSQL replaces it in
// place; SQLite cannot alter a constraint, so the table is rebuilt with the same columns, ids and
// indexes, in one transaction. Down ends the changes waiting and restores the old shape.
// Portable across SQLite and PostgreSQL. Frozen once landed.
import type { Kysely } from "kysely";
import { PostgresAdapter, sql } from "kysely";

function isPostgres(db: Kysely<unknown>) {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

const OLD_PURPOSES = sql`purpose in ('signup', 'password_reset')`;
const NEW_PURPOSES = sql`purpose in ('signup', 'password_reset', 'email_change')`;

/** SQLite: the table again with `purposes` as its check, with or without user_id; rows, ids and indexes kept. */
async function rebuildSqlite(db: Kysely<unknown>, purposes: typeof OLD_PURPOSES, withUserId: boolean) {
  await db.transaction().execute(async (trx) => {
    let table = trx.schema
      .createTable("one_time_codes_next")
      .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("purpose", "text", (c) => c.notNull().check(purposes))
      .addColumn("code_hash", "text", (c) => c.notNull())
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("expires_at", "text", (c) => c.notNull())
      .addColumn("used_at", "text")
      .addColumn("created_at", "text", (c) => c.notNull())
      .addColumn("payload", "text")
      .addColumn("handle", "text");
    if (withUserId) table = table.addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("cascade"));
    await table.execute();
    const columns = sql.raw("id, email, purpose, code_hash, attempts, expires_at, used_at, created_at, payload, handle");
    await sql`insert into one_time_codes_next (${columns}) select ${columns} from one_time_codes`.execute(trx);
    // Ids are never reused (a reset link names its row): the new table counts on from the old one's high mark.
    await sql`delete from sqlite_sequence where name = 'one_time_codes_next'`.execute(trx);
    await sql`insert into sqlite_sequence (name, seq)
      select 'one_time_codes_next', seq from sqlite_sequence where name = 'one_time_codes'`.execute(trx);
    await sql`drop table one_time_codes`.execute(trx);
    await sql`alter table one_time_codes_next rename to one_time_codes`.execute(trx);
    await trx.schema.createIndex("one_time_codes_email_purpose_idx").on("one_time_codes").columns(["email", "purpose"]).execute();
    await trx.schema.createIndex("one_time_codes_handle_idx").on("one_time_codes").column("handle").unique().execute();
    if (withUserId) await trx.schema.createIndex("one_time_codes_user_id_idx").on("one_time_codes").column("user_id").execute();
  });
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) return rebuildSqlite(db, NEW_PURPOSES, true);
  await sql`alter table one_time_codes drop constraint one_time_codes_purpose_check`.execute(db);
  await sql`alter table one_time_codes add constraint one_time_codes_purpose_check check (${NEW_PURPOSES})`.execute(db);
  await db.schema
    .alterTable("one_time_codes")
    .addColumn("user_id", "integer", (c) => c.references("users.id").onDelete("cascade"))
    .execute();
  await db.schema.createIndex("one_time_codes_user_id_idx").on("one_time_codes").column("user_id").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from one_time_codes where purpose = 'email_change'`.execute(db);
  if (!isPostgres(db)) return rebuildSqlite(db, OLD_PURPOSES, false);
  await db.schema.dropIndex("one_time_codes_user_id_idx").execute();
  await db.schema.alterTable("one_time_codes").dropColumn("user_id").execute();
  await sql`alter table one_time_codes drop constraint one_time_codes_purpose_check`.execute(db);
  await sql`alter table one_time_codes add constraint one_time_codes_purpose_check check (${OLD_PURPOSES})`.execute(db);
}
