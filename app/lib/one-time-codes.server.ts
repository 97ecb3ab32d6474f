// One-time codes: the 4-digit sign-up code and the password-reset link token.
// Stored only as keyed hashes (a 4-digit code's plain hash could be reversed by trying all
// 10,000), single-use, expiring; a sign-up code dies after MAX_CODE_ATTEMPTS wrong tries.
import crypto from "node:crypto";
import { sql } from "kysely";
import type { Db } from "./db.server";
import { nowIso } from "./db.server";
import { AppError } from "./errors.server";
import { persistentSecret } from "./secrets.server";
import { MESSAGES, OTP_LENGTH } from "~/utils/account-schemas";

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

type Purpose = "signup" | "password_reset";

let key: string | null = null;
function codeHash(purpose: Purpose, email: string, code: string): string {
  key ??= persistentSecret("one-time-codes");
  return crypto.createHmac("sha256", key).update(`${purpose}\n${email}\n${code}`).digest("hex");
}

function sameHash(a: string, b: string) {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/** A fresh 4-digit sign-up code for the email; any earlier code for it stops working. */
export async function issueSignupCode(db: Db, email: string, now = new Date()): Promise<string> {
  const code = crypto.randomInt(0, 10 ** OTP_LENGTH).toString().padStart(OTP_LENGTH, "0");
  await db.deleteFrom("oneTimeCodes").where("email", "=", email).where("purpose", "=", "signup").execute();
  await db
    .insertInto("oneTimeCodes")
    .values({
      email,
      purpose: "signup",
      codeHash: codeHash("signup", email, code),
      attempts: 0,
      expiresAt: nowIso(new Date(now.getTime() + CODE_TTL_MS)),
      createdAt: nowIso(now),
    })
    .execute();
  return code;
}

/**
 * Check a sign-up code and use it up. Throws a 400 with the reason (wrong, expired, used,
 * no tries left); a wrong try is counted atomically, so parallel guesses cannot exceed the limit.
 * Wrong tries must be counted even when the caller's transaction fails, so pass the main db.
 */
export async function consumeSignupCode(db: Db, email: string, code: string, now = new Date()): Promise<void> {
  const row = await db
    .selectFrom("oneTimeCodes")
    .selectAll()
    .where("email", "=", email)
    .where("purpose", "=", "signup")
    .orderBy("id", "desc")
    .executeTakeFirst();
  const fail = (message: string) => new AppError(400, message, { otp: message });
  if (!row) throw fail(CODE_MESSAGES.wrong);
  if (row.usedAt) throw fail(CODE_MESSAGES.used);
  if (row.attempts >= MAX_CODE_ATTEMPTS) throw fail(CODE_MESSAGES.dead);
  if (Date.parse(row.expiresAt) <= now.getTime()) throw fail(CODE_MESSAGES.expired);
  if (!sameHash(row.codeHash, codeHash("signup", email, code))) {
    const counted = await db
      .updateTable("oneTimeCodes")
      .set({ attempts: sql`attempts + 1` })
      .where("id", "=", row.id)
      .where("attempts", "<", MAX_CODE_ATTEMPTS)
      .returning("attempts")
      .executeTakeFirst();
    if (!counted) throw fail(CODE_MESSAGES.dead);
    throw fail(counted.attempts >= MAX_CODE_ATTEMPTS ? CODE_MESSAGES.lastWrong : CODE_MESSAGES.wrong);
  }
  const used = await db
    .updateTable("oneTimeCodes")
    .set({ usedAt: nowIso(now) })
    .where("id", "=", row.id)
    .where("usedAt", "is", null)
    .where("attempts", "<", MAX_CODE_ATTEMPTS)
    .executeTakeFirst();
  if (Number(used.numUpdatedRows) !== 1) throw fail(CODE_MESSAGES.used);
}

/** A password-reset token for the email: `<row id>.<random>`, valid once within RESET_TTL_MS. */
export async function issueResetToken(db: Db, email: string, now = new Date()): Promise<string> {
  const secret = crypto.randomBytes(32).toString("base64url");
  await db.deleteFrom("oneTimeCodes").where("email", "=", email).where("purpose", "=", "password_reset").execute();
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
  if (!match) return null;
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
