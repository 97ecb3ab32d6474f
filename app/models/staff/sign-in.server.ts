// Staff sign-in's first step (docs/decisions/0033): an email and a password checked against the
// staff table (never the customers'), one answer for every failure, and the staff member's own
// password change. The second step (the code) is ./two-step.server's; writing the session is
// web/sign-in.server's.
import type { Db } from "~/lib/db.server";
import { db as defaultDb, expectChanged, isPostgres } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { hashPassword, needsRehash, verifyPassword } from "~/lib/password.server";
import type { Client } from "~/lib/rate-limit.server";
import { forgiveTry, forgiveUserTry, LIMITS, rateLimitClient, rateLimitUser } from "~/lib/rate-limit.server";
import { MESSAGES, PASSWORD_MAX } from "~/utils/account-schemas";
import type { Staff } from "./staff.server";
import { STAFF_COLUMNS, toStaff } from "./staff.server";

/** The one answer to a wrong email, a wrong password, a disabled account and an invitation not yet accepted. */
export const INVALID_STAFF_LOGIN = "Invalid email or password";

export const STAFF_WRONG_CURRENT = MESSAGES.wrongCurrent;

/** A staff password that was right: the account, and the hash it was checked against. */
export interface VerifiedStaff {
  staff: Staff;
  passwordHash: string;
}

/**
 * Check a staff email and password. Every failure answers 401 INVALID_STAFF_LOGIN after the same
 * scrypt work (an unknown email is hashed against nothing, as verifyPassword does), so neither the
 * answer nor its time tells which emails are staff, which are disabled, or which invitations are
 * still open. Tries are counted per email and per address before the check and a right password
 * is given back, so only failures count and a stranger's guesses from elsewhere never lock the
 * staff member out (rate-limit.server's rateLimitClient).
 */
export async function verifyStaffPassword(email: string, password: string, client: Client, db: Db = defaultDb): Promise<VerifiedStaff> {
  const address = email.trim().toLowerCase();
  if (!address || !password || password.length > PASSWORD_MAX || address.length > 254) {
    throw new AppError(401, INVALID_STAFF_LOGIN);
  }
  await rateLimitClient(LIMITS.staffLogin, client, address);
  const row = await db
    .selectFrom("staff")
    .select([...STAFF_COLUMNS, "passwordHash"])
    .where("email", "=", address)
    .executeTakeFirst();
  const ok = await verifyPassword(password, row?.passwordHash ?? null, client.ip);
  if (!row || !row.passwordHash || !ok || row.active !== 1) throw new AppError(401, INVALID_STAFF_LOGIN);
  await forgiveTry(LIMITS.staffLogin, client, address, { reset: true });
  let passwordHash = row.passwordHash;
  if (needsRehash(passwordHash)) {
    const rehashed = await hashPassword(password, client.ip);
    const result = await db
      .updateTable("staff")
      .set({ passwordHash: rehashed })
      .where("id", "=", row.id)
      .where("passwordHash", "=", passwordHash)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) passwordHash = rehashed;
  }
  return { staff: toStaff(row), passwordHash };
}

/**
 * Inside the transaction that writes a staff sign-in's session: the account's row (locked FOR
 * SHARE on PostgreSQL; SQLite has one writer) must still be active and, when `passwordHash` is
 * given, still hold the password the sign-in was checked against. A disabling or a password
 * change made meanwhile refuses the sign-in (401), as it would be refused now.
 */
export async function assertStaffCurrent(trx: Db, staffId: number, passwordHash: string | null): Promise<void> {
  const query = trx.selectFrom("staff").select(["active", "passwordHash"]).where("id", "=", staffId);
  const row = await (isPostgres(trx) ? query.forShare() : query).executeTakeFirst();
  if (!row || row.active !== 1 || !row.passwordHash) throw new AppError(401, INVALID_STAFF_LOGIN);
  if (passwordHash !== null && row.passwordHash !== passwordHash) throw new AppError(401, INVALID_STAFF_LOGIN);
}

/**
 * A signed-in staff member's current password, asked before they change their password or turn
 * two-step sign-in off or renew its recovery codes: wrong ones count per account (counted before
 * the check, a right one given back), so a stolen session cannot guess the password behind it.
 * The hash it was checked against.
 */
export async function checkStaffPassword(staffId: number, password: unknown, db: Db = defaultDb): Promise<string> {
  const typed = typeof password === "string" ? password : "";
  if (!typed) throw new AppError(400, MESSAGES.wrongCurrent, { fieldErrors: { currentPassword: "Enter your current password" } });
  if (typed.length > PASSWORD_MAX)
    throw new AppError(400, MESSAGES.passwordLong, { fieldErrors: { currentPassword: MESSAGES.passwordLong } });
  await rateLimitUser(LIMITS.staffPassword, staffId);
  const row = await db.selectFrom("staff").select(["passwordHash", "active"]).where("id", "=", staffId).executeTakeFirst();
  if (!row?.passwordHash || row.active !== 1) throw new AppError(401, "Please sign in to continue");
  if (!(await verifyPassword(typed, row.passwordHash))) {
    throw new AppError(400, STAFF_WRONG_CURRENT, { fieldErrors: { currentPassword: STAFF_WRONG_CURRENT } });
  }
  await forgiveUserTry(LIMITS.staffPassword, staffId);
  return row.passwordHash;
}

/**
 * A signed-in staff member changes their own password: the current one first (wrong ones counted
 * per account, a right one given back), then the new hash and the end of every other session of
 * the account, in one transaction. The session `keepSessionId` (the one asking) stays.
 */
export async function changeStaffPassword(
  staffId: number,
  input: { currentPassword: string; newPassword: string },
  keepSessionId: string | undefined,
  db: Db = defaultDb,
): Promise<void> {
  const current = await checkStaffPassword(staffId, input.currentPassword, db);
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("staff")
      .set({ passwordHash })
      .where("id", "=", staffId)
      .where("passwordHash", "=", current)
      .executeTakeFirst();
    expectChanged(result, () => new AppError(409, "Your password was changed meanwhile. Please sign in again."));
    let others = trx.deleteFrom("sessions").where("staffId", "=", staffId);
    if (keepSessionId) others = others.where("id", "!=", keepSessionId);
    await others.execute();
  });
}
