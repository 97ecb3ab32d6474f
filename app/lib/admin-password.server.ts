// The Admin Access password and what a session keeps to prove it was given: never the
// password, only a keyed fingerprint of it, so changing ADMIN_PASSWORD ends every admin session.
import crypto from "node:crypto";
import { env, isProduction } from "./env.server";
import { sessionSecrets } from "./secrets.server";

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

/** A keyed fingerprint of the current password (the session secret is the key). */
export function adminKey(): string | null {
  const password = adminPassword();
  if (password === null) return null;
  return crypto.createHmac("sha256", sessionSecrets()[0]!).update(`admin:${password}`).digest("base64url");
}

/** Is an admin grant (as the session keeps it) still good: same password, not expired? */
export function adminGrantValid(grant: { key?: string; until?: string } | undefined, now = Date.now()): boolean {
  const key = adminKey();
  if (!grant?.key || !grant.until || key === null) return false;
  if (!(Date.parse(grant.until) > now)) return false;
  const a = Buffer.from(grant.key);
  const b = Buffer.from(key);
  return a.length === b.length && crypto.timingSafeEqual(a, b);
}
