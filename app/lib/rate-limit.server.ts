// Fixed-window rate limits kept in the database, so they hold across processes and restarts.
import { sql } from "kysely";
import { db, nowIso } from "./db.server";
import { env } from "./env.server";
import { AppError } from "./errors.server";

export interface Limit {
  /** what is limited, e.g. "newsletter" */
  name: string;
  /** tries per subject (an email, an account) in the window */
  max: number;
  /**
   * tries per client address in the window: higher, since many customers can share one
   * address (offices, mobile networks behind carrier-grade NAT)
   */
  perAddress?: number;
  windowMs: number;
}

const HOUR = 60 * 60 * 1000;
const QUARTER = 15 * 60 * 1000;

export const LIMITS = {
  newsletter: { name: "newsletter", max: 5, perAddress: 30, windowMs: HOUR },
  contact: { name: "contact", max: 5, perAddress: 20, windowMs: HOUR },
  /** per email: enough for typos, far too few to guess a password */
  login: { name: "login", max: 10, perAddress: 100, windowMs: QUARTER },
  signup: { name: "signup", max: 5, perAddress: 30, windowMs: HOUR },
  otpVerify: { name: "otp-verify", max: 10, perAddress: 60, windowMs: QUARTER },
  otpResend: { name: "otp-resend", max: 3, perAddress: 20, windowMs: QUARTER },
  passwordReset: { name: "password-reset", max: 3, perAddress: 20, windowMs: HOUR },
  resetSubmit: { name: "reset-submit", max: 10, perAddress: 30, windowMs: QUARTER },
  /** per account */
  changePassword: { name: "change-password", max: 5, windowMs: QUARTER },
  profile: { name: "profile", max: 10, windowMs: QUARTER },
  /** per account: placing orders and starting online payments */
  placeOrder: { name: "place-order", max: 20, windowMs: HOUR },
  paymentOrder: { name: "payment-order", max: 30, windowMs: HOUR },
  verifyPayment: { name: "verify-payment", max: 60, windowMs: QUARTER },
  orderStatus: { name: "order-status", max: 30, windowMs: QUARTER },
  /**
   * wrong Admin Access passwords (only failures count): per address, and a high shop-wide
   * ceiling for the one password, so many addresses cannot guess freely
   */
  adminLogin: { name: "admin-login", max: 200, perAddress: 10, windowMs: QUARTER },
} satisfies Record<string, Limit>;

/**
 * Shop-wide ceilings per action. Used when the client's address is unknown (a server other
 * than scripts/server.mjs, without a trusted proxy): a client changing the email on every
 * request is then held by these instead. With the address known they would mostly let one
 * client lock everyone out, so only the ones marked `always` hold then: the actions that mail
 * a code or link to any address typed in, so the shop cannot be made to mail strangers in bulk.
 */
export const SHOP_WIDE: Record<string, Limit & { always?: boolean }> = {
  newsletter: { name: "newsletter-all", max: 300, windowMs: HOUR },
  contact: { name: "contact-all", max: 60, windowMs: HOUR },
  login: { name: "login-all", max: 3000, windowMs: QUARTER },
  signup: { name: "signup-all", max: 300, windowMs: HOUR, always: true },
  "otp-verify": { name: "otp-verify-all", max: 1000, windowMs: QUARTER },
  "otp-resend": { name: "otp-resend-all", max: 300, windowMs: HOUR, always: true },
  "password-reset": { name: "password-reset-all", max: 200, windowMs: HOUR, always: true },
  "reset-submit": { name: "reset-submit-all", max: 300, windowMs: QUARTER },
};

/**
 * The client's address. The shop's own server (scripts/server.mjs) writes it into a header it
 * names on globalThis, overwriting anything the client sent. Elsewhere (the dev server) it is
 * known only behind a reverse proxy (TRUST_PROXY=1), as the right-most X-Forwarded-For entry:
 * the one the proxy added, not the ones the client wrote itself.
 */
export function clientIp(request: Request): string | null {
  const header = (globalThis as { __shopClientAddressHeader?: string }).__shopClientAddressHeader;
  if (header) return addressKey(request.headers.get(header));
  if (!env.TRUST_PROXY) return null;
  return addressKey(request.headers.get("X-Forwarded-For")?.split(",").at(-1)?.trim());
}

/**
 * The key an address is limited under: IPv4 as is (also when written as ::ffff:a.b.c.d), IPv6
 * by its /64, since one machine commonly holds a whole /64 and could take a new address for
 * every request.
 */
export function addressKey(address: string | null | undefined): string | null {
  if (!address) return null;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(":")) return address;
  const [head, tail = ""] = address.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = address.includes("::") ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

/**
 * Who is asking, as far as limits care: the client's address when it is known. Routes take it
 * from the request (clientOf) and hand it to the model verb that applies the limit.
 */
export interface Client {
  ip: string | null;
}

export function clientOf(request: Request): Client {
  return { ip: clientIp(request) };
}

/** A client with no known address (scripts, tests, the worker): only subject and shop-wide limits apply. */
export const UNKNOWN_CLIENT: Client = { ip: null };

/** Limits one try: by the client's address when known, and by what it names (an email, a token). */
export async function rateLimitClient(limit: Limit, client: Client, subject: string): Promise<void> {
  if (client.ip) await rateLimit({ ...limit, max: limit.perAddress ?? limit.max }, `ip:${client.ip}`);
  await rateLimit(limit, `s:${subject}`);
  const ceiling = SHOP_WIDE[limit.name];
  if (ceiling && (!client.ip || ceiling.always)) await rateLimit(ceiling, "all");
}

/** Limits one try of a signed-in customer's: the one key shape for every per-account limit. */
export function rateLimitUser(limit: Limit, userId: number): Promise<void> {
  return rateLimit(limit, `user:${userId}`);
}

/**
 * Refuse (429) when `limit` is already used up for this client's address or subject, without
 * counting a try: for limits that count only failures (rateLimitClient after one).
 */
export async function assertUnderLimit(limit: Limit, client: Client, subject: string): Promise<void> {
  const keys: [string, number][] = [[`${limit.name}:s:${subject}`, limit.max]];
  if (client.ip) keys.push([`${limit.name}:ip:${client.ip}`, limit.perAddress ?? limit.max]);
  const now = Date.now();
  for (const [key, max] of keys) {
    const row = await db.selectFrom("rateLimits").select(["count", "resetAt"]).where("key", "=", key.slice(0, 300)).executeTakeFirst();
    if (row && row.count >= max && Date.parse(row.resetAt) > now) throw tooMany(Date.parse(row.resetAt) - now);
  }
}

function tooMany(retryMs: number): AppError {
  return new AppError(429, "Too many attempts. Please wait a while and try again.", undefined, {
    "Retry-After": String(Math.max(1, Math.ceil(retryMs / 1000))),
  });
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
  if (row.count > limit.max) throw tooMany(Date.parse(row.resetAt) - now.getTime());
}
