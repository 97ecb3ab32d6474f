// Server-side sessions: the cookie carries only a signed random id (256 bits);
// the data lives in the sessions table with idle and absolute expiry.
//
// The cookie and the row agree: a cookie whose row is gone (expired, revoked by a password
// change, its user deleted) starts a fresh session, which the next commit gives a new id and
// cookie; a commit that finds no row to update fails (409) rather than writing nowhere; and the
// cookie's Max-Age is what the server will keep: the idle window, cut at the absolute end,
// renewed when a visit touches the session (refreshedSessionCookie, called by entry.server).
import crypto from "node:crypto";
import { createSession, createSessionStorage } from "@remix-run/node";
import type { Session } from "@remix-run/node";
import type { Db } from "./db.server";
import { db, expectChanged, nowIso } from "./db.server";
import { AppError } from "./errors.server";
import { isSecureRequest } from "./http.server";
import type { AdminGrant } from "./admin-password.server";
import { sessionSignedCookie } from "./secrets.server";

export const SESSION_IDLE_MS = 30 * 24 * 60 * 60 * 1000; // a guest cart survives a month unused
export const SESSION_ABSOLUTE_MS = 90 * 24 * 60 * 60 * 1000;
/**
 * A guest's new session lives this long until its cookie comes back (a browser sends it with the
 * very next request; a script that keeps no cookies never does), then the full 90 days.
 */
export const FIRST_VISIT_MS = 24 * 60 * 60 * 1000;
const TOUCH_EVERY_MS = 60 * 60 * 1000;

/** The step between a staff member's right password and their code: who, until when, and whether two-step must be set up first. */
export interface StaffPending {
  staffId: number;
  until: string;
  setup: boolean;
  /** a digest of the password hash the sign-in was checked against (the sign-in fails if it changed) */
  passwordTag: string;
}

export interface SessionData {
  cartId?: string;
  wishlistId?: string;
  userId?: number;
  isAdmin?: boolean;
  /** the Admin Access login behind isAdmin: a salted scrypt hash of the password it used, and its end */
  adminGrant?: AdminGrant;
  /** false when the visitor signed in without 'Remember me': the cookie then ends with the browser */
  remember?: boolean;
  /** the staff member signed in (docs/decisions/0033), and when: staff sessions end sooner (web/staff.server) */
  staffId?: number;
  staffSignedInAt?: string;
  /** what the staff member's sessions list shows of this sign-in: the browser and the address it came from */
  staffDevice?: { userAgent: string; ip: string | null };
  /** a right staff password waiting for its code (web/sign-in.server's beginStaffCodeStep): never the password */
  staffPending?: StaffPending;
  /** the two-step secret being set up, until its first code confirms it (shown only on the setup page) */
  staffSetupSecret?: string;
  /** what the sign-up form held, so the OTP step (and 'Change details') can show it */
  pendingSignup?: { attemptId: string; name: string; email: string; mobile: string | null };
}

export const sessionCookie = sessionSignedCookie("__session", {
  httpOnly: true,
  sameSite: "lax",
  secure: false, // decided per response: see commitSession
  path: "/",
  maxAge: SESSION_IDLE_MS / 1000, // each commit sets its own (cookieMaxAge)
});

function newSessionId() {
  return crypto.randomBytes(32).toString("base64url");
}

/** When each loaded session's row ends (absolute expiry), and whether this request touched it. */
const rowEnds = new WeakMap<object, number>();
/** When each loaded session's row was last seen before this request (its idle clock, to the hour). */
const rowSeen = new WeakMap<object, number>();

/** When the session was last seen before this request (ms), or null for a session with no row yet. */
export function lastSeenBefore(session: ShopSession): number | null {
  return rowSeen.get(session) ?? null;
}

