// Fixed-window rate limits kept in the database, so they hold across processes and restarts.
import { createHash } from "node:crypto";
import { isIP } from "node:net";
import { sql } from "kysely";
import { db, nowIso } from "./db.server";
import { env } from "./env.server";
import { AppError } from "./errors.server";
import { countRateLimitRefusal } from "./metrics.server";

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
const DAY = 24 * HOUR;
const MINUTE = 60 * 1000;

export const LIMITS = {
  newsletter: { name: "newsletter", max: 5, perAddress: 30, windowMs: HOUR },
  contact: { name: "contact", max: 5, perAddress: 20, windowMs: HOUR },
  /** per email: enough for typos, far too few to guess a password */
  login: { name: "login", max: 10, perAddress: 100, windowMs: QUARTER },
  signup: { name: "signup", max: 5, perAddress: 30, windowMs: HOUR },
  otpVerify: { name: "otp-verify", max: 10, perAddress: 60, windowMs: QUARTER },
  /**
   * per email, over a day: resends give a sign-up new codes (and new tries), so without this a
   * patient guesser could try about 960 of the 10,000 codes a day; with it, 30 (0.3%)
   */
  otpVerifyDay: { name: "otp-verify-day", max: 30, perAddress: 300, windowMs: DAY },
  otpResend: { name: "otp-resend", max: 3, perAddress: 20, windowMs: QUARTER },
  passwordReset: { name: "password-reset", max: 3, perAddress: 20, windowMs: HOUR },
  resetSubmit: { name: "reset-submit", max: 10, perAddress: 30, windowMs: QUARTER },
  /** per account */
  changePassword: { name: "change-password", max: 5, windowMs: QUARTER },
  profile: { name: "profile", max: 10, windowMs: QUARTER },
  /** per account: codes mailed to a new email address (asking for the change, and resends) */
  emailCode: { name: "email-code", max: 5, windowMs: HOUR },
  /**
   * per new address, from every account together (counted per account only, throwaway accounts
   * could mail one address without end): codes mailed to it for an email change
   */
  emailCodeTo: { name: "email-code-to", max: 5, perAddress: 20, windowMs: HOUR },
  /**
   * per new address over a day, from every account together: tries of the codes mailed to it, so
   * throwaway accounts each asking to move to one address cannot pool their own daily tries into a
   * guess of its code (the same figure as otpVerifyDay for a sign-up's)
   */
  emailConfirmToDay: { name: "email-confirm-to-day", max: 30, perAddress: 300, windowMs: DAY },
  /** per account: tries of an email change's code (a code also dies after 5 wrong tries) */
  emailConfirm: { name: "email-confirm", max: 10, windowMs: QUARTER },
  /**
   * per account, over a day: wrong current passwords (changing the email or the password), so a
   * stolen session cannot guess the password behind it at the quarter-hour limits' pace (about
   * 960 a day); a right one is given back (forgiveUserTry)
   */
  currentPasswordDay: { name: "current-password-day", max: 20, windowMs: DAY },
  /** per account, over a day: the same cap on guessing across resent codes as otpVerifyDay */
  emailConfirmDay: { name: "email-confirm-day", max: 30, windowMs: DAY },
  /** per account: placing orders and starting online payments */
  placeOrder: { name: "place-order", max: 20, windowMs: HOUR },
  paymentOrder: { name: "payment-order", max: 30, windowMs: HOUR },
  /**
   * per account, over a day: payment orders that hold stock (ADR 0023). Past it a payment order
   * holds nothing (the customer can still pay; stock is checked when the order is placed), so one
   * account cannot keep pieces held all day by starting a payment every quarter hour.
   */
  stockHoldDay: { name: "stock-hold-day", max: 8, windowMs: DAY },
  verifyPayment: { name: "verify-payment", max: 60, windowMs: QUARTER },
  /**
   * applying a coupon code (cart, checkout, API), per account and per address: every try counts,
   * so codes cannot be guessed at speed (20 a quarter hour is far more than a shopper types)
   */
  coupon: { name: "coupon", max: 20, perAddress: 60, windowMs: QUARTER },
  /**
   * codes that exist nowhere (throwaway accounts on many addresses could otherwise guess in
   * parallel), per account and per address over an hour, under a shop-wide ceiling
   * (SHOP_WIDE): every try counts before the code is read and a code that exists is given back, so
   * the answer never tells a guesser past a limit which codes exist
   */
  couponUnknown: { name: "coupon-unknown", max: 20, perAddress: 60, windowMs: HOUR },
  orderStatus: { name: "order-status", max: 30, windowMs: QUARTER },
  /** per account: reviews written or edited, and helpful votes (ADR 0018) */
  review: { name: "review", max: 20, windowMs: HOUR },
  reviewVote: { name: "review-vote", max: 60, windowMs: HOUR },
  /**
   * per address: searches that cost the server more than SLOW_SEARCH.ms, 100 (crafted many-word
   * searches of common words took 0.1-0.4 s of SQLite each before ADR 0014's tier indexes). Ordinary
   * searches never count, so customers sharing one address (carrier-grade NAT) are not held by it.
   */
  slowSearch: { name: "slow-search", max: 10, windowMs: MINUTE },
  /** per address: guest carts and wishlists made (a browser makes one of each; a script without cookies, one a request) */
  guestRows: { name: "guest-rows", max: 300, windowMs: HOUR },
  /**
   * wrong Admin Access passwords (only failures count): per address (the subject is the
   * address), under a shop-wide ceiling for the one password (SHOP_WIDE)
   */
  adminLogin: { name: "admin-login", max: 10, windowMs: QUARTER },
  /** staff password reset links asked for, per email and per address (as passwordReset for customers) */
  staffPasswordReset: { name: "staff-password-reset", max: 3, perAddress: 20, windowMs: HOUR },
  /** passwords set through a staff invitation or reset link, per link and per address (as resetSubmit) */
  staffLinkSubmit: { name: "staff-link-submit", max: 10, perAddress: 30, windowMs: QUARTER },
  /**
   * staff sign-in: wrong passwords per account (its email) and per address, as the customers'
   * login (only failures count; a right password starts the account's count again)
   */
  staffLogin: { name: "staff-login", max: 10, perAddress: 100, windowMs: QUARTER },
  /**
   * staff two-step codes (a 6-digit code or a recovery code) per account and per address: wrong
   * ones only; with at most three time steps accepted at once, 10 tries a quarter hour leave a
   * guesser about 3 chances in 100,000
   */
  staffCode: { name: "staff-code", max: 10, perAddress: 60, windowMs: QUARTER },
  /** the same over a day, so a patient guesser cannot keep trying at the quarter hour's pace */
  staffCodeDay: { name: "staff-code-day", max: 30, perAddress: 300, windowMs: DAY },
  /** per staff account: wrong current passwords when changing the password on /admin/account */
  staffPassword: { name: "staff-password", max: 5, windowMs: QUARTER },
} satisfies Record<string, Limit>;

