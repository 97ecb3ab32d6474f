// Accounts: registration with an emailed code, login, profile, password change and reset.
// Routes and API paths both call these; every rate limit of an account action lives here.
import type { Selectable } from "kysely";
import type { Db } from "~/lib/db.server";
import { db as defaultDb, nowIso } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { endOtherSignIns } from "~/lib/identity.server";
import { CODE_MESSAGES, consumeResetToken, consumeSignupCode, issueResetToken, issueSignupCode, RESET_INVALID } from "~/lib/one-time-codes.server";
import { hashPassword, needsRehash, verifyPassword } from "~/lib/password.server";
import { LIMITS, rateLimit, rateLimitRequest } from "~/lib/rate-limit.server";
import type { DB } from "~/lib/schema";
import type { LoginInput, ProfileInput, RegisterInput } from "~/utils/account-schemas";
import { MESSAGES } from "~/utils/account-schemas";
import { sendEmailChanged, sendPasswordChanged, sendPasswordResetLink, sendSignupCode } from "./account-mail.server";

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

export async function getUserById(id: number, db: Db = defaultDb): Promise<User | null> {
  const row = await db.selectFrom("users").select(userColumns).where("id", "=", id).where("emailVerifiedAt", "is not", null).executeTakeFirst();
  return row ? toUser(row) : null;
}

function findByEmail(email: string, db: Db) {
  return db.selectFrom("users").selectAll().where("email", "=", email.trim().toLowerCase()).executeTakeFirst();
}

/**
 * Register, or refresh a registration that was never verified (a new code, the new name and
 * password: nobody can use an unverified account, so nothing is lost). A verified email is 409.
 * The 4-digit code is mailed; the account is usable only after verifySignup.
 */
export async function registerAccount(input: RegisterInput, request: Request, db: Db = defaultDb): Promise<User> {
  await rateLimitRequest(LIMITS.signup, request, input.email);
  const passwordHash = await hashPassword(input.password);
  const { id, code } = await db.transaction().execute(async (trx) => {
    const existing = await findByEmail(input.email, trx);
    if (existing?.emailVerifiedAt) throw new AppError(409, MESSAGES.emailTaken, { email: MESSAGES.emailTaken });
    const now = nowIso();
    const fields = { name: input.name, mobile: input.mobile, passwordHash, updatedAt: now };
    const id = existing
      ? (await trx.updateTable("users").set(fields).where("id", "=", existing.id).returning("id").executeTakeFirstOrThrow()).id
      : (await trx
          .insertInto("users")
          .values({ ...fields, email: input.email, emailVerifiedAt: null, createdAt: now })
          .returning("id")
          .executeTakeFirstOrThrow()).id;
    return { id, code: await issueSignupCode(trx, input.email) };
  });
  await sendSignupCode(input.email, input.name, code);
  return toUser({ id, name: input.name, email: input.email, mobile: input.mobile });
}

/** A new code for a registration waiting for verification. Silent for any other email. */
export async function resendSignupCode(email: string, request: Request, db: Db = defaultDb): Promise<void> {
  await rateLimitRequest(LIMITS.otpResend, request, email);
  const user = await findByEmail(email, db);
  if (!user || user.emailVerifiedAt) return;
  const code = await issueSignupCode(db, user.email);
  await sendSignupCode(user.email, user.name, code);
}

/** Check the emailed code and mark the account verified. Returns the user to sign in. */
export async function verifySignup(email: string, otp: string, request: Request, db: Db = defaultDb): Promise<User> {
  await rateLimitRequest(LIMITS.otpVerify, request, email);
  // Counted outside any transaction, so a wrong try stays counted.
  await consumeSignupCode(db, email, otp);
  const user = await findByEmail(email, db);
  if (!user) throw new AppError(400, CODE_MESSAGES.wrong, { otp: CODE_MESSAGES.wrong });
  const now = nowIso();
  await db.updateTable("users").set({ emailVerifiedAt: user.emailVerifiedAt ?? now, updatedAt: now }).where("id", "=", user.id).execute();
  return toUser(user);
}

/**
 * Check an email and password. One answer for an unknown email and a wrong password (401),
 * taking the same time; 403 for an account whose code was never verified.
 */
