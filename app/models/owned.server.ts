// Rows a visitor owns: the cart and the wishlist. A signed-in customer's row is found by the
// user id (browser or API token); a guest's is the row the session names, as long as no account
// has taken it. Which owner a request is, app/web/visitor.server decides; these are the rows. At
// sign-in the guest's row joins the customer's (adoptOwned).
import crypto from "node:crypto";
import type { Db } from "~/lib/db.server";
import { db as defaultDb, nowIso } from "~/lib/db.server";
import type { Client } from "~/lib/rate-limit.server";
import { LIMITS, rateLimitAddress } from "~/lib/rate-limit.server";

export type OwnedTable = "carts" | "wishlists";

/**
 * Whose cart or wishlist: a signed-in customer, or a guest, the row id their session carries (if
 * any) and who is asking (new guest rows are limited per address).
 */
export type Owner = { userId: number } | { userId: null; guestRowId: string | null; client?: Client };

async function guestRow(table: OwnedTable, id: string, db: Db): Promise<boolean> {
  const row = await db.selectFrom(table).select("id").where("id", "=", id).where("userId", "is", null).executeTakeFirst();
  return Boolean(row);
}

async function userRow(table: OwnedTable, userId: number, db: Db): Promise<string | null> {
  const row = await db.selectFrom(table).select("id").where("userId", "=", userId).executeTakeFirst();
  return row?.id ?? null;
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

/** The id of the owner's live row, if any. */
export async function findOwned(table: OwnedTable, owner: Owner, db: Db = defaultDb): Promise<string | null> {
  if (owner.userId !== null) return userRow(table, owner.userId, db);
  const id = owner.guestRowId;
  return id && (await guestRow(table, id, db)) ? id : null;
}

/**
 * The owner's row, created when missing. A guest given a new row must keep its id from now on:
 * it differs from `owner.guestRowId` (see asOwner in app/web/visitor.server).
 */
export async function ensureOwned(table: OwnedTable, owner: Owner, db: Db = defaultDb): Promise<string> {
  if (owner.userId !== null) {
    const existing = await userRow(table, owner.userId, db);
    if (existing) return existing;
    await insertRow(table, owner.userId, db);
    // A simultaneous request may have created it first: the unique user id keeps one row.
    return (await userRow(table, owner.userId, db))!;
  }
  const existing = owner.guestRowId;
  if (existing && (await guestRow(table, existing, db))) return existing;
  // Each cookie-less request would make a new row: a client may make only so many.
  if (owner.client) await rateLimitAddress(LIMITS.guestRows, owner.client);
  // Accepted: two first adds of one guest at once each make a row (no lock both take: the session
  // row learns its cart only after this, in asOwner's commit), and the session keeps the later one.
  return insertRow(table, null, db);
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
  if (!guestId) return;
  // The guest's row first, locked (an UPDATE, as every change to its lines takes it): a line being
  // added to it meanwhile is committed before its lines are read below, not deleted with the row
  // after the read missed it. Then the customer's row: no path holds the two the other way round.
  const guest = await trx
    .updateTable(table)
    .set({ updatedAt: nowIso() })
    .where("id", "=", guestId)
    .where("userId", "is", null)
    .executeTakeFirst();
  if (Number(guest.numUpdatedRows) === 0) return;
  await insertRow(table, userId, trx);
  const mine = (await userRow(table, userId, trx))!;
  // The row before its lines, as every cart change and order placement does (lock order).
  await trx.updateTable(table).set({ updatedAt: nowIso() }).where("id", "=", mine).execute();
  await mergeLines(trx, guestId, mine);
  await trx.deleteFrom(table).where("id", "=", guestId).execute();
}
