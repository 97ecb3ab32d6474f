// A mail's "discard after" time (issue 15's security review, M8): a mail carrying a one-time code or
// a reset link is worth nothing once that code or link has expired. The worker fails such a mail
// instead of sending it late, and clears its body. Null for every other mail (and every mail queued
// before this migration). Portable across SQLite and PostgreSQL. Frozen once landed.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("mail_outbox").addColumn("discard_after", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("mail_outbox").dropColumn("discard_after").execute();
}
