// An account as pages and API answers see it, and the two reads every account action starts from:
// by id (verified accounts only) and by email. Signing up, signing in, the profile and the password
// are the verbs beside this module (signup, login, profile, password); the staff's side is admin.
import type { Selectable } from "kysely";
import type { Db } from "~/lib/db.server";
import { db as defaultDb } from "~/lib/db.server";
import type { DB } from "~/lib/db-schema";

/** A user as pages and API answers show it: never the password hash. */
export interface User {
  id: number;
  name: string;
  email: string;
  mobile: string | null;
}

type UserRow = Selectable<DB["users"]>;

export function toUser(row: Pick<UserRow, "id" | "name" | "email" | "mobile">): User {
  return { id: row.id, name: row.name, email: row.email, mobile: row.mobile ?? null };
}

export const userColumns = ["id", "name", "email", "mobile"] as const;

export async function getUserById(id: number, db: Db = defaultDb): Promise<User | null> {
  const row = await db
    .selectFrom("users")
    .select(userColumns)
    .where("id", "=", id)
    .where("emailVerifiedAt", "is not", null)
    .executeTakeFirst();
  return row ? toUser(row) : null;
}

export function findByEmail(email: string, db: Db) {
  return db.selectFrom("users").selectAll().where("email", "=", email.trim().toLowerCase()).executeTakeFirst();
}
