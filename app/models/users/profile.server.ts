// The customer's profile: name, email and mobile, and the change of email confirmed with a code
// mailed to the new address. The staff's user form saves through saveUserDetails too.
import type { Db } from "~/lib/db.server";
import { db as defaultDb, expectChanged, isUniqueViolation, nowIso } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import {
  consumeEmailChangeCode,
  EMAIL_CODE_MESSAGES,
  endEmailChanges,
  endResetTokens,
  findEmailChange,
  issueEmailChangeCode,
  renewEmailChangeCode,
} from "~/lib/one-time-codes.server";
import type { Client } from "~/lib/rate-limit.server";
import { LIMITS, rateLimitClient, rateLimitUser, UNKNOWN_CLIENT } from "~/lib/rate-limit.server";
import type { ProfileInput } from "~/utils/account-schemas";
import { MESSAGES } from "~/utils/account-schemas";
import { queueEmailChangeCode, queueEmailChanged } from "./mail.server";
import { checkCurrentPassword } from "./password.server";
import type { User } from "./users.server";
import { findByEmail, getUserById, toUser, userColumns } from "./users.server";

/** A new email for an account that another account uses (409, on the email field). */
const emailInUse = () => new AppError(409, MESSAGES.emailInUse, { fieldErrors: { email: MESSAGES.emailInUse } });
/** The account asking is gone (deleted meanwhile): signed out. */
const signedOut = () => new AppError(401, "Please log in to continue");

export const EMAIL_TAKEN_MEANWHILE =
  "This email address is now used by another account, so your email was not changed. Please choose another one.";

/** What a profile update did: the user as saved, and the email change it started (null when the email stayed). */
export interface ProfileUpdate {
  user: User;
  emailChange: { pendingEmail: string } | null;
}

/**
 * The customer's name, email and mobile. The same email: name and mobile are saved. A new
 * email is a change of the account's recovery address, so a signed-in session is not enough:
 * `currentPassword` must be right (400 on that field otherwise, and nothing is saved), the new
 * address must be free (409), and it becomes the account's only once the 4-digit code mailed to
 * it comes back (confirmEmailChange). Name and mobile are saved meanwhile, with the code, in one
 * transaction; the email stays. Limited per account, so the 409 cannot be used to list who has
 * an account, and the codes mailed per account are limited too.
 */
export async function updateProfile(
  userId: number,
  input: ProfileInput,
  currentPassword: string,
  client: Client = UNKNOWN_CLIENT,
  db: Db = defaultDb,
): Promise<ProfileUpdate> {
  await rateLimitUser(LIMITS.profile, userId);
  const before = await db
    .selectFrom("users")
    .select([...userColumns, "passwordHash"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!before) throw signedOut();
  if (input.email === before.email) return { user: await saveUserDetails(userId, input, { missing: signedOut() }, db), emailChange: null };

  if (!currentPassword) {
    throw new AppError(400, MESSAGES.emailChangeNeedsPassword, { fieldErrors: { currentPassword: MESSAGES.emailChangeNeedsPassword } });
  }
  await checkCurrentPassword(userId, currentPassword, before.passwordHash);
  if (await findByEmail(input.email, db)) throw emailInUse();
  await rateLimitUser(LIMITS.emailCode, userId);
  await rateLimitClient(LIMITS.emailCodeTo, client, input.email);
  await db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable("users")
      .set({ name: input.name, mobile: input.mobile, updatedAt: nowIso() })
      .where("id", "=", userId)
      .executeTakeFirst();
    expectChanged(result, signedOut);
    const code = await issueEmailChangeCode(trx, userId, input.email);
    await queueEmailChangeCode(trx, input.email, code);
  });
  return { user: toUser({ ...before, name: input.name, mobile: input.mobile }), emailChange: { pendingEmail: input.email } };
}

/** The email change the account is waiting to confirm, if any (the profile page shows it). */
export async function pendingEmailChange(userId: number, db: Db = defaultDb): Promise<{ pendingEmail: string } | null> {
  const change = await findEmailChange(db, userId);
  return change ? { pendingEmail: change.email } : null;
}

/**
 * Make the new email the account's with the code mailed to it (the page and the API both).
 * A wrong, expired or used code is a 400 on `code`; an address taken since the change was asked
 * for is a 409, and the email stays. Then reset links for either address end (a link mailed to
 * the old address must not outlive it) and the old address is told. Sessions and API tokens
 * stay: the change was proven with the password and the new address, and signing every device
 * out is what a password change is for (ADR 0006).
 */
