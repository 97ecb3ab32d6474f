import { Migrator } from "kysely";
import type { Kysely } from "kysely";
import { migrations } from "../../db/migrations";
import type { DB } from "./db-schema";

/** Applies every pending migration (without the camelCase plugin: migrations speak SQL names). */
export async function migrateToLatest(db: Kysely<DB>) {
  const migrator = new Migrator({
    db: db.withoutPlugins() as unknown as Kysely<unknown>,
    provider: { getMigrations: async () => migrations },
    // Two features may land migrations in either order (0009 landed after 0010 had run on some
    // databases): a pending earlier one still runs. Each migration stands alone.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === "Error");
    throw new Error(`Migration ${failed?.migrationName ?? ""} failed: ${String(error)}`);
  }
  return results ?? [];
}
