// Rows a visitor owns through the session before signing in: the cart and the wishlist.
// The session carries the row's random id; the row is created on first use.
import crypto from "node:crypto";
import type { Db } from "./db.server";
import { db as defaultDb, nowIso } from "./db.server";
import type { SessionData } from "./session.server";
import { commitSession, getSession } from "./session.server";

export type OwnedTable = "carts" | "wishlists";
const SESSION_KEY: Record<OwnedTable, keyof Pick<SessionData, "cartId" | "wishlistId">> = {
  carts: "cartId",
  wishlists: "wishlistId",
};

async function exists(table: OwnedTable, id: string, db: Db): Promise<boolean> {
  const row = await db.selectFrom(table).select("id").where("id", "=", id).executeTakeFirst();
  return Boolean(row);
}

/** The id of this request's live row, if any. */
export async function findOwned(request: Request, table: OwnedTable, db: Db = defaultDb): Promise<string | null> {
  const session = await getSession(request);
  const id = session.get(SESSION_KEY[table]);
  return id && (await exists(table, id, db)) ? id : null;
}

/** The session's row, created when missing. `headers` carries the Set-Cookie to send back. */
export async function ensureOwned(request: Request, table: OwnedTable, db: Db = defaultDb): Promise<{ id: string; headers: Headers }> {
  const headers = new Headers();
  const session = await getSession(request);
  const existing = session.get(SESSION_KEY[table]);
  if (existing && (await exists(table, existing, db))) return { id: existing, headers };
  const id = crypto.randomUUID();
  const now = nowIso();
  await db.insertInto(table).values({ id, userId: null, createdAt: now, updatedAt: now }).execute();
  session.set(SESSION_KEY[table], id);
  headers.append("Set-Cookie", await commitSession(session, request));
  return { id, headers };
}
