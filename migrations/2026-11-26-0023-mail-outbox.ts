// The mail outbox and the leases (issue 15, item 2). `mail_outbox` holds every mail the shop sends,
// written in the transaction of the change that causes it and sent afterwards by a worker: `status`
// pending -> sending (claimed by a worker until `claimed_until`) -> sent, or back to pending with
// `next_attempt_at` pushed out (backoff), or failed (a permanent refusal, or too many attempts;
// `last_error` says why, never a secret). `leases` names a job that must run in one process at a
// time across every server (housekeeping): who holds it and until when. Portable across SQLite and
// PostgreSQL. Frozen once landed.
import type { CreateTableBuilder, Kysely } from "kysely";
import { PostgresAdapter } from "kysely";

function withId(db: Kysely<unknown>, table: CreateTableBuilder<string, string>) {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? table.addColumn("id", "serial", (c) => c.primaryKey())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("mail_outbox"))
    .addColumn("recipient", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("html", "text")
    .addColumn("reply_to", "text")
    // pending | sending | sent | failed
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("claimed_by", "text")
    .addColumn("claimed_until", "text")
    .addColumn("last_error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("sent_at", "text")
    .execute();
  // The worker's claim: the due rows of a status, oldest first (pending by next_attempt_at, sending by its lease).
  await db.schema.createIndex("mail_outbox_status_next_idx").on("mail_outbox").columns(["status", "next_attempt_at"]).execute();
  await db.schema
    .createTable("leases")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("holder", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("leases").ifExists().execute();
  await db.schema.dropTable("mail_outbox").ifExists().execute();
}
