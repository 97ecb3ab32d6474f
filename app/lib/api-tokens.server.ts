// API tokens, the bearer sign-in of API clients: opaque random strings; only their SHA-256 is
// stored, with an expiry, and they are revoked at logout, and at a password change or reset
// (endOtherSignIns, which ends the account's browser sessions with them). Which user a request
// is (a token, else the session cookie) is getUserId's, in app/web/visitor.server.
import crypto from "node:crypto";
import type { Db } from "./db.server";
import { db as defaultDb, nowIso } from "./db.server";

export const TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const TOKEN_PREFIX = "slt_";

function tokenHash(token: string) {
  return crypto.createHash("sha256").update(token).digest("hex");
}

/** A new API token for the user (shown once, to the client; stored hashed). */
export async function issueToken(userId: number, db: Db = defaultDb, now = new Date()): Promise<string> {
  const token = TOKEN_PREFIX + crypto.randomBytes(32).toString("base64url");
  await db
    .insertInto("apiTokens")
    .values({ userId, tokenHash: tokenHash(token), createdAt: nowIso(now), expiresAt: nowIso(new Date(now.getTime() + TOKEN_TTL_MS)) })
    .execute();
  return token;
}

/** The bearer token a request carries, or null. */
export function bearerToken(request: Request): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("Authorization") ?? "");
  return match ? match[1]! : null;
}

/** The user a live token names, or null (an unknown, revoked or expired one). */
export async function userIdFromToken(token: string, db: Db): Promise<number | null> {
  if (token.length > 200) return null;
  const row = await db
    .selectFrom("apiTokens")
    .select("userId")
    .where("tokenHash", "=", tokenHash(token))
    .where("revokedAt", "is", null)
    .where("expiresAt", ">", nowIso())
    .executeTakeFirst();
  return row?.userId ?? null;
}

/** Revoke the token this request carries (API logout). Returns whether one was revoked. */
export async function revokeRequestToken(request: Request, db: Db = defaultDb): Promise<boolean> {
  const token = bearerToken(request);
  if (!token) return false;
  const result = await db
    .updateTable("apiTokens")
    .set({ revokedAt: nowIso() })
    .where("tokenHash", "=", tokenHash(token))
    .where("revokedAt", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Sign the user out everywhere else (password change or reset): every API token revoked,
 * every browser session deleted except `keepSessionId`.
 */
export async function endOtherSignIns(db: Db, userId: number, keepSessionId?: string): Promise<void> {
  await db.updateTable("apiTokens").set({ revokedAt: nowIso() }).where("userId", "=", userId).where("revokedAt", "is", null).execute();
  let sessions = db.deleteFrom("sessions").where("userId", "=", userId);
  if (keepSessionId) sessions = sessions.where("id", "!=", keepSessionId);
  await sessions.execute();
}
