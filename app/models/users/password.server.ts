// Passwords: the current one checked before a credential changes, a change, and a reset by a link
// mailed to the account. A new password ends every other sign-in.
import type { Db } from "~/lib/db.server";
import { db as defaultDb, expectChanged, isPostgres, nowIso } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { endOtherSignIns } from "~/lib/api-tokens.server";
import { consumeResetToken, endResetTokens, findResetToken, issueResetToken, RESET_INVALID } from "~/lib/one-time-codes.server";
import { hashPassword, verifyPassword } from "~/lib/password.server";
import type { Client } from "~/lib/rate-limit.server";
import { forgiveUserTry, LIMITS, rateLimitClient, rateLimitUser } from "~/lib/rate-limit.server";
import { MESSAGES } from "~/utils/account-schemas";
import { queuePasswordChanged, queuePasswordResetLink } from "./mail.server";
import { findByEmail } from "./users.server";

/**
 * The signed-in customer's current password, asked before a credential or the recovery address
 * changes: wrong ones count against a day's cap per account (counted before the check, given
 * back when right), so a stolen session cannot guess it over days.
 */
export async function checkCurrentPassword(userId: number, password: string, passwordHash: string | null): Promise<void> {
  await rateLimitUser(LIMITS.currentPasswordDay, userId);
  if (!(await verifyPassword(password, passwordHash))) {
    throw new AppError(400, MESSAGES.wrongCurrent, { fieldErrors: { currentPassword: MESSAGES.wrongCurrent } });
  }
  await forgiveUserTry(LIMITS.currentPasswordDay, userId);
}

/**
 * Change the password after checking the current one. Every other device and API token is
 * signed out and reset links still out stop working; the session `keepSessionId` (the one
 * asking) stays.
 */
export async function changePassword(
  userId: number,
  input: { currentPassword: string; newPassword: string },
  keepSessionId: string | undefined,
  db: Db = defaultDb,
): Promise<void> {
  await rateLimitUser(LIMITS.changePassword, userId);
  const user = await db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirst();
  if (!user) throw new AppError(401, "Please log in to continue");
  await checkCurrentPassword(userId, input.currentPassword, user.passwordHash);
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction().execute(async (trx) => {
    const result = await trx.updateTable("users").set({ passwordHash, updatedAt: nowIso() }).where("id", "=", userId).executeTakeFirst();
    expectChanged(result, () => new AppError(401, "Please log in to continue"));
    await endOtherSignIns(trx, userId, keepSessionId);
    await endResetTokens(trx, user.email);
    await queuePasswordChanged(trx, user.email, user.name);
  });
}

/**
 * Mail a single-use reset link when the email has an account. The answer is the same, and as
 * fast, either way (the mail goes out in the background), so the form never tells who has an
 * account. `origin` must come from configuration, never from the request's headers.
 */
export async function requestPasswordReset(email: string, origin: string, client: Client, db: Db = defaultDb): Promise<void> {
  await rateLimitClient(LIMITS.passwordReset, client, email);
  const user = await findByEmail(email, db);
  if (!user) return;
  await db.transaction().execute(async (trx) => {
    // The account's row locked first (PostgreSQL; SQLite has one writer): two requests at once
    // would each keep the same older links and each add one, past LIVE_RESET_LINKS.
    const locked = trx.selectFrom("users").select("id").where("id", "=", user.id);
    if (!(await (isPostgres(trx) ? locked.forUpdate() : locked).executeTakeFirst())) return;
    const token = await issueResetToken(trx, user.email);
    await queuePasswordResetLink(trx, user.email, user.name, `${origin}/reset-password?token=${encodeURIComponent(token)}`);
  });
}

/** Whether a reset link's token still works (the page offers the form only then). */
export async function resetTokenIsLive(token: string, db: Db = defaultDb): Promise<boolean> {
  return token !== "" && (await findResetToken(db, token)) !== null;
}

/**
 * Set a new password with a reset token: the token is used up, and every session and API
 * token of the account ends. The token is checked before the (costly) hash is computed.
 */
export async function resetPassword(token: string, password: string, client: Client, db: Db = defaultDb): Promise<void> {
  const live = await findResetToken(db, token);
  // A dead token costs nothing to refuse; a live one is limited before the costly hash.
  if (!live) throw new AppError(400, RESET_INVALID);
  await rateLimitClient(LIMITS.resetSubmit, client, `token:${live.id}`);
  const passwordHash = await hashPassword(password, client.ip);
  await db.transaction().execute(async (trx) => {
    const email = await consumeResetToken(trx, token);
    // The other links still out end with it: a password set is the end of the reset.
    await endResetTokens(trx, email);
    const user = await findByEmail(email, trx);
    if (!user) throw new AppError(400, RESET_INVALID);
    await trx.updateTable("users").set({ passwordHash, updatedAt: nowIso() }).where("id", "=", user.id).execute();
    await endOtherSignIns(trx, user.id);
    await queuePasswordChanged(trx, user.email, user.name);
  });
}
