// Staff two-step sign-in (docs/decisions/0033): time-based one-time codes (TOTP, RFC 6238: six
// digits, 30-second steps, SHA-1, as every authenticator app reads an otpauth:// URI) through
// otplib, and ten single-use recovery codes. A code is never accepted twice: each accepted code's
// time step is written to staff.totp_last_step by one conditional UPDATE, so of two requests
// racing with one code only one changes the row; a recovery code is marked used the same way.
// The secret is kept as otplib gives it (base32); it is shown only on the setup page, never
// logged or answered anywhere else. Recovery codes are stored as SHA-256 (ten random 50-bit
// codes: a slow hash adds nothing) and shown once.
import crypto from "node:crypto";
import { generate, generateSecret, generateURI } from "otplib";
import { renderSVG } from "uqr";
import type { Db } from "~/lib/db.server";
import { db as defaultDb, nowIso } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import type { Client } from "~/lib/rate-limit.server";
import { forgiveTry, LIMITS, rateLimitClient } from "~/lib/rate-limit.server";
import { recordAudit } from "~/models/audit.server";
import type { Actor } from "./staff.server";

/** The seconds of one time step, and the steps either side of now a code may come from (clock drift). */
export const TOTP_PERIOD = 30;
export const TOTP_DRIFT_STEPS = 1;
export const TOTP_DIGITS = 6;
export const RECOVERY_CODE_COUNT = 10;
const RECOVERY_CODE_LENGTH = 10;
/** The name authenticator apps show above the code. */
export const TOTP_ISSUER = "Sagwan Living";

export const INVALID_CODE = "Invalid or expired code";
export const CODE_REQUIRED = "Enter the 6-digit code from your authenticator app, or a recovery code";

/** A new secret for setting up two-step sign-in (base32, 160 bits). */
export function newTotpSecret(): string {
  return generateSecret();
}

/** The otpauth:// URI an authenticator app reads (from the QR code, or typed in as the secret). */
export function totpUri(secret: string, email: string): string {
  return generateURI({ issuer: TOTP_ISSUER, label: email, secret, period: TOTP_PERIOD, digits: TOTP_DIGITS });
}

/** The URI as a QR code, drawn here as SVG markup (no outside service ever sees the secret). */
export function totpQrSvg(uri: string): string {
  return renderSVG(uri, { ecc: "M", border: 2 });
}

/** The time step a moment falls in. */
export function timeStep(now = Date.now()): number {
  return Math.floor(now / 1000 / TOTP_PERIOD);
}

/** The code of one time step (for the setup's check and for tests that sign in as an app would). */
export function totpCode(secret: string, step: number): Promise<string> {
  return generate({ secret, epoch: step * TOTP_PERIOD, period: TOTP_PERIOD, digits: TOTP_DIGITS });
}

function sameText(a: string, b: string): boolean {
  const x = crypto.createHash("sha256").update(a).digest();
  const y = crypto.createHash("sha256").update(b).digest();
  return crypto.timingSafeEqual(x, y);
}

/**
 * The time step whose code `code` is, among now and TOTP_DRIFT_STEPS either side, newest first;
 * null when none. Every step is compared (timing-safe), whichever matches.
 */
export async function matchingStep(secret: string, code: string, now = Date.now()): Promise<number | null> {
  const current = timeStep(now);
  let found: number | null = null;
  for (let step = current + TOTP_DRIFT_STEPS; step >= current - TOTP_DRIFT_STEPS; step--) {
    if (sameText(await totpCode(secret, step), code) && found === null) found = step;
  }
  return found;
}

/** What a typed code is: six digits (spaces allowed), or a recovery code (dashes and case ignored). */
export function readCode(raw: unknown): { kind: "totp"; code: string } | { kind: "recovery"; code: string } | null {
  if (typeof raw !== "string" || raw.length > 64) return null;
  const compact = raw.replace(/[\s-]/g, "").toUpperCase();
  if (new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(compact)) return { kind: "totp", code: compact };
  if (new RegExp(`^[A-Z2-7]{${RECOVERY_CODE_LENGTH}}$`).test(compact)) return { kind: "recovery", code: compact };
  return null;
}

function recoveryHash(code: string): string {
  return crypto.createHash("sha256").update(`staff-recovery:${code}`).digest("hex");
}

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** Ten new recovery codes as shown: 'ABCDE-FGHIJ' (10 base32 characters, 50 bits each). */
function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = crypto.randomBytes(RECOVERY_CODE_LENGTH);
    const code = [...bytes].map((b) => BASE32[b & 31]).join("");
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/** In `trx`: the account's recovery codes replaced by ten new ones; the codes to show, once. */
async function replaceRecoveryCodes(trx: Db, staffId: number): Promise<string[]> {
  const codes = newRecoveryCodes();
  await trx.deleteFrom("staffRecoveryCodes").where("staffId", "=", staffId).execute();
  await trx
    .insertInto("staffRecoveryCodes")
    .values(codes.map((code) => ({ staffId, codeHash: recoveryHash(code.replace("-", "")), usedAt: null })))
    .execute();
  return codes;
}

