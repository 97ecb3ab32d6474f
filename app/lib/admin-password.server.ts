// The Admin Access password and what a session keeps to prove it was given: never the
// password, only a salted scrypt hash of it per grant, so changing ADMIN_PASSWORD ends every admin session.
import crypto from "node:crypto";
import { env, isProduction } from "./env.server";

/** docs/product.md: `admin12345` outside production; in production only what ADMIN_PASSWORD says. */
export const DEV_ADMIN_PASSWORD = "admin12345";
/** In production a shorter password (or the development one) leaves admin access off. */
export const MIN_PRODUCTION_ADMIN_PASSWORD = 12;
/** How long one Admin Access login lasts. */
export const ADMIN_SESSION_MS = 12 * 60 * 60 * 1000;

export function adminPassword(): string | null {
  if (!isProduction) return env.ADMIN_PASSWORD ?? DEV_ADMIN_PASSWORD;
  const password = env.ADMIN_PASSWORD;
  if (!password || password === DEV_ADMIN_PASSWORD || password.length < MIN_PRODUCTION_ADMIN_PASSWORD) return null;
  return password;
}

/** Why admin access is off in production, for the boot log (null when it is on). */
export function adminPasswordProblem(): string | null {
  if (!isProduction || adminPassword() !== null) return null;
  if (!env.ADMIN_PASSWORD) return "ADMIN_PASSWORD is not set: the admin area cannot be opened in production.";
  return (
    `ADMIN_PASSWORD is too weak (at least ${MIN_PRODUCTION_ADMIN_PASSWORD} characters, not the development default): ` +
    "the admin area stays closed."
  );
}

/** Timing-safe: both sides are hashed to the same length first, so neither length nor content leaks. */
export function isAdminPassword(candidate: string): boolean {
  const expected = adminPassword();
  if (expected === null) return false;
  const a = crypto.createHash("sha256").update(candidate, "utf8").digest();
  const b = crypto.createHash("sha256").update(expected, "utf8").digest();
  return crypto.timingSafeEqual(a, b);
}

/**
 * What a session keeps of an Admin Access login: a random id, a random salt, scrypt(password, salt)
 * and its end. Nothing keyed by a secret the database may also hold (a generated SESSION_SECRET):
 * whoever reads sessions.data gets only a slow-KDF hash per grant to attack, never a fast oracle.
 * A changed ADMIN_PASSWORD no longer matches, so it ends every grant.
 */
export interface AdminGrant {
  id: string;
  salt: string;
  hash: string;
  until: string;
}

const GRANT_COST = { N: 16384, r: 8, p: 1 };

function passwordHash(password: string, salt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    crypto.scrypt(`admin:${password}`, salt, 32, GRANT_COST, (error, key) => (error ? reject(error) : resolve(key.toString("base64url"))));
  });
}

// Each grant's check is paid once per process: its answer is kept (bounded, oldest dropped first),
// under the grant and a per-process keyed digest of the password it was checked against.
const CHECKED_GRANTS_KEPT = 5000;
const processKey = crypto.randomBytes(32);
const checked = new Map<string, boolean>();

function checkedKey(grant: AdminGrant, password: string): string {
  const digest = crypto.createHmac("sha256", processKey).update(password).digest("base64url");
  return `${grant.id}:${grant.salt}:${grant.hash}:${digest}`;
}

function remember(key: string, valid: boolean) {
  checked.set(key, valid);
  if (checked.size > CHECKED_GRANTS_KEPT) checked.delete(checked.keys().next().value!);
}

/** A new grant for the current password, valid for ADMIN_SESSION_MS (null when admin access is off). */
export async function newAdminGrant(now = Date.now()): Promise<AdminGrant | null> {
  const password = adminPassword();
  if (password === null) return null;
  const salt = crypto.randomBytes(16).toString("base64url");
  const grant = {
    id: crypto.randomBytes(16).toString("base64url"),
    salt,
    hash: await passwordHash(password, salt),
    until: new Date(now + ADMIN_SESSION_MS).toISOString(),
  };
  remember(checkedKey(grant, password), true);
  return grant;
}

/** Is an admin grant (as the session keeps it) still good: made with the current password, not expired? */
export async function adminGrantValid(grant: Partial<AdminGrant> | undefined, now = Date.now()): Promise<boolean> {
  const password = adminPassword();
  if (password === null || !grant?.id || !grant.salt || !grant.hash || !grant.until) return false;
  if (!(Date.parse(grant.until) > now)) return false;
  const full = grant as AdminGrant;
  const key = checkedKey(full, password);
  const known = checked.get(key);
  if (known !== undefined) return known;
  const a = Buffer.from(full.hash);
  const b = Buffer.from(await passwordHash(password, full.salt));
  const valid = a.length === b.length && crypto.timingSafeEqual(a, b);
  remember(key, valid);
  return valid;
}
