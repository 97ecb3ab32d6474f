// Sign-up attempts: a registration waits in one_time_codes (its name, mobile and password hash
// in `payload`) until its emailed code is verified, and only then becomes a users row. So a
// second registration of the same email cannot change the first one. Frozen once landed.
import type { Kysely } from "kysely";

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("one_time_codes").addColumn("payload", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("one_time_codes").dropColumn("payload").execute();
}
