// Accounts: registration with an emailed code, login, profile, password change and reset.
// Routes and API paths both call these; every rate limit of an account action lives here:
// by client and email (the `client` routes pass, clientOf(request)), or per account.
import type { Selectable } from "kysely";
import { z } from "zod";
import type { Db } from "~/lib/db.server";
import { db as defaultDb, expectChanged, isPostgres, isUniqueViolation, nowIso } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { endOtherSignIns } from "~/lib/identity.server";
import type { AttemptRef } from "~/lib/one-time-codes.server";
import {
  consumeEmailChangeCode,
  consumeResetToken,
  consumeSignupCode,
  EMAIL_CODE_MESSAGES,
  endEmailChanges,
  endResetTokens,
  endSignupAttempts,
  findEmailChange,
  findResetToken,
  issueEmailChangeCode,
  issueResetToken,
  issueSignupCode,
  renewEmailChangeCode,
  renewSignupCode,
  RESET_INVALID,
} from "~/lib/one-time-codes.server";
import { hashPassword, needsRehash, verifyPassword } from "~/lib/password.server";
import type { Client } from "~/lib/rate-limit.server";
import { forgiveTry, forgiveUserTry, LIMITS, rateLimitClient, rateLimitUser, UNKNOWN_CLIENT } from "~/lib/rate-limit.server";
import type { DB } from "~/lib/db-schema";
import type { LoginInput, ProfileInput, RegisterInput } from "~/utils/account-schemas";
import { MESSAGES } from "~/utils/account-schemas";
import {
  queueEmailChangeCode,
  queueEmailChanged,
  queuePasswordChanged,
  queuePasswordResetLink,
  queueSignupCode,
} from "./account-mail.server";

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

const userColumns = ["id", "name", "email", "mobile"] as const;

/** A sign-up for an email that has an account (409, on the email field). */
const emailTaken = () => new AppError(409, MESSAGES.emailTaken, { email: MESSAGES.emailTaken });
/** A new email for an account that another account uses (409, on the email field). */
const emailInUse = () => new AppError(409, MESSAGES.emailInUse, { email: MESSAGES.emailInUse });
/** The account asking is gone (deleted meanwhile): signed out. */
const signedOut = () => new AppError(401, "Please log in to continue");

export const EMAIL_TAKEN_MEANWHILE =
  "This email address is now used by another account, so your email was not changed. Please choose another one.";

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

/** What a sign-up attempt holds until its code is verified. */
const PendingSchema = z.object({ name: z.string(), mobile: z.string().nullable(), passwordHash: z.string() });

export interface SignupAttempt {
  /** the attempt's handle (128 random bits): what the browser's session or an API client keeps */
  attemptId: string;
  /** the details as typed; there is no users row (and no id) until the code is verified */
  user: Omit<User, "id">;
}

/**
 * Start a sign-up: the details wait beside a 4-digit code mailed to the email, and the account
 * exists only once that code is verified (verifySignup). Another registration of the same
 * email opens its own attempt with its own code, so it can neither change nor end this one.
 * An email with an account already answers 409. See consumeSignupCode for which code
 * confirms which attempt.
 */
export async function registerAccount(
  input: RegisterInput,
  client: Client,
  options: { boundToBrowser?: boolean } = {},
  db: Db = defaultDb,
): Promise<SignupAttempt> {
  await rateLimitClient(LIMITS.signup, client, input.email);
  if (await findByEmail(input.email, db)) throw emailTaken();
  const passwordHash = await hashPassword(input.password, client.ip);
  // boundToBrowser: the web page keeps the attempt's handle in the session, and only that session reaches it.
  const payload = JSON.stringify({ name: input.name, mobile: input.mobile, passwordHash, bound: options.boundToBrowser === true });
  // The attempt and its code's mail, in one transaction: the one is never without the other.
  const handle = await db.transaction().execute(async (trx) => {
    const issued = await issueSignupCode(trx, input.email, payload);
    await queueSignupCode(trx, input.email, issued.code);
    return issued.handle;
  });
  return { attemptId: handle, user: { name: input.name, email: input.email, mobile: input.mobile } };
}

/**
 * A new code for a sign-up waiting for verification: the attempt `attempt` names (the
 * browser's own, or an API client's; 404 when it names none the caller may reach), else the
 * email's lone API sign-up. Without a handle it answers the same for any email. The mail goes
 * out in the background.
 */
export async function resendSignupCode(email: string, attempt: AttemptRef | null, client: Client, db: Db = defaultDb): Promise<void> {
  await rateLimitClient(LIMITS.otpResend, client, email);
  await db.transaction().execute(async (trx) => {
    const code = await renewSignupCode(trx, email, attempt);
    if (code) await queueSignupCode(trx, email, code);
  });
}

/**
 * Check the emailed code and create the account from its attempt. Returns the user to sign in.
 * `attempt` ties the code to one sign-up: the browser's own (its session's handle) or an API
 * client's (the handle registration answered); a browser's sign-up is out of the API's reach.
 * Null: the email's lone API sign-up (see consumeSignupCode).
 */
export async function verifySignup(
  email: string,
  otp: string,
  attempt: AttemptRef | null,
  client: Client,
  db: Db = defaultDb,
): Promise<User> {
  await rateLimitClient(LIMITS.otpVerify, client, email);
  await rateLimitClient(LIMITS.otpVerifyDay, client, email);
  // Checked outside the transaction, so a wrong try stays counted.
  const pending = PendingSchema.parse(JSON.parse(await consumeSignupCode(db, email, otp, attempt)));
  try {
    return await db.transaction().execute(async (trx) => {
      if (await findByEmail(email, trx)) throw emailTaken();
      const now = nowIso();
      const row = await trx
        .insertInto("users")
        .values({
          name: pending.name,
          email,
          mobile: pending.mobile,
          passwordHash: pending.passwordHash,
          emailVerifiedAt: now,
          createdAt: now,
          updatedAt: now,
        })
        .returning(userColumns)
        .executeTakeFirstOrThrow();
      await endSignupAttempts(trx, email);
      return toUser(row);
    });
  } catch (error) {
    // Two attempts for one email verified at the same moment: the unique email decides.
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
}

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
    throw new AppError(400, MESSAGES.emailChangeNeedsPassword, { currentPassword: MESSAGES.emailChangeNeedsPassword });
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
  const takenMeanwhile = () => new AppError(409, EMAIL_TAKEN_MEANWHILE, { code: EMAIL_TAKEN_MEANWHILE });
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

/**
 * The signed-in customer's current password, asked before a credential or the recovery address
 * changes: wrong ones count against a day's cap per account (counted before the check, given
 * back when right), so a stolen session cannot guess it over days (fourth security review).
 */
async function checkCurrentPassword(userId: number, password: string, passwordHash: string | null): Promise<void> {
  await rateLimitUser(LIMITS.currentPasswordDay, userId);
  if (!(await verifyPassword(password, passwordHash))) {
    throw new AppError(400, MESSAGES.wrongCurrent, { currentPassword: MESSAGES.wrongCurrent });
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