/** Counted before a code is checked; given back when it was right (only wrong codes count). */
async function countCodeTry(staffId: number, client: Client): Promise<void> {
  const subject = `staff:${staffId}`;
  await rateLimitClient(LIMITS.staffCode, client, subject);
  await rateLimitClient(LIMITS.staffCodeDay, client, subject);
}

async function forgiveCodeTry(staffId: number, client: Client): Promise<void> {
  const subject = `staff:${staffId}`;
  await forgiveTry(LIMITS.staffCode, client, subject, { reset: true });
  await forgiveTry(LIMITS.staffCodeDay, client, subject);
}

/**
 * Confirm setting up two-step sign-in with the first code from the app: the secret is stored, the
 * code's step recorded as used, and ten recovery codes made, in one transaction. Refused (400)
 * when the code is not the secret's, or when the account set up two-step meanwhile (another tab).
 * The recovery codes, to show once.
 */
export async function confirmTwoStep(
  staffId: number,
  secret: string,
  rawCode: unknown,
  client: Client,
  actor: Actor,
  db: Db = defaultDb,
): Promise<string[]> {
  const code = readCode(rawCode);
  if (code?.kind !== "totp")
    throw new AppError(400, "Enter the 6-digit code your authenticator app shows", { fieldErrors: { code: INVALID_CODE } });
  await countCodeTry(staffId, client);
  const step = await matchingStep(secret, code.code);
  if (step === null) throw new AppError(400, INVALID_CODE, { fieldErrors: { code: INVALID_CODE } });
  const codes = await db.transaction().execute(async (trx) => {
    const set = await trx
      .updateTable("staff")
      .set({ totpSecret: secret, totpLastStep: step })
      .where("id", "=", staffId)
      .where("totpSecret", "is", null)
      .where("active", "=", 1)
      .executeTakeFirst();
    if (Number(set.numUpdatedRows) !== 1) throw new AppError(409, "Two-step sign-in is already set up for this account.");
    await recordAudit(trx, { action: "update", entity: "staff", entityId: staffId, summary: "Two-step sign-in set up", actor });
    return replaceRecoveryCodes(trx, staffId);
  });
  await forgiveCodeTry(staffId, client);
  return codes;
}

/**
 * Check a sign-in code: a TOTP code of a time step later than any accepted before (written by one
 * conditional UPDATE, so two requests with one code cannot both pass), or an unused recovery code
 * (marked used the same way). Wrong codes count per account and per address; a right one is given
 * back. 400 INVALID_CODE for every refusal. Which kind was used, for the audit summary.
 */
export async function verifyStaffCode(staffId: number, rawCode: unknown, client: Client, db: Db = defaultDb): Promise<"totp" | "recovery"> {
  const code = readCode(rawCode);
  if (!code) throw new AppError(400, CODE_REQUIRED, { fieldErrors: { code: CODE_REQUIRED } });
  await countCodeTry(staffId, client);
  const row = await db.selectFrom("staff").select(["totpSecret", "active"]).where("id", "=", staffId).executeTakeFirst();
  const refused = () => new AppError(400, INVALID_CODE, { fieldErrors: { code: INVALID_CODE } });
  if (!row?.totpSecret || row.active !== 1) throw refused();
  if (code.kind === "totp") {
    const step = await matchingStep(row.totpSecret, code.code);
    if (step === null) throw refused();
    const used = await db
      .updateTable("staff")
      .set({ totpLastStep: step })
      .where("id", "=", staffId)
      .where("totpSecret", "=", row.totpSecret)
      .where((eb) => eb.or([eb("totpLastStep", "is", null), eb("totpLastStep", "<", step)]))
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw refused();
  } else {
    const used = await db
      .updateTable("staffRecoveryCodes")
      .set({ usedAt: nowIso() })
      .where("staffId", "=", staffId)
      .where("codeHash", "=", recoveryHash(code.code))
      .where("usedAt", "is", null)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw refused();
  }
  await forgiveCodeTry(staffId, client);
  return code.kind;
}

/** New recovery codes for an account with two-step set up (the old ones stop working); to show once. */
export async function renewRecoveryCodes(staffId: number, db: Db = defaultDb): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("staff").select("totpSecret").where("id", "=", staffId).executeTakeFirst();
    if (!row?.totpSecret) throw new AppError(400, "Set up two-step sign-in first.");
    return replaceRecoveryCodes(trx, staffId);
  });
}

/** How many of the account's recovery codes are still unused. */
export async function recoveryCodesLeft(staffId: number, db: Db = defaultDb): Promise<number> {
  const row = await db
    .selectFrom("staffRecoveryCodes")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("staffId", "=", staffId)
    .where("usedAt", "is", null)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Turn two-step sign-in off (only where it is not required: the caller checks): secret, last step and recovery codes go. */
export async function turnOffTwoStep(staffId: number, actor: Actor, db: Db = defaultDb): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await recordAudit(trx, { action: "update", entity: "staff", entityId: staffId, summary: "Two-step sign-in turned off", actor });
    await trx.updateTable("staff").set({ totpSecret: null, totpLastStep: null }).where("id", "=", staffId).execute();
    await trx.deleteFrom("staffRecoveryCodes").where("staffId", "=", staffId).execute();
  });
}
