// Server-side sessions: the cookie carries only a signed random id (256 bits);
// the data lives in the sessions table with idle and absolute expiry.
import crypto from "node:crypto";
import { createCookie, createSessionStorage } from "@remix-run/node";
import type { Session } from "@remix-run/node";
import { db, nowIso } from "./db.server";
import { isSecureRequest } from "./http.server";
import { sessionSecrets } from "./secrets.server";

export const SESSION_IDLE_MS = 30 * 24 * 60 * 60 * 1000; // a guest cart survives a month unused
export const SESSION_ABSOLUTE_MS = 90 * 24 * 60 * 60 * 1000;
const TOUCH_EVERY_MS = 60 * 60 * 1000;

export interface SessionData {
  cartId?: string;
  wishlistId?: string;
  userId?: number;
  isAdmin?: boolean;
  /** the Admin Access login behind isAdmin: a fingerprint of the password it used, and its end */
  adminGrant?: { key: string; until: string };
  /** false when the visitor signed in without 'Remember me': the cookie then ends with the browser */
  remember?: boolean;
  /** what the sign-up form held, so the OTP step (and 'Change details') can show it */
  pendingSignup?: { attemptId: number; name: string; email: string; mobile: string | null };
}

export const sessionCookie = createCookie("__session", {
  httpOnly: true,
  sameSite: "lax",
  secure: false, // decided per response: see commitSession
  path: "/",
  maxAge: SESSION_ABSOLUTE_MS / 1000, // the server enforces the idle limit
  secrets: sessionSecrets(),
});

function newSessionId() {
  return crypto.randomBytes(32).toString("base64url");
}

const storage = createSessionStorage<SessionData>({
  cookie: sessionCookie,
  async createData(data, expires) {
    const id = newSessionId();
    const now = new Date();
    const absolute = new Date(now.getTime() + SESSION_ABSOLUTE_MS);
    await db
      .insertInto("sessions")
      .values({
        id,
        userId: data.userId ?? null,
        data: JSON.stringify(data),
        createdAt: nowIso(now),
        lastSeenAt: nowIso(now),
        expiresAt: nowIso(expires && expires < absolute ? expires : absolute),
      })
      .execute();
    return id;
  },
  async readData(id) {
    const row = await db.selectFrom("sessions").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) return null;
    const now = Date.now();
    const idleExpired = Date.parse(row.lastSeenAt) + SESSION_IDLE_MS < now;
    if (idleExpired || Date.parse(row.expiresAt) < now) {
      await db.deleteFrom("sessions").where("id", "=", id).execute();
      return null;
    }
    const data = JSON.parse(row.data) as SessionData;
    if (Date.parse(row.lastSeenAt) + TOUCH_EVERY_MS < now) {
      // A visit keeps the session, and the guest cart and wishlist it points at, alive.
      const touched = nowIso();
      await db.updateTable("sessions").set({ lastSeenAt: touched }).where("id", "=", id).execute();
      if (data.cartId) await db.updateTable("carts").set({ updatedAt: touched }).where("id", "=", data.cartId).execute();
      if (data.wishlistId) await db.updateTable("wishlists").set({ updatedAt: touched }).where("id", "=", data.wishlistId).execute();
    }
    return data;
  },
  async updateData(id, data) {
    await db
      .updateTable("sessions")
      .set({ data: JSON.stringify(data), userId: data.userId ?? null, lastSeenAt: nowIso() })
      .where("id", "=", id)
      .execute();
  },
  async deleteData(id) {
    await db.deleteFrom("sessions").where("id", "=", id).execute();
  },
});

export type ShopSession = Session<SessionData>;

// One read of the sessions table per request, however many modules ask.
const perRequest = new WeakMap<Request, Promise<ShopSession>>();

export function getSession(request: Request): Promise<ShopSession> {
  let session = perRequest.get(request);
  if (!session) {
    session = storage.getSession(request.headers.get("Cookie"));
    perRequest.set(request, session);
  }
  return session;
}

export function commitSession(session: ShopSession, request: Request): Promise<string> {
  const secure = isSecureRequest(request);
  // Without 'Remember me' the cookie has no Max-Age: the browser drops it when it closes.
  if (session.get("remember") === false) return storage.commitSession(session, { secure, maxAge: undefined, expires: undefined });
  return storage.commitSession(session, { secure });
}

export function destroySession(session: ShopSession, request: Request): Promise<string> {
  return storage.destroySession(session, { secure: isSecureRequest(request) });
}

/** Give the session a fresh id (at login and privilege change): same data, old id gone. */
export async function rotateSession(session: ShopSession): Promise<ShopSession> {
  const fresh = await storage.getSession();
  for (const [key, value] of Object.entries(session.data)) {
    fresh.set(key as keyof SessionData, value as never);
  }
  if (session.id) await db.deleteFrom("sessions").where("id", "=", session.id).execute();
  return fresh;
}
