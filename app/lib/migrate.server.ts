import { Migrator, sql } from "kysely";
import type { Kysely, Migration } from "kysely";
import { migrations } from "../../db/migrations";
import type { DB } from "./db-schema";
import { StartupError } from "./env.server";

/** The names of the migrations the database has applied (none before the first migration). */
async function appliedMigrations(db: Kysely<DB>): Promise<string[]> {
  try {
    const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    return rows.map((r) => r.name);
  } catch (error) {
    // A database that never ran a migration has no table yet; anything else (unreachable) is raised.
    if (/kysely_migration|no such table|does not exist/i.test(error instanceof Error ? error.message : "")) return [];
    throw error;
  }
}

/**
 * Migrations the database ran that this code does not know: a newer version ran them. This one
 * would not know its tables, so it refuses to start rather than serve on a schema it cannot read.
 */
export async function unknownMigrations(db: Kysely<DB>, known: Record<string, unknown> = migrations): Promise<string[]> {
  return (await appliedMigrations(db)).filter((name) => !(name in known)).sort();
}

/**
 * Applies every pending migration (without the camelCase plugin: migrations speak SQL names).
 * Servers starting together run each migration once: Kysely's Migrator takes a lock around the
 * run (on PostgreSQL a session advisory lock, pg_advisory_lock, then reads what has run), so the
 * second server waits and finds nothing left to do (tests/integration/startup.test.ts).
 */
export async function migrateToLatest(db: Kysely<DB>, known: Record<string, Migration> = migrations) {
  await refuseNewer(db, known);
  const migrator = new Migrator({
    db: db.withoutPlugins() as unknown as Kysely<unknown>,
    provider: { getMigrations: async () => known },
    // Two features may land migrations in either order (0009 landed after 0010 had run on some
    // databases): a pending earlier one still runs. Each migration stands alone.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error");
    throw new Error(`Migration ${failed?.migrationName ?? ""} failed: ${String(error)}`);
  }
  // Checked again after the run: a newer version may have migrated while this server waited for the
  // lock (the first check ran outside it).
  await refuseNewer(db, known);
  return results ?? [];
}

async function refuseNewer(db: Kysely<DB>, known: Record<string, unknown>) {
  const newer = await unknownMigrations(db, known);
  if (newer.length) {
    throw new StartupError(
      `the database has migrations this version does not know: ${newer.join(", ")}; ` +
        "deploy the newer version (or a version that has them) on every server, or restore a backup taken before they ran",
    );
  }
}

// Once every migration of this code has run, none can become pending again in this process.
let allApplied = false;

/** The migrations of this code the database has not run yet (GET /readyz). */
export async function pendingMigrations(db: Kysely<DB>): Promise<string[]> {
  if (allApplied) {
    await sql`select 1`.execute(db);
    return [];
  }
  const applied = new Set(await appliedMigrations(db));
  const pending = Object.keys(migrations).filter((name) => !applied.has(name));
  allApplied = pending.length === 0;
  return pending;
}
