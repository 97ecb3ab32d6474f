// One-time codes: the 4-digit sign-up code, the 4-digit code that confirms a new email address,
// and the password-reset link token. Stored only as keyed hashes (a 4-digit code's plain hash
// could be reversed by trying all 10,000), single-use, expiring; a 4-digit code dies after
// MAX_CODE_ATTEMPTS wrong tries.
import crypto from "node:crypto";
import { sql } from "kysely";
import type { Db } from "./db.server";
import { nowIso } from "./db.server";
import { AppError } from "./errors.server";
import { secret } from "./secrets.server";
import { MESSAGES, OTP_LENGTH } from "~/utils/account-fields";

export const CODE_TTL_MS = 10 * 60 * 1000;
export const RESET_TTL_MS = 30 * 60 * 1000;
export const MAX_CODE_ATTEMPTS = 5;

export const CODE_MESSAGES = {
  wrong: "Invalid OTP. Please check the code and try again.",
  lastWrong: "Invalid OTP. That was the last try for this code: please request a new one.",
  dead: "Too many wrong tries. This OTP no longer works: please request a new one.",
  expired: "This OTP has expired. Please request a new one.",
  used: "This OTP has already been used. Please log in, or request a new one.",
} as const;

type Purpose = "signup" | "password_reset" | "email_change";

// Read once: the key never changes while the shop runs, and every server has the same one
// (secrets.server: the variable, or on PostgreSQL the database's), so it cannot be stale.
let key: string | null = null;
function codeHash(purpose: Purpose, email: string, code: string): string {
  key ??= secret("one-time-codes");
  return crypto.createHmac("sha256", key).update(`${purpose}\n${email}\n${code}`).digest("hex");
}