/**
 * Shop-wide ceilings per action. Used when the client's address is unknown (a server other
 * than server/index.ts, without a trusted proxy): a client changing the email on every
 * request is then held by these instead. With the address known they would mostly let one
 * client lock everyone out, so only the ones marked `always` hold then: the actions that mail
 * a code or link to any address typed in, so the shop cannot be made to mail strangers in bulk,
 * the Admin Access password, and coupon codes that exist nowhere (guessed from many addresses).
 * Even those refuse only the clients that used the ceiling up: one that has barely tried passes
 * after a pause (SLOWDOWN), so a handful of addresses cannot
 * lock every customer out. RATE_LIMIT_CEILINGS changes the figures (.env.example).
 */
export const SHOP_WIDE: Record<string, Limit & { always?: boolean }> = {
  newsletter: { name: "newsletter-all", max: 300, windowMs: HOUR },
  contact: { name: "contact-all", max: 60, windowMs: HOUR },
  login: { name: "login-all", max: 3000, windowMs: QUARTER },
  signup: { name: "signup-all", max: 300, windowMs: HOUR, always: true },
  "otp-verify": { name: "otp-verify-all", max: 1000, windowMs: QUARTER },
  "otp-resend": { name: "otp-resend-all", max: 300, windowMs: HOUR, always: true },
  "password-reset": { name: "password-reset-all", max: 200, windowMs: HOUR, always: true },
  "email-code-to": { name: "email-code-to-all", max: 200, windowMs: HOUR, always: true },
  "coupon-unknown": { name: "coupon-unknown-all", max: 200, windowMs: HOUR, always: true },
  "reset-submit": { name: "reset-submit-all", max: 300, windowMs: QUARTER },
  "admin-login": { name: "admin-login-all", max: 200, windowMs: QUARTER, always: true },
  "staff-password-reset": { name: "staff-password-reset-all", max: 100, windowMs: HOUR, always: true },
  "staff-link-submit": { name: "staff-link-submit-all", max: 300, windowMs: QUARTER },
  "staff-login": { name: "staff-login-all", max: 1000, windowMs: QUARTER },
  "staff-code": { name: "staff-code-all", max: 1000, windowMs: QUARTER },
};
for (const [name, max] of Object.entries(env.RATE_LIMIT_CEILINGS)) {
  const ceiling = SHOP_WIDE[name];
  if (!ceiling)
    throw new Error(`Invalid environment: RATE_LIMIT_CEILINGS: no ceiling is called "${name}" (${Object.keys(SHOP_WIDE).join(", ")})`);
  ceiling.max = max;
}

