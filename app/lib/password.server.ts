// Passwords: scrypt from node:crypto, a memory-hard function. Parameters follow OWASP's
// Password Storage Cheat Sheet (N=2^14, r=8, p=5: one of its equal-strength scrypt
// settings, 16 MiB per hash; see docs/decisions/0006-accounts-and-tokens.md).
// The parameters travel inside the stored string, so they can be raised later and old
// hashes still verify.
//
// Each hash takes about a quarter of a second of one core and 16 MiB: a process-wide cap lets a
// few run at once (libuv's four threads) and a few more wait; a request beyond that is answered
// 503 at once, so a burst of logins cannot queue without end and hold the server's memory.
import crypto from "node:crypto";
import { promisify } from "node:util";
import { AppError } from "./errors.server";

const rawScrypt = promisify(crypto.scrypt) as (
  password: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

/**
 * Hashes computed at once, hashes allowed to wait for one of them, and hashes (running or
 * waiting) one client may hold at once, so that one address cannot fill the queue for everyone.
 */
export const HASH_CAP = { running: 4, waiting: 16, perClient: 2 };
// Per server on purpose (ADR 0020): these count this process's own hashes, to bound its own CPU
// and memory; no other server needs them (the limits on tries per account and address are the
// database's: rate-limit.server), so nothing here can be stale.
let running = 0;
const waiting: (() => void)[] = [];
const heldBy = new Map<string, number>();

export const BUSY_MESSAGE = "The shop is busy. Please try again in a moment.";
export const TOO_MANY_AT_ONCE = "Too many attempts at once. Please wait a moment and try again.";

/**
 * Runs one hash inside the cap; 503 (with Retry-After) when the cap and its queue are full, 429
 * when `client` (an address key, when known) already holds its share of hashes.
 */
async function scrypt(
  password: crypto.BinaryLike,
  salt: crypto.BinaryLike,
  keylen: number,
  options: crypto.ScryptOptions,
  client: string | null,
) {
  const held = client ? (heldBy.get(client) ?? 0) : 0;
  if (client && held >= HASH_CAP.perClient) throw new AppError(429, TOO_MANY_AT_ONCE, { headers: { "Retry-After": "2" } });
  if (client) heldBy.set(client, held + 1);
  try {
    return await capped(password, salt, keylen, options);
  } finally {
    if (client) {
      const left = (heldBy.get(client) ?? 1) - 1;
      if (left > 0) heldBy.set(client, left);
      else heldBy.delete(client);
    }
  }
}

async function capped(password: crypto.BinaryLike, salt: crypto.BinaryLike, keylen: number, options: crypto.ScryptOptions) {
  if (running >= HASH_CAP.running) {
    if (waiting.length >= HASH_CAP.waiting) throw new AppError(503, BUSY_MESSAGE, { headers: { "Retry-After": "5" } });
    await new Promise<void>((resolve) => waiting.push(resolve));
  } else {
    running += 1;
  }
  try {
    return await rawScrypt(password, salt, keylen, options);
  } finally {
    // The slot passes straight to the next waiting hash, or is freed.
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

export const SCRYPT_PARAMS = { N: 2 ** 14, r: 8, p: 5 } as const;

interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/** The parameters new hashes are made with: SCRYPT_PARAMS, in every server. */
let current: ScryptParams = SCRYPT_PARAMS;

/**
 * For the unit and integration tests only (tests/support/vitest-setup.ts): the hundreds of
 * accounts they make each cost a quarter second of a core at SCRYPT_PARAMS. Cheaper parameters
 * for those, `null` for SCRYPT_PARAMS again (the files that test the hashing itself). Refused in
 * production; nothing but the tests' setup calls it.
 */
export function setHashParamsInTests(params: ScryptParams | null): void {
  if (process.env.NODE_ENV === "production") throw new Error("The password hash's parameters are fixed in production.");
  current = params ?? SCRYPT_PARAMS;
}

const KEY_LENGTH = 32;
const SALT_BYTES = 16;

function maxmem(N: number, r: number, p: number) {
  return 128 * N * r + 128 * r * p + 32 * 1024 * 1024;
}

/** `client`: the caller's address key (rate-limit.server's Client.ip), for the per-client cap. */
export async function hashPassword(password: string, client: string | null = null): Promise<string> {
  const { N, r, p } = current;
  const salt = crypto.randomBytes(SALT_BYTES);
  const key = await scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, { N, r, p, maxmem: maxmem(N, r, p) }, client);
  return `scrypt$${N}$${r}$${p}$${salt.toString("base64")}$${key.toString("base64")}`;
}

const HASH_FORMAT = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9+/=]+)\$([A-Za-z0-9+/=]+)$/;

export async function verifyPassword(password: string, stored: string | null, client: string | null = null): Promise<boolean> {
  const match = stored ? HASH_FORMAT.exec(stored) : null;
  if (!match) {
    // Spend the same time as a real check, so a missing account does not answer faster.
    await hashPassword(password, client);
    return false;
  }
  const [N, r, p] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const salt = Buffer.from(match[4]!, "base64");
  const expected = Buffer.from(match[5]!, "base64");
  if (N > 2 ** 20 || r > 32 || p > 32 || expected.length < 16) return false;
  const key = await scrypt(password.normalize("NFKC"), salt, expected.length, { N, r, p, maxmem: maxmem(N, r, p) }, client);
  return crypto.timingSafeEqual(key, expected);
}

/** Whether a stored hash uses weaker parameters than today's (rehash it at the next login). */
export function needsRehash(stored: string): boolean {
  const match = HASH_FORMAT.exec(stored);
  if (!match) return true;
  return Number(match[1]) !== current.N || Number(match[2]) !== current.r || Number(match[3]) !== current.p;
}