function sameHash(a: string, b: string) {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/**
 * Whether an attempt belongs to the browser that made it: sign-ups made on the web page are
 * (the browser's session keeps the handle). Only that session reaches them: requests without
 * a handle never see them, and the API not even with it.
 */
function isBound(payload: string | null): boolean {
  try {
    return (JSON.parse(payload ?? "{}") as { bound?: unknown }).bound === true;
  } catch {
    return false;
  }
}

/**
 * Which sign-up attempt a request names: the handle registration gave out (never the row's
 * sequential id), and where it comes from: the browser session that filled in the form
 * (`browser`), or an API client (`api`). Each reaches only the attempts it opened.
 */
export interface AttemptRef {
  handle: string;
  via: "browser" | "api";
}

/** A handle: base64url of 16 random bytes (128 bits). */
const HANDLE_PATTERN = /^[A-Za-z0-9_-]{22}$/;

function newHandle(): string {
  return crypto.randomBytes(16).toString("base64url");
}

/**
 * One answer for a handle that names no attempt this request may reach: guessed, ended, of
 * another email, or a browser's sign-up asked for through the API. Nothing tells them apart.
 */
export const UNKNOWN_ATTEMPT = "This sign-up was not found, or it has ended. Please register again.";
const unknownAttempt = () => new AppError(404, UNKNOWN_ATTEMPT, { fieldErrors: { attemptId: UNKNOWN_ATTEMPT } });

/** The attempts among `rows` that `ref` may reach (a handle matches one row at most). */
function reachable<T extends { handle: string | null; payload: string | null }>(rows: T[], ref: AttemptRef): T[] {
  return rows.filter((r) => r.handle === ref.handle && isBound(r.payload) === (ref.via === "browser"));
}

/** The handle `ref` carries; anything that cannot be a handle names no attempt (404). */
function handleOf(ref: AttemptRef): string {
  // A session from before handles may still hold a row id (a number).
  const handle: unknown = ref.handle;
  if (typeof handle !== "string" || !HANDLE_PATTERN.test(handle)) throw unknownAttempt();
  return handle;
}

export const SEVERAL_WAITING =
  "More than one sign-up is waiting for this email, so a code alone cannot confirm one. " +
  "Send the attemptId your registration answered, or register again after an hour.";

/** A sign-up attempt (and its codes) lives this long at most, however often a code is resent. */
export const ATTEMPT_TTL_MS = 60 * 60 * 1000;

function newCode() {
  return crypto
    .randomInt(0, 10 ** OTP_LENGTH)
    .toString()
    .padStart(OTP_LENGTH, "0");
}

/**
 * Open a sign-up attempt for the email, holding `payload` (what the form said) until its code
 * is verified. Earlier attempts for the same email stay as they are: a second registration
 * cannot change or end the first. Returns the attempt's handle (128 random bits; the row's
 * own id never leaves this module) and its 4-digit code.
 */
export async function issueSignupCode(db: Db, email: string, payload: string, now = new Date()): Promise<{ handle: string; code: string }> {
  const code = newCode();
  const handle = newHandle();
  await db
    .insertInto("oneTimeCodes")
    .values({
      email,
      purpose: "signup",
      handle,
      codeHash: codeHash("signup", email, code),
      attempts: 0,
      expiresAt: nowIso(new Date(now.getTime() + CODE_TTL_MS)),
      createdAt: nowIso(now),
      payload,
    })
    .execute();
  return { handle, code };
}

/**
 * A new code for a waiting attempt: the one `attempt` names (404 when it names none this
 * request may reach), or without one the email's only waiting attempt that is not bound to a
 * browser (none when several wait: whose would it be?). The old code stops working and the
 * tries start again. Null when no attempt qualifies without a handle.
 */
export async function renewSignupCode(db: Db, email: string, attempt: AttemptRef | null, now = new Date()): Promise<string | null> {
  let query = db
    .selectFrom("oneTimeCodes")
    .select(["id", "handle", "createdAt", "payload"])
    .where("email", "=", email)
    .where("purpose", "=", "signup")
    .where("usedAt", "is", null)
    .where("createdAt", ">", nowIso(new Date(now.getTime() - ATTEMPT_TTL_MS)));
  if (attempt) query = query.where("handle", "=", handleOf(attempt));
  const rows = await query.orderBy("id", "desc").execute();
  const candidates = attempt ? reachable(rows, attempt) : rows.filter((r) => !isBound(r.payload));
  if (attempt && candidates.length === 0) throw unknownAttempt();
  if (candidates.length !== 1) return null;
  const row = candidates[0]!;
  const code = newCode();
  const end = Math.min(now.getTime() + CODE_TTL_MS, Date.parse(row.createdAt) + ATTEMPT_TTL_MS);
  await db
    .updateTable("oneTimeCodes")
    .set({ codeHash: codeHash("signup", email, code), attempts: 0, expiresAt: nowIso(new Date(end)) })
    .where("id", "=", row.id)
    .where("usedAt", "is", null)
    .execute();
  return code;
}

/**
 * Check a sign-up code and use it up; returns the attempt's payload. With `attempt` (the
 * browser that filled in the form, or an API client that kept the handle) only that attempt's
 * code counts, and a handle that names no attempt this request may reach is a 404
 * (UNKNOWN_ATTEMPT): a browser's sign-up is never confirmed through the API. Without it, only
 * attempts not bound to a browser, and only while exactly one waits: with several waiting, a
 * code cannot tell whose sign-up it confirms (one may be someone else's, with their password),
 * so it is refused (409) and nothing is counted or ended; each still confirms with its handle.
 * Throws a 400 with the reason: wrong, expired, used, or no tries left. A wrong try is counted
 * atomically on every attempt it was checked against, so parallel guesses cannot exceed the
 * limit; pass the main db so the count survives a rollback.
 */
export async function consumeSignupCode(
  db: Db,
  email: string,
  code: string,
  attempt: AttemptRef | null,
  now = new Date(),
): Promise<string> {
  let query = db
    .selectFrom("oneTimeCodes")
    .selectAll()
    .where("email", "=", email)
    .where("purpose", "=", "signup")
    .where("createdAt", ">", nowIso(new Date(now.getTime() - ATTEMPT_TTL_MS - CODE_TTL_MS)));
  if (attempt) query = query.where("handle", "=", handleOf(attempt));
  const all = await query.orderBy("id", "desc").execute();
  const rows = attempt ? reachable(all, attempt) : all.filter((r) => !isBound(r.payload));
  if (attempt && rows.length === 0) throw unknownAttempt();
  const fail = (message: string) => new AppError(400, message, { fieldErrors: { otp: message } });
  if (!attempt) {
    // Waiting as resend sees it: unused and within the attempt's life (its code may have expired).
    const lifeStart = now.getTime() - ATTEMPT_TTL_MS;
    const open = rows.filter((r) => !r.usedAt && Date.parse(r.createdAt) > lifeStart);
    // Refused, and nothing ends: ending them would let anyone who knows the email end a sign-up
    // whose client kept its attemptId (which still confirms it).
    if (open.length > 1) throw new AppError(409, SEVERAL_WAITING, { fieldErrors: { otp: SEVERAL_WAITING } });
  }
  const hash = codeHash("signup", email, code);
  const match = rows.find((r) => sameHash(r.codeHash, hash));
  if (match) {
    if (match.usedAt) throw fail(CODE_MESSAGES.used);
    if (match.attempts >= MAX_CODE_ATTEMPTS) throw fail(CODE_MESSAGES.dead);
    if (Date.parse(match.expiresAt) <= now.getTime()) throw fail(CODE_MESSAGES.expired);
    if (!(await spendCode(db, match.id, now))) throw fail(CODE_MESSAGES.used);
    return match.payload ?? "{}";
  }
  const waiting = rows.filter((r) => !r.usedAt && Date.parse(r.expiresAt) > now.getTime());
  if (waiting.length === 0) {
    const unused = rows.filter((r) => !r.usedAt);
    if (unused.some((r) => r.attempts < MAX_CODE_ATTEMPTS)) throw fail(CODE_MESSAGES.expired);
    // Only dead codes wait: say so. Nothing waits (or only a used code): the code is just wrong.
    throw fail(unused.length ? CODE_MESSAGES.dead : CODE_MESSAGES.wrong);
  }
  const counted = await db
    .updateTable("oneTimeCodes")
    .set({ attempts: sql`attempts + 1` })
    .where(
      "id",
      "in",
      waiting.map((r) => r.id),
    )
    .where("attempts", "<", MAX_CODE_ATTEMPTS)
    .returning("attempts")
    .execute();
  if (counted.length === 0) throw fail(CODE_MESSAGES.dead);
  throw fail(counted.every((r) => r.attempts >= MAX_CODE_ATTEMPTS) ? CODE_MESSAGES.lastWrong : CODE_MESSAGES.wrong);
}

/** After a verified sign-up: every other attempt for the email ends. */
export async function endSignupAttempts(db: Db, email: string): Promise<void> {
  await db.deleteFrom("oneTimeCodes").where("email", "=", email).where("purpose", "=", "signup").where("usedAt", "is", null).execute();
}

/**
 * How many reset links an email may have out at once. A new one ends only the older ones past
 * this, so a stranger asking for resets (3 an hour) cannot void the link the owner is about to
 * open; any one used ends them all (a password change).
 */
export const LIVE_RESET_LINKS = 3;

/** A password-reset token for the email: `<row id>.<random>`, valid once within RESET_TTL_MS. */
export async function issueResetToken(db: Db, email: string, now = new Date()): Promise<string> {
  const secret = crypto.randomBytes(32).toString("base64url");
  const kept = db
    .selectFrom("oneTimeCodes")
    .select("id")
    .where("email", "=", email)
    .where("purpose", "=", "password_reset")
    .orderBy("id", "desc")
    .limit(LIVE_RESET_LINKS - 1);
  await db
    .deleteFrom("oneTimeCodes")
    .where("email", "=", email)
    .where("purpose", "=", "password_reset")
    .where("id", "not in", kept)
    .execute();
  const row = await db
    .insertInto("oneTimeCodes")
    .values({
      email,
      purpose: "password_reset",
      codeHash: codeHash("password_reset", email, secret),
      attempts: 0,
      expiresAt: nowIso(new Date(now.getTime() + RESET_TTL_MS)),
      createdAt: nowIso(now),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return `${row.id}.${secret}`;
}

export const RESET_INVALID = MESSAGES.resetInvalid;

/** The email a live reset token belongs to, or null. */
export async function findResetToken(db: Db, token: string, now = new Date()): Promise<{ id: number; email: string } | null> {
  const match = /^(\d{1,10})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match || Number(match[1]) > 2_147_483_647) return null;
  const row = await db
    .selectFrom("oneTimeCodes")
    .select(["id", "email", "codeHash", "usedAt", "expiresAt"])
    .where("id", "=", Number(match[1]))
    .where("purpose", "=", "password_reset")
    .executeTakeFirst();
  if (!row || row.usedAt || Date.parse(row.expiresAt) <= now.getTime()) return null;
  if (!sameHash(row.codeHash, codeHash("password_reset", row.email, match[2]!))) return null;
  return { id: row.id, email: row.email };
}

/** Use a reset token up (inside the caller's transaction); throws 400 when it is not live. */
export async function consumeResetToken(db: Db, token: string, now = new Date()): Promise<string> {
  const found = await findResetToken(db, token, now);
  if (!found) throw new AppError(400, RESET_INVALID);
  const used = await db
    .updateTable("oneTimeCodes")
    .set({ usedAt: nowIso(now) })
    .where("id", "=", found.id)
    .where("usedAt", "is", null)
    .executeTakeFirst();
  if (Number(used.numUpdatedRows) !== 1) throw new AppError(400, RESET_INVALID);
  return found.email;
}

/** Reset links still out for the email stop working (after a password or email change). */
export async function endResetTokens(db: Db, email: string): Promise<void> {
  await db.deleteFrom("oneTimeCodes").where("email", "=", email).where("purpose", "=", "password_reset").execute();
}

/** What the customer reads about an email change's code (the profile page and the API). */
export const EMAIL_CODE_MESSAGES = {
  wrong: "Invalid code. Please check the code and try again.",
  lastWrong: "Invalid code. That was the last try for this code: please send a new one.",
  dead: "Too many wrong tries. This code no longer works: please send a new one.",
  expired: "This code has expired. Please send a new one.",
  none: "No email change is waiting for a code. Please enter your new email again.",
} as const;

/** An email change waiting for its code: the new address, mailed a code that works until `expiresAt`. */
export interface EmailChange {
  id: number;
  email: string;
  createdAt: string;
  expiresAt: string;
}

/** The account's email change still waiting (at most one), or null. It lives ATTEMPT_TTL_MS at most, however often its code is resent. */
export async function findEmailChange(db: Db, userId: number, now = new Date()): Promise<EmailChange | null> {
  const row = await db
    .selectFrom("oneTimeCodes")
    .select(["id", "email", "createdAt", "expiresAt"])
    .where("userId", "=", userId)
    .where("purpose", "=", "email_change")
    .where("usedAt", "is", null)
    .where("createdAt", ">", nowIso(new Date(now.getTime() - ATTEMPT_TTL_MS)))
    .orderBy("id", "desc")
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Open an email change: a code for `newEmail` (the address it is mailed to), bound to the account.
 * A change still waiting ends: its code stops working. Returns the code.
 */
export async function issueEmailChangeCode(db: Db, userId: number, newEmail: string, now = new Date()): Promise<string> {
  await endEmailChanges(db, userId);
  const code = newCode();
  await db
    .insertInto("oneTimeCodes")
    .values({
      email: newEmail,
      purpose: "email_change",
      userId,
      codeHash: codeHash("email_change", newEmail, code),
      attempts: 0,
      expiresAt: nowIso(new Date(now.getTime() + CODE_TTL_MS)),
      createdAt: nowIso(now),
    })
    .execute();
  return code;
}

/** A new code for the account's waiting email change (the old one stops working, the tries start again); null when none waits. */
export async function renewEmailChangeCode(db: Db, userId: number, now = new Date()): Promise<{ email: string; code: string } | null> {
  const change = await findEmailChange(db, userId, now);
  if (!change) return null;
  const code = newCode();
  const end = Math.min(now.getTime() + CODE_TTL_MS, Date.parse(change.createdAt) + ATTEMPT_TTL_MS);
  const result = await db
    .updateTable("oneTimeCodes")
    .set({ codeHash: codeHash("email_change", change.email, code), attempts: 0, expiresAt: nowIso(new Date(end)) })
    .where("id", "=", change.id)
    .where("usedAt", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? { email: change.email, code } : null;
}

/**
 * Check the code of the account's waiting email change and use it up; returns the new address.
 * Throws a 400 on `code` with the reason: nothing waiting (or already used), expired, wrong, or
 * no tries left. A wrong try is counted atomically (parallel guesses cannot exceed the limit);
 * pass the main db so the count survives the caller's rollback.
 */
export async function consumeEmailChangeCode(db: Db, userId: number, code: string, now = new Date()): Promise<string> {
  const fail = (message: string) => new AppError(400, message, { fieldErrors: { code: message } });
  const change = await db
    .selectFrom("oneTimeCodes")
    .selectAll()
    .where("userId", "=", userId)
    .where("purpose", "=", "email_change")
    .where("usedAt", "is", null)
    .where("createdAt", ">", nowIso(new Date(now.getTime() - ATTEMPT_TTL_MS)))
    .orderBy("id", "desc")
    .executeTakeFirst();
  if (!change) throw fail(EMAIL_CODE_MESSAGES.none);
  if (change.attempts >= MAX_CODE_ATTEMPTS) throw fail(EMAIL_CODE_MESSAGES.dead);
  if (Date.parse(change.expiresAt) <= now.getTime()) throw fail(EMAIL_CODE_MESSAGES.expired);
  if (sameHash(change.codeHash, codeHash("email_change", change.email, code))) {
    if (!(await spendCode(db, change.id, now))) throw fail(EMAIL_CODE_MESSAGES.none);
    return change.email;
  }
  const counted = await db
    .updateTable("oneTimeCodes")
    .set({ attempts: sql`attempts + 1` })
    .where("id", "=", change.id)
    .where("usedAt", "is", null)
    .where("attempts", "<", MAX_CODE_ATTEMPTS)
    .returning("attempts")
    .executeTakeFirst();
  if (!counted) throw fail(EMAIL_CODE_MESSAGES.dead);
  throw fail(counted.attempts >= MAX_CODE_ATTEMPTS ? EMAIL_CODE_MESSAGES.lastWrong : EMAIL_CODE_MESSAGES.wrong);
}

/** The account's email changes still waiting end (cancelled, replaced, made, or overtaken by the shop's edit). */
export async function endEmailChanges(db: Db, userId: number): Promise<void> {
  await db.deleteFrom("oneTimeCodes").where("userId", "=", userId).where("purpose", "=", "email_change").execute();
}

/** Marks a live code used, once: false when another request used it (or its tries ran out) first. */
async function spendCode(db: Db, id: number, now: Date): Promise<boolean> {
  const used = await db
    .updateTable("oneTimeCodes")
    .set({ usedAt: nowIso(now) })
    .where("id", "=", id)
    .where("usedAt", "is", null)
    .where("attempts", "<", MAX_CODE_ATTEMPTS)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}
