// Fixed-window rate limits kept in the database, so they hold across processes and restarts.
import { sql } from "kysely";
import { db, nowIso } from "./db.server";
import { env } from "./env.server";
import { AppError } from "./errors.server";

export interface Limit {
  /** what is limited, e.g. "newsletter" */
  name: string;
  max: number;
  windowMs: number;
}

const HOUR = 60 * 60 * 1000;
const QUARTER = 15 * 60 * 1000;

export const LIMITS = {
  newsletter: { name: "newsletter", max: 5, windowMs: HOUR },
  contact: { name: "contact", max: 5, windowMs: HOUR },
  /** per email (and per client address): enough for typos, far too few to guess a password */
  login: { name: "login", max: 10, windowMs: QUARTER },
  signup: { name: "signup", max: 5, windowMs: HOUR },
  otpVerify: { name: "otp-verify", max: 10, windowMs: QUARTER },
  otpResend: { name: "otp-resend", max: 3, windowMs: QUARTER },
  passwordReset: { name: "password-reset", max: 3, windowMs: HOUR },
  changePassword: { name: "change-password", max: 5, windowMs: QUARTER },
} satisfies Record<string, Limit>;

/**
 * Shop-wide ceilings per action, whoever asks. Without a trusted proxy the client's address is
 * unknown, so a client changing the email on every request is held by these instead.
 */
export const SHOP_WIDE: Record<string, Limit> = {
  newsletter: { name: "newsletter-all", max: 300, windowMs: HOUR },
  contact: { name: "contact-all", max: 60, windowMs: HOUR },
  login: { name: "login-all", max: 3000, windowMs: QUARTER },
  signup: { name: "signup-all", max: 300, windowMs: HOUR },
  "otp-verify": { name: "otp-verify-all", max: 1000, windowMs: QUARTER },
  "otp-resend": { name: "otp-resend-all", max: 300, windowMs: HOUR },
  "password-reset": { name: "password-reset-all", max: 200, windowMs: HOUR },
};

/**
 * The client's address. remix-serve does not hand the socket address to the app, so it is
 * known only behind a reverse proxy that sets X-Forwarded-For (TRUST_PROXY=1); without
 * one the header is the client's own claim and is ignored.
 */
export function clientIp(request: Request): string | null {
  if (!env.TRUST_PROXY) return null;
  const forwarded = request.headers.get("X-Forwarded-For")?.split(",")[0]?.trim();
  return forwarded || request.headers.get("X-Real-IP") || null;
}

/** Limits one request: by the client's address when known, and by what it names (an email). */
export async function rateLimitRequest(limit: Limit, request: Request, subject: string): Promise<void> {
  const ip = clientIp(request);
  if (ip) await rateLimit(limit, `ip:${ip}`);
  await rateLimit(limit, `s:${subject}`);
  const ceiling = SHOP_WIDE[limit.name];
  if (ceiling) await rateLimit(ceiling, "all");
}

/** Count one hit; throws 429 once `max` hits happened inside the window. */
export async function rateLimit(limit: Limit, subject: string): Promise<void> {
  const key = `${limit.name}:${subject}`.slice(0, 300);
  const now = new Date();
  const resetAt = nowIso(new Date(now.getTime() + limit.windowMs));
  const row = await db
    .insertInto("rateLimits")
    .values({ key, count: 1, resetAt })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({
        count: sql`case when rate_limits.reset_at < ${nowIso(now)} then 1 else rate_limits.count + 1 end`,
        resetAt: sql`case when rate_limits.reset_at < ${nowIso(now)} then ${resetAt} else rate_limits.reset_at end`,
      }),
    )
    .returning(["count", "resetAt"])
    .executeTakeFirstOrThrow();
  if (row.count > limit.max) {
    const retryAfter = Math.max(1, Math.ceil((Date.parse(row.resetAt) - now.getTime()) / 1000));
    throw new AppError(429, "Too many attempts. Please wait a while and try again.", undefined, {
      "Retry-After": String(retryAfter),
    });
  }
}