async function loadRow(id: string): Promise<{ data: SessionData; expiresAt: number; touched: boolean; seenAt: number } | null> {
  const row = await db.selectFrom("sessions").selectAll().where("id", "=", id).executeTakeFirst();
  if (!row) return null;
  const now = Date.now();
  const idleExpired = Date.parse(row.lastSeenAt) + SESSION_IDLE_MS < now;
  if (idleExpired || Date.parse(row.expiresAt) < now) {
    await db.deleteFrom("sessions").where("id", "=", id).execute();
    return null;
  }
  const data = JSON.parse(row.data) as SessionData;
  let expiresAt = Date.parse(row.expiresAt);
  const created = Date.parse(row.createdAt);
  const fullEnd = created + SESSION_ABSOLUTE_MS;
  if (expiresAt <= created + FIRST_VISIT_MS) {
    // The cookie came back: a first-visit session becomes a full one.
    expiresAt = fullEnd;
    await db
      .updateTable("sessions")
      .set({ expiresAt: nowIso(new Date(fullEnd)) })
      .where("id", "=", id)
      .execute();
  }
  const touched = Date.parse(row.lastSeenAt) + TOUCH_EVERY_MS < now;
  if (touched) {
    // A visit keeps the session, and the guest cart and wishlist it points at, alive.
    const stamp = nowIso();
    await db.updateTable("sessions").set({ lastSeenAt: stamp }).where("id", "=", id).execute();
    if (data.cartId) await db.updateTable("carts").set({ updatedAt: stamp }).where("id", "=", data.cartId).execute();
    if (data.wishlistId) await db.updateTable("wishlists").set({ updatedAt: stamp }).where("id", "=", data.wishlistId).execute();
  }
  return { data, expiresAt, touched, seenAt: Date.parse(row.lastSeenAt) };
}

/** A new session's row (a signed-in one lives the absolute window, a guest's first one a day): its id. */
async function insertRow(db: Db, data: Partial<SessionData>): Promise<string> {
  const id = newSessionId();
  const now = new Date();
  const lifetime = data.userId ? SESSION_ABSOLUTE_MS : FIRST_VISIT_MS;
  await db
    .insertInto("sessions")
    .values({
      id,
      userId: data.userId ?? null,
      staffId: data.staffId ?? null,
      data: JSON.stringify(data),
      createdAt: nowIso(now),
      lastSeenAt: nowIso(now),
      expiresAt: nowIso(new Date(now.getTime() + lifetime)),
    })
    .execute();
  return id;
}

const storage = createSessionStorage<SessionData>({
  cookie: sessionCookie,
  createData: (data) => insertRow(db, data),
  async readData(id) {
    return (await loadRow(id))?.data ?? null;
  },
  async updateData() {
    // Sessions with a row are saved by saveChanges (commitSession), never here.
    throw new Error("session rows are updated through saveChanges");
  },
  async deleteData(id) {
    await db.deleteFrom("sessions").where("id", "=", id).execute();
  },
});

export type ShopSession = Session<SessionData>;

// One read of the sessions table per request, however many modules ask.
const perRequest = new WeakMap<Request, Promise<ShopSession>>();
const touchedBy = new WeakSet<Request>();

async function loadSession(request: Request): Promise<ShopSession> {
  const id: unknown = await sessionCookie.parse(request.headers.get("Cookie"));
  const row = typeof id === "string" && id ? await loadRow(id) : null;
  if (!row) {
    // No cookie, or one whose row is gone: a fresh session (no id), made a row at its first commit.
    return createSession<SessionData>({}, "");
  }
  const session = createSession<SessionData>(row.data, id as string);
  rowEnds.set(session, row.expiresAt);
  rowSeen.set(session, row.seenAt);
  loadedData.set(session, JSON.stringify(row.data));
  if (row.touched) touchedBy.add(request);
  return session;
}

export function getSession(request: Request): Promise<ShopSession> {
  let session = perRequest.get(request);
  if (!session) {
    session = loadSession(request);
    perRequest.set(request, session);
  }
  return session;
}

/** Each loaded session's data as read, so a commit writes back only the keys its request changed. */
const loadedData = new WeakMap<object, string>();

/**
 * Writes the keys this request changed into the row, merged with what the row holds now: two
 * requests of one browser at once (a first cart add and a first wishlist save) each keep their
 * key instead of the later one writing back the whole data it read. A row gone meanwhile (signed
 * out elsewhere, a password change) fails (409): the change has nowhere to live.
 */