export async function confirmEmailChange(userId: number, code: string, client: Client = UNKNOWN_CLIENT, db: Db = defaultDb): Promise<User> {
  await rateLimitUser(LIMITS.emailConfirm, userId);
  await rateLimitUser(LIMITS.emailConfirmDay, userId);
  const waiting = await findEmailChange(db, userId);
  // The tries on one new address count across every account asking for it (emailConfirmToDay).
  if (waiting) await rateLimitClient(LIMITS.emailConfirmToDay, client, waiting.email);
  const before = await db.selectFrom("users").select(userColumns).where("id", "=", userId).executeTakeFirst();
  if (!before) throw signedOut();
  // Checked outside the transaction, so a wrong try stays counted.
  const newEmail = await consumeEmailChangeCode(db, userId, code);
  const takenMeanwhile = () => new AppError(409, EMAIL_TAKEN_MEANWHILE, { fieldErrors: { code: EMAIL_TAKEN_MEANWHILE } });
  try {
    await db.transaction().execute(async (trx) => {
      if (await findByEmail(newEmail, trx)) throw takenMeanwhile();
      const result = await trx
        .updateTable("users")
        .set({ email: newEmail, updatedAt: nowIso() })
        .where("id", "=", userId)
        .executeTakeFirst();
      expectChanged(result, signedOut);
      await endResetTokens(trx, before.email);
      await endResetTokens(trx, newEmail);
      await endEmailChanges(trx, userId);
      await queueEmailChanged(trx, before.email, before.name, newEmail);
    });
  } catch (error) {
    // Another account took the address at the same moment: the unique index decides.
    if (isUniqueViolation(error)) throw takenMeanwhile();
    throw error;
  }
  return toUser({ ...before, email: newEmail });
}

/** Mail a new code for the account's waiting email change (the old code stops working); 400 when none waits. */
export async function resendEmailChangeCode(
  userId: number,
  client: Client = UNKNOWN_CLIENT,
  db: Db = defaultDb,
): Promise<{ pendingEmail: string }> {
  const user = await getUserById(userId, db);
  if (!user) throw signedOut();
  const waiting = await findEmailChange(db, userId);
  if (!waiting) throw new AppError(400, EMAIL_CODE_MESSAGES.none);
  await rateLimitUser(LIMITS.emailCode, userId);
  await rateLimitClient(LIMITS.emailCodeTo, client, waiting.email);
  const renewed = await db.transaction().execute(async (trx) => {
    const renewed = await renewEmailChangeCode(trx, userId);
    if (!renewed) throw new AppError(400, EMAIL_CODE_MESSAGES.none);
    await queueEmailChangeCode(trx, renewed.email, renewed.code);
    return renewed;
  });
  return { pendingEmail: renewed.email };
}

/** Drop the account's waiting email change: its code stops working and the email stays. */
export async function cancelEmailChange(userId: number, db: Db = defaultDb): Promise<void> {
  await endEmailChanges(db, userId);
}

/**
 * Save an account's name, email and mobile (the customer's profile when the email stays, and the
 * admin's user form, where the shop changes an email at once, audited): a taken email is 409;
 * on an email change reset links to either address end, an email change the customer was
 * waiting to confirm ends, and the old address is told. `audit` runs inside the same
 * transaction (the admin's record of the change).
 */
export async function saveUserDetails(
  userId: number,
  input: ProfileInput,
  options: { missing: AppError; audit?: (trx: Db, before: User) => Promise<void> },
  db: Db = defaultDb,
): Promise<User> {
  const before = await db.selectFrom("users").select(userColumns).where("id", "=", userId).executeTakeFirst();
  if (!before) throw options.missing;
  const emailChanges = input.email !== before.email;
  if (emailChanges && (await findByEmail(input.email, db))) throw emailInUse();
  try {
    await db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable("users")
        .set({ name: input.name, email: input.email, mobile: input.mobile, updatedAt: nowIso() })
        .where("id", "=", userId)
        .executeTakeFirst();
      expectChanged(result, () => options.missing);
      if (emailChanges) {
        await endResetTokens(trx, before.email);
        await endResetTokens(trx, input.email);
        await endEmailChanges(trx, userId);
        await queueEmailChanged(trx, before.email, input.name, input.email);
      }
      await options.audit?.(trx, toUser(before));
    });
  } catch (error) {
    // Two accounts racing for the same new email: the unique index decides.
    if (isUniqueViolation(error)) throw emailInUse();
    throw error;
  }
  return toUser({ id: userId, ...input });
}
