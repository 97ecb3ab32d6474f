// Staff accounts (docs/decisions/0033): the back-office's people, apart from the shop's customers.
//   staff: one row per person, with a role (app/utils/staff-permissions.ts) and their own password
//     (scrypt, the customers' rules); null until an invitation is accepted. `active` 0 is a
//     disabled account: refused at once on every server (requests read the row). Two-step sign-in:
//     `totp_secret` (base32, set once confirmed) and `totp_last_step`, the time step of the last code
//     accepted, so no code is ever accepted twice; `two_step_required` asks it of this account.
//   staff_tokens: mailed links (an invitation, a password reset), stored as SHA-256 of the token,
//     single use (`used_at`), with an end.
//   staff_recovery_codes: the ten single-use codes shown once when two-step is set up, hashed.
//   sessions.staff_id: the staff member a session is signed in as, so that disabling an account
//     or 'Sign out everywhere' deletes its sessions in one statement; null for every other session.
//   audit_log: who made each change (`staff_id`, null for the built-in owner of ADMIN_PASSWORD and
//     the shop's own jobs, and `actor`, the name and role as they were then) and what changed
//     (`details`, JSON of { field: [before, after] }), with indexes for the audit page's filters.
// Portable across SQLite and PostgreSQL. Frozen once landed.
import type { CreateTableBuilder, Kysely } from "kysely";
import { PostgresAdapter, sql } from "kysely";

function withId(db: Kysely<unknown>, table: CreateTableBuilder<string, string>) {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? table.addColumn("id", "serial", (c) => c.primaryKey())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await withId(db, db.schema.createTable("staff"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("role", "text", (c) => c.notNull().check(sql`role in ('owner', 'manager', 'fulfilment', 'support')`))
    .addColumn("password_hash", "text")
    .addColumn("active", "integer", (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`active in (0, 1)`),
    )
    .addColumn("two_step_required", "integer", (c) =>
      c
        .notNull()
        .defaultTo(0)
        .check(sql`two_step_required in (0, 1)`),
    )
    .addColumn("totp_secret", "text")
    .addColumn("totp_last_step", "integer")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("last_sign_in_at", "text")
    .addColumn("disabled_at", "text")
    .execute();

  await withId(db, db.schema.createTable("staff_tokens"))
    .addColumn("staff_id", "integer", (c) => c.notNull().references("staff.id").onDelete("cascade"))
    .addColumn("purpose", "text", (c) => c.notNull().check(sql`purpose in ('invite', 'reset')`))
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema.createIndex("staff_tokens_staff_idx").on("staff_tokens").columns(["staff_id", "purpose"]).execute();

  await withId(db, db.schema.createTable("staff_recovery_codes"))
    .addColumn("staff_id", "integer", (c) => c.notNull().references("staff.id").onDelete("cascade"))
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema.createIndex("staff_recovery_codes_staff_idx").on("staff_recovery_codes").column("staff_id").execute();

  await db.schema.alterTable("sessions").addColumn("staff_id", "integer").execute();
  await db.schema.createIndex("sessions_staff_id_idx").on("sessions").column("staff_id").execute();

  await db.schema.alterTable("audit_log").addColumn("staff_id", "integer").execute();
  await db.schema.alterTable("audit_log").addColumn("actor", "text").execute();
  await db.schema.alterTable("audit_log").addColumn("details", "text").execute();
  await db.schema.createIndex("audit_log_staff_idx").on("audit_log").columns(["staff_id", "id"]).execute();
  await db.schema.createIndex("audit_log_entity_idx").on("audit_log").columns(["entity", "entity_id", "id"]).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex("audit_log_entity_idx").ifExists().execute();
  await db.schema.dropIndex("audit_log_staff_idx").ifExists().execute();
  await db.schema.alterTable("audit_log").dropColumn("details").execute();
  await db.schema.alterTable("audit_log").dropColumn("actor").execute();
  await db.schema.alterTable("audit_log").dropColumn("staff_id").execute();
  await db.schema.dropIndex("sessions_staff_id_idx").ifExists().execute();
  await db.schema.alterTable("sessions").dropColumn("staff_id").execute();
  await db.schema.dropTable("staff_recovery_codes").ifExists().execute();
  await db.schema.dropTable("staff_tokens").ifExists().execute();
  await db.schema.dropTable("staff").ifExists().execute();
}
