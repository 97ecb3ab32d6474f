// Signing up: the details wait beside a code mailed to the email, and the account exists once the
// code comes back. Every limit of a sign-up lives here, by client and email.
import { z } from "zod";
import type { Db } from "~/lib/db.server";
import { db as defaultDb, isUniqueViolation, nowIso } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import type { AttemptRef } from "~/lib/one-time-codes.server";
import { consumeSignupCode, endSignupAttempts, issueSignupCode, renewSignupCode } from "~/lib/one-time-codes.server";
import { hashPassword } from "~/lib/password.server";
import type { Client } from "~/lib/rate-limit.server";
import { LIMITS, rateLimitClient } from "~/lib/rate-limit.server";
import type { RegisterInput } from "~/utils/account-schemas";
import { MESSAGES } from "~/utils/account-schemas";
import { queueSignupCode } from "./mail.server";
import type { User } from "./users.server";
import { findByEmail, toUser, userColumns } from "./users.server";

/** A sign-up for an email that has an account (409, on the email field). */
const emailTaken = () => new AppError(409, MESSAGES.emailTaken, { fieldErrors: { email: MESSAGES.emailTaken } });

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
