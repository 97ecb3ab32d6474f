// The id of the request that queued a mail (the X-Request-Id its answer carried), so that a
// customer's mail, the outbox row and the server's log lines of that request can be read together.
// Null for mails queued outside a request (the worker, housekeeping, scripts) and for every mail
// queued before this migration. Portable across SQLite and PostgreSQL. Frozen once landed.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("mail_outbox").addColumn("request_id", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("mail_outbox").dropColumn("request_id").execute();
}
