// Signing in: the email and password checked (one answer for every failure), and the check that the
// password is still the account's when the session or token is written.
import type { Db } from "~/lib/db.server";
import { db as defaultDb, isPostgres } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { hashPassword, needsRehash, verifyPassword } from "~/lib/password.server";
import type { Client } from "~/lib/rate-limit.server";
import { forgiveTry, LIMITS, rateLimitClient } from "~/lib/rate-limit.server";
import type { LoginInput } from "~/utils/account-schemas";
import { MESSAGES } from "~/utils/account-schemas";
import type { User } from "./users.server";
import { findByEmail, toUser } from "./users.server";

/** A login whose password was right: the account, and the stored hash the password was checked against. */
export interface VerifiedLogin {
  user: User;
  passwordHash: string;
}

/**
 * Check an email and password. One answer for an unknown email and a wrong password (401),
 * taking the same time. A sign-up not yet verified has no account, so it gets the same 401.
 * The session or token the login then makes is written through assertLoginCurrent.
 */
export async function verifyLogin(input: LoginInput, client: Client, db: Db = defaultDb): Promise<VerifiedLogin> {
  // Counted before the check, given back on success: only failures count, and a success starts
  // the email's count again, so a customer who knows the password is never locked out.
  await rateLimitClient(LIMITS.login, client, input.email);
  const user = await findByEmail(input.email, db);
  const ok = await verifyPassword(input.password, user?.passwordHash ?? null, client.ip);
  // Accounts exist only once verified; the check stays as a second line.
  if (!user?.passwordHash || !ok || !user.emailVerifiedAt) throw new AppError(401, MESSAGES.invalidLogin);
  await forgiveTry(LIMITS.login, client, input.email, { reset: true });
  let passwordHash = user.passwordHash;
  if (needsRehash(passwordHash)) {
    const rehashed = await hashPassword(input.password, client.ip);
    // Only over the hash just checked: a password changed meanwhile is not overwritten.
    const result = await db
      .updateTable("users")
      .set({ passwordHash: rehashed })
      .where("id", "=", user.id)
      .where("passwordHash", "=", passwordHash)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) passwordHash = rehashed;
  }
  return { user: toUser(user), passwordHash };
}

/**
 * In the transaction that writes a login's session or API token, before it does: the account's
 * row, locked (FOR SHARE on PostgreSQL; SQLite has one writer), must still hold the hash the
 * password was checked against. A password change or reset updates that row and then ends every
 * other sign-in, so either it waits for this one to commit and ends it too, or this one waits for
 * it and finds the new hash: refused (401) like a wrong password, as it now is. `null`: an account
 * this very request made (a verified sign-up), with no older password to outlive.
 */
export async function assertLoginCurrent(trx: Db, userId: number, passwordHash: string | null): Promise<void> {
  if (passwordHash === null) return;
  const query = trx.selectFrom("users").select("passwordHash").where("id", "=", userId);
  const row = await (isPostgres(trx) ? query.forShare() : query).executeTakeFirst();
  if (row?.passwordHash !== passwordHash) throw new AppError(401, MESSAGES.invalidLogin);
}
