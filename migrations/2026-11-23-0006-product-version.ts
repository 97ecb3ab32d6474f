// Products get a version: a counter that every write to the row bumps (an admin edit, a CSV
// import, an order taking units, a cancellation returning them). An edit carries the version it
// was made from and is refused when the row has moved on, so staff never write back a stock
// figure that customers have changed since. Frozen once landed.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("items")
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("items").dropColumn("version").execute();
}
