// The audit page's lists in their own order (models/audit-read.server): a kind of object alone
// (every order, every staff change) is read newest first from (entity, id), where migration 0030's
// (entity, entity_id, id) would sort all rows of that kind for one page; a range of days alone is
// read from (created_at, id) in the index's order, which replaces the plain created_at index of the
// initial schema (on SQLite the two are the same, an index ending in the row id; on PostgreSQL the
// plain one left ties in time to be sorted). Portable across SQLite and PostgreSQL. Frozen once landed.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("audit_log_entity_id_order_idx").on("audit_log").columns(["entity", "id"]).execute();
  await db.schema.createIndex("audit_log_created_at_id_idx").on("audit_log").columns(["created_at", "id"]).execute();
  await db.schema.dropIndex("audit_log_created_at_idx").ifExists().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex("audit_log_created_at_idx").on("audit_log").column("created_at").execute();
  await db.schema.dropIndex("audit_log_created_at_id_idx").ifExists().execute();
  await db.schema.dropIndex("audit_log_entity_id_order_idx").ifExists().execute();
}