export async function verifyLogin(input: LoginInput, request: Request, db: Db = defaultDb): Promise<User> {
  await rateLimitRequest(LIMITS.login, request, input.email);
  const user = await findByEmail(input.email, db);
  const ok = await verifyPassword(input.password, user?.passwordHash ?? null);
  if (!user || !ok) throw new AppError(401, MESSAGES.invalidLogin);
  if (!user.emailVerifiedAt) throw new AppError(403, MESSAGES.unverified);
  if (user.passwordHash && needsRehash(user.passwordHash)) {
    await db.updateTable("users").set({ passwordHash: await hashPassword(input.password) }).where("id", "=", user.id).execute();
  }
  return toUser(user);
}

/** Name, email and mobile. A new email must be free (409); the old address is told of the change. */
export async function updateProfile(userId: number, input: ProfileInput, db: Db = defaultDb): Promise<User> {
  const before = await db.selectFrom("users").select(userColumns).where("id", "=", userId).executeTakeFirst();
  if (!before) throw new AppError(401, "Please log in to continue");
  if (input.email !== before.email) {
    const other = await findByEmail(input.email, db);
    if (other) throw new AppError(409, MESSAGES.emailInUse, { email: MESSAGES.emailInUse });
  }
  try {
    await db
      .updateTable("users")
      .set({ name: input.name, email: input.email, mobile: input.mobile, updatedAt: nowIso() })
      .where("id", "=", userId)
      .execute();
  } catch (error) {
    // Two accounts racing for the same new email: the unique index decides.
    if (/unique|duplicate/i.test(error instanceof Error ? error.message : "")) {
      throw new AppError(409, MESSAGES.emailInUse, { email: MESSAGES.emailInUse });
    }
    throw error;
  }
  if (input.email !== before.email) await sendEmailChanged(before.email, input.name, input.email);
  return toUser({ id: userId, ...input });
}

/**
 * Change the password after checking the current one. Every other device and API token is
 * signed out; the session `keepSessionId` (the one asking) stays.
 */
export async function changePassword(
  userId: number,
  input: { currentPassword: string; newPassword: string },
  keepSessionId: string | undefined,
  db: Db = defaultDb,
): Promise<void> {
  await rateLimit(LIMITS.changePassword, `user:${userId}`);
  const user = await db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirst();
  if (!user) throw new AppError(401, "Please log in to continue");
  if (!(await verifyPassword(input.currentPassword, user.passwordHash))) {
    throw new AppError(400, MESSAGES.wrongCurrent, { currentPassword: MESSAGES.wrongCurrent });
  }
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable("users").set({ passwordHash, updatedAt: nowIso() }).where("id", "=", userId).execute();
    await endOtherSignIns(trx, userId, keepSessionId);
  });
  await sendPasswordChanged(user.email, user.name);
}

/**
 * Mail a single-use reset link when the email has an account; answer the same either way,
 * so the form never tells who has an account.
 */
export async function requestPasswordReset(email: string, origin: string, request: Request, db: Db = defaultDb): Promise<void> {
  await rateLimitRequest(LIMITS.passwordReset, request, email);
  const user = await findByEmail(email, db);
  if (!user) return;
  const token = await issueResetToken(db, user.email);
  await sendPasswordResetLink(user.email, user.name, `${origin}/reset-password?token=${encodeURIComponent(token)}`);
}

/**
 * Set a new password with a reset token: the token is used up, the email counts as verified
 * (the link proved it), and every session and API token of the account ends.
 */
export async function resetPassword(token: string, password: string, db: Db = defaultDb): Promise<void> {
  const passwordHash = await hashPassword(password);
  const user = await db.transaction().execute(async (trx) => {
    const email = await consumeResetToken(trx, token);
    const user = await findByEmail(email, trx);
    if (!user) throw new AppError(400, RESET_INVALID);
    const now = nowIso();
    await trx
      .updateTable("users")
      .set({ passwordHash, emailVerifiedAt: user.emailVerifiedAt ?? now, updatedAt: now })
      .where("id", "=", user.id)
      .execute();
    await endOtherSignIns(trx, user.id);
    return user;
  });
  await sendPasswordChanged(user.email, user.name);
}
