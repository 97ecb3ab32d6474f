// Rows a visitor owns: the cart and the wishlist. A guest's row is found through the id its
// session carries; a signed-in customer's (browser or API token) through its user id. At
// sign-in the guest's row joins the customer's (see adoptOwned).
import crypto from "node:crypto";
import type { Db } from "./db.server";
import { db as defaultDb, nowIso } from "./db.server";
import { AppError } from "./errors.server";
import { bearerToken, getUserId } from "./identity.server";
import type { SessionData } from "./session.server";
import { commitSession, getSession } from "./session.server";

export type OwnedTable = "carts" | "wishlists";
export const SESSION_KEY: Record<OwnedTable, keyof Pick<SessionData, "cartId" | "wishlistId">> = {
  carts: "cartId",
  wishlists: "wishlistId",
};

async function guestRow(table: OwnedTable, id: string, db: Db): Promise<boolean> {
  const row = await db.selectFrom(table).select("id").where("id", "=", id).where("userId", "is", null).executeTakeFirst();
  return Boolean(row);
}

/** The signed-in user's id; a request with a bad or revoked bearer token is refused (401), not made a guest. */
async function ownerId(request: Request, db: Db): Promise<number | null> {
  const userId = await getUserId(request, db);
  if (!userId && bearerToken(request) !== null) throw new AppError(401, "Please log in to continue");
  return userId;
}

async function userRow(table: OwnedTable, userId: number, db: Db): Promise<string | null> {
  const row = await db.selectFrom(table).select("id").where("userId", "=", userId).executeTakeFirst();
  return row?.id ?? null;
}

/** The id of this request's live row, if any. */
export async function findOwned(request: Request, table: OwnedTable, db: Db = defaultDb): Promise<string | null> {
  const userId = await ownerId(request, db);
  if (userId) return userRow(table, userId, db);
  const session = await getSession(request);
  const id = session.get(SESSION_KEY[table]);
  return id && (await guestRow(table, id, db)) ? id : null;
}

async function insertRow(table: OwnedTable, userId: number | null, db: Db): Promise<string> {
  const id = crypto.randomUUID();
  const now = nowIso();
  await db
    .insertInto(table)
    .values({ id, userId, createdAt: now, updatedAt: now })
    .onConflict((oc) => oc.column("userId").doNothing())
    .execute();
  return id;
}

/** The request's row, created when missing. `headers` carries the Set-Cookie to send back. */
export async function ensureOwned(request: Request, table: OwnedTable, db: Db = defaultDb): Promise<{ id: string; headers: Headers }> {
  const headers = new Headers();
  const userId = await ownerId(request, db);
  if (userId) {
    const existing = await userRow(table, userId, db);
    if (existing) return { id: existing, headers };
    await insertRow(table, userId, db);
    // A simultaneous request may have created it first: the unique user id keeps one row.
    return { id: (await userRow(table, userId, db))!, headers };
  }
  const session = await getSession(request);
  const existing = session.get(SESSION_KEY[table]);
  if (existing && (await guestRow(table, existing, db))) return { id: existing, headers };
  const id = await insertRow(table, null, db);
  session.set(SESSION_KEY[table], id);
  headers.append("Set-Cookie", await commitSession(session, request));
  return { id, headers };
}

/**
 * At sign-in, the guest's row joins the customer's: its lines are merged by
 * `mergeLines(fromId, toId)` into the customer's row (created when missing) and the guest row
 * is deleted. The customer's row is made with an insert that yields to one created at the same
 * moment (an API call), so the unique user id can never fail the sign-in. Run it inside the
 * sign-in transaction.
 */
export async function adoptOwned(
  trx: Db,
  table: OwnedTable,
  guestId: string | undefined,
  userId: number,
  mergeLines: (trx: Db, fromId: string, toId: string) => Promise<void>,
): Promise<void> {
  if (!guestId || !(await guestRow(table, guestId, trx))) return;
  await insertRow(table, userId, trx);
  const mine = (await userRow(table, userId, trx))!;
  // The row before its lines, as every cart change and order placement does (lock order).
  await trx.updateTable(table).set({ updatedAt: nowIso() }).where("id", "=", mine).execute();
  await mergeLines(trx, guestId, mine);
  await trx.deleteFrom(table).where("id", "=", guestId).execute();
}