async function saveChanges(session: ShopSession): Promise<void> {
  const before = JSON.parse(loadedData.get(session) ?? "{}") as Record<string, unknown>;
  const after = session.data as Record<string, unknown>;
  const changed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]),
  );
  const gone = () => new AppError(409, "Your session ended while this was being saved. Please try again.");
  const merged = await db.transaction().execute(async (trx) => {
    // The row first (its lock, on PostgreSQL), then what it holds now: two commits queue here.
    const touched = await trx.updateTable("sessions").set({ lastSeenAt: nowIso() }).where("id", "=", session.id).executeTakeFirst();
    expectChanged(touched, gone);
    const row = await trx.selectFrom("sessions").select("data").where("id", "=", session.id).executeTakeFirstOrThrow();
    const data = JSON.parse(row.data) as Record<string, unknown>;
    for (const key of changed) {
      if (key in after) data[key] = after[key];
      else delete data[key];
    }
    const userId = typeof data.userId === "number" ? data.userId : null;
    const staffId = typeof data.staffId === "number" ? data.staffId : null;
    await trx
      .updateTable("sessions")
      .set({ data: JSON.stringify(data), userId, staffId })
      .where("id", "=", session.id)
      .execute();
    return data;
  });
  loadedData.set(session, JSON.stringify(merged));
}

/** Seconds the cookie may live: the idle window, cut at the row's absolute end. */
function cookieMaxAge(session: ShopSession): number {
  const end = rowEnds.get(session) ?? Date.now() + SESSION_ABSOLUTE_MS;
  return Math.max(0, Math.floor(Math.min(SESSION_IDLE_MS, end - Date.now()) / 1000));
}

function cookieOptions(session: ShopSession, request: Request) {
  const secure = isSecureRequest(request);
  // Without 'Remember me' the cookie has no Max-Age: the browser drops it when it closes.
  return session.get("remember") === false ? { secure, maxAge: undefined, expires: undefined } : { secure, maxAge: cookieMaxAge(session) };
}

export async function commitSession(session: ShopSession, request: Request): Promise<string> {
  const options = cookieOptions(session, request);
  if (!session.id) return storage.commitSession(session, options);
  await saveChanges(session);
  return sessionCookie.serialize(session.id, options);
}

/**
 * A session with no row yet (a sign-in's, from rotateSession), its row written in `trx`, the
 * caller's transaction: the row commits only with what the caller checked there (the password
 * the sign-in was checked against is still the account's). The Set-Cookie that names it.
 */
export async function commitNewSession(trx: Db, session: ShopSession, request: Request): Promise<string> {
  if (session.id) throw new Error("commitNewSession writes a session that has no row yet");
  const id = await insertRow(trx, session.data);
  return sessionCookie.serialize(id, cookieOptions(session, request));
}

/**
 * The renewed cookie for a request whose visit touched its session (at most hourly), unless the
 * response already sets one; null otherwise. The idle window then starts again in the browser too.
 */
export async function refreshedSessionCookie(request: Request, responseHeaders: Headers): Promise<string | null> {
  if (!touchedBy.has(request)) return null;
  if (responseHeaders.getSetCookie().some((c) => c.startsWith(`${sessionCookie.name}=`))) return null;
  const session = await getSession(request);
  if (!session.id || session.get("remember") === false) return null;
  return commitSession(session, request).catch(() => null);
}

export function destroySession(session: ShopSession, request: Request): Promise<string> {
  return storage.destroySession(session, { secure: isSecureRequest(request) });
}

/** Give the session a fresh id (at login and privilege change): same data, old id gone (in `trx` when given). */
export async function rotateSession(session: ShopSession, trx: Db = db): Promise<ShopSession> {
  const fresh = await storage.getSession();
  for (const [key, value] of Object.entries(session.data)) {
    fresh.set(key as keyof SessionData, value as never);
  }
  if (session.id) await trx.deleteFrom("sessions").where("id", "=", session.id).execute();
  return fresh;
}