/**
 * Over a shop-wide ceiling: a client with at most `fairShare` tries in the window waits `ms`
 * and goes on; the others are refused (429).
 */
export const SLOWDOWN = { ms: 2000, fairShare: 2 };

/** IPv6 networks are limited as a whole /48 too, at this many times one address's figure. */
const NETWORK_FACTOR = 4;

/** The header the shop's own server writes each client's address into; null under any other server. */
let clientAddressHeader: string | null = null;

/**
 * Called by the shop's own server (server/index.ts, through the build's entry) before it serves:
 * it writes each request's client address into `header`, overwriting anything the client sent
 * under that name, so the app may trust it.
 */
export function trustClientAddressHeader(header: string): void {
  clientAddressHeader = header;
}

/**
 * The client's address. The shop's own server writes it into the header it named through
 * trustClientAddressHeader. Elsewhere (the dev server) it is known only behind a reverse proxy
 * (TRUST_PROXY=1), as the right-most X-Forwarded-For entry: the one the proxy added, not the ones
 * the client wrote itself.
 */
export function clientIp(request: Request): string | null {
  const header = clientAddressHeader;
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
  // Only an address is an address: whatever else a header holds never becomes part of a key.
  if (!address || !isIP(address)) return null;
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
 * The network an address key belongs to, for IPv6 only: its /48, the block one customer's
 * provider commonly hands out (a /64 each is the address key). IPv4 addresses are too scarce to
 * rotate, and one is often shared by many customers (carrier-grade NAT): no network key.
 */
export function networkKey(ipKey: string): string | null {
  if (!ipKey.endsWith("::/64")) return null;
  return `${ipKey.slice(0, -"::/64".length).split(":").slice(0, 3).join(":")}::/48`;
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

/**
 * What a subject (an email) takes from all addresses together, as a multiple of what one address
 * may spend on it: past that, every try is slowed down and only the addresses that barely tried
 * pass (SLOWDOWN), so strangers spending an email's tries cannot lock its owner out.
 */
export const SUBJECT_SPREAD = 3;

/**
 * Limits one try: by the client's address (and IPv6 network) when known, by what it names (an
 * email, a token), and shop-wide. With the address known, the subject's hard limit holds per
 * address (`s:{subject}:ip:{ip}`): a stranger who spent it from their own address cannot lock
 * the subject's owner out from theirs. Across addresses the subject takes SUBJECT_SPREAD times
 * that, then slows down; only addresses past their fair share are refused (the 2026-11-23 review
 * found 40 wrong logins an hour from one address kept a customer out for good). Without an
 * address every try counts against the subject itself.
 */
export async function rateLimitClient(limit: Limit, client: Client, subject: string): Promise<void> {
  const keys = clientKeys(limit, client, subject);
  await rateLimitAddress({ ...limit, max: limit.perAddress ?? limit.max }, client);
  if (!keys.subjectAtAddress) await countTry(limit, keys.subject);
  else {
    await countTry(limit, keys.subjectAtAddress);
    await underShare({ ...limit, max: limit.max * SUBJECT_SPREAD }, keys.subject, keys.subjectAtAddress);
  }
  if (keys.ceiling) {
    if (keys.address) await underShare(keys.ceiling.limit, keys.ceiling.key, keys.address);
    else await countTry(keys.ceiling.limit, keys.ceiling.key);
  }
}

/**
 * A subject as it appears in a key: a digest, so that whatever a client types (an email holding
 * ':ip:' and someone's address, 300 characters that a cut would make equal to another's) names
 * exactly one key, never another subject's or another address's.
 */
function subjectDigest(subject: string): string {
  return createHash("sha256").update(subject).digest("base64url").slice(0, 27);
}

/**
 * Every key one try of rateLimitClient counts under, built in this one place (forgiveTry gives
 * back exactly these). Addresses come from addressKey (an IP address or its /64, never free
 * text); subjects are digests.
 */
function clientKeys(limit: Limit, client: Client, subject: string) {
  const s = `${limit.name}:s:${subjectDigest(subject)}`;
  const network = client.ip ? networkKey(client.ip) : null;
  const ceiling = SHOP_WIDE[limit.name];
  return {
    subject: s,
    // An IPv6 client spends a subject's tries by its /48, not its /64: one customer's block holds
    // 65,536 /64s (counted by /64, one /48 could guess 400 passwords a quarter hour).
    subjectAtAddress: client.ip ? `${s}:ip:${network ?? client.ip}` : null,
    address: client.ip ? `${limit.name}:ip:${client.ip}` : null,
    network: network ? `${limit.name}:net:${network}` : null,
    ceiling: ceiling && (!client.ip || ceiling.always) ? { limit: ceiling, key: `${ceiling.name}:all` } : null,
  };
}

/**
 * Counts a try against a shared limit. Past it, a client whose own count (`ownKey`) is within
 * SLOWDOWN.fairShare waits SLOWDOWN.ms and goes on; the others are refused (429).
 */
async function underShare(limit: Limit, key: string, ownKey: string): Promise<void> {
  const retryMs = await tryCounted(limit, key);
  if (retryMs === null) return;
  const own = await db.selectFrom("rateLimits").select("count").where("key", "=", ownKey).executeTakeFirst();
  if ((own?.count ?? 0) > SLOWDOWN.fairShare) throw refused(limit, retryMs);
  await new Promise((resolve) => setTimeout(resolve, SLOWDOWN.ms));
}

/** Limits one try per client address (and IPv6 network) only; a client with no known address is not held. */
export async function rateLimitAddress(limit: Limit, client: Client): Promise<void> {
  const keys = clientKeys(limit, client, "");
  if (keys.address) await countTry(limit, keys.address);
  if (keys.network) await countTry({ ...limit, max: limit.max * NETWORK_FACTOR }, keys.network);
}

/** Has the client's address spent `limit` already (nothing counted)? A client with no known address never has. */
export async function addressOverLimit(limit: Limit, client: Client): Promise<boolean> {
  const key = clientKeys(limit, client, "").address;
  if (!key) return false;
  const row = await db.selectFrom("rateLimits").select(["count", "resetAt"]).where("key", "=", key).executeTakeFirst();
  return Boolean(row && row.count >= limit.max && row.resetAt >= nowIso());
}

/** Limits one try of a signed-in customer's: the one key shape for every per-account limit. */
export function rateLimitUser(limit: Limit, userId: number): Promise<void> {
  return countTry(limit, `${limit.name}:user:${userId}`);
}

/** A try counted by rateLimitUser that succeeded: it does not count after all. */
export async function forgiveUserTry(limit: Limit, userId: number): Promise<void> {
  await db
    .updateTable("rateLimits")
    .set({ count: sql`case when count > 0 then count - 1 else 0 end` })
    .where("key", "=", `${limit.name}:user:${userId}`)
    .execute();
}

/**
 * A try counted by rateLimitClient that succeeded: it does not count after all. The address
 * (and the shop-wide ceiling) get it back; with `reset` the subject's count starts again (a
 * customer's right password ends a run of typos). The try is counted before the check it guards
 * and forgiven after, so a burst of parallel guesses can never all pass a count of failures.
 */
export async function forgiveTry(limit: Limit, client: Client, subject: string, { reset = false } = {}): Promise<void> {
  const keys = clientKeys(limit, client, subject);
  // `reset` starts again the subject's own count from this client.
  const own = keys.subjectAtAddress ?? keys.subject;
  const shared = [keys.subjectAtAddress ? keys.subject : null, keys.address, keys.network, keys.ceiling?.key].filter(
    (k): k is string => typeof k === "string",
  );
  if (reset) await db.deleteFrom("rateLimits").where("key", "=", own).execute();
  else shared.unshift(own);
  if (shared.length === 0) return;
  await db
    .updateTable("rateLimits")
    .set({ count: sql`case when count > 0 then count - 1 else 0 end` })
    .where("key", "in", shared)
    .execute();
}

function tooMany(retryMs: number): AppError {
  return new AppError(429, "Too many attempts. Please wait a while and try again.", {
    headers: {
      "Retry-After": String(Math.max(1, Math.ceil(retryMs / 1000))),
    },
  });
}

/** A refusal by `limit`: counted in shop_rate_limit_refusals_total, answered 429. */
function refused(limit: Limit, retryMs: number): AppError {
  countRateLimitRefusal(limit.name);
  return tooMany(retryMs);
}

/**
 * Counts one hit under a key built by clientKeys or rateLimitUser (never from raw client text);
 * throws 429 once `max` hits happened inside the window.
 */
async function countTry(limit: Limit, key: string): Promise<void> {
  const retryMs = await tryCounted(limit, key);
  if (retryMs !== null) throw refused(limit, retryMs);
}

/** Counts one hit under `key`: null while inside `limit`, else how long until its window ends. */
async function tryCounted(limit: Limit, key: string): Promise<number | null> {
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
  return row.count > limit.max ? Date.parse(row.resetAt) - now.getTime() : null;
}
