// The wishlist: products a visitor saves for later, owned like the cart (owned.server).
import type { Db } from "~/lib/db.server";
import { db as defaultDb, nowIso } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import type { Item } from "~/utils/catalogue";
import { toItem } from "./catalogue.server";
import type { Owner } from "./owned.server";
import { adoptOwned, ensureOwned } from "./owned.server";

/** Saved products, newest first. */
export async function listWishlist(wishlistId: string | null, db: Db = defaultDb): Promise<Item[]> {
  if (!wishlistId) return [];
  const rows = await db
    .selectFrom("wishlistItems")
    .innerJoin("items", "items.id", "wishlistItems.itemId")
    .selectAll("items")
    .where("wishlistItems.wishlistId", "=", wishlistId)
    .orderBy("wishlistItems.createdAt", "desc")
    .orderBy("items.id", "desc")
    .execute();
  return rows.map(toItem);
}

export async function isInWishlist(wishlistId: string | null, itemId: number, db: Db = defaultDb): Promise<boolean> {
  if (!wishlistId) return false;
  const row = await db
    .selectFrom("wishlistItems")
    .select("itemId")
    .where("wishlistId", "=", wishlistId)
    .where("itemId", "=", itemId)
    .executeTakeFirst();
  return Boolean(row);
}

export async function wishlistCount(wishlistId: string | null, db: Db = defaultDb): Promise<number> {
  if (!wishlistId) return 0;
  const row = await db
    .selectFrom("wishlistItems")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("wishlistId", "=", wishlistId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Idempotent: saving a saved product changes nothing. Returns the product's title. */
export async function addToWishlist(wishlistId: string, itemId: number, db: Db = defaultDb): Promise<string> {
  const title = await titleOf(itemId, db);
  await db
    .insertInto("wishlistItems")
    .values({ wishlistId, itemId, createdAt: nowIso() })
    .onConflict((oc) => oc.columns(["wishlistId", "itemId"]).doNothing())
    .execute();
  return title;
}

async function titleOf(itemId: number, db: Db): Promise<string> {
  const item = await db.selectFrom("items").select("title").where("id", "=", itemId).executeTakeFirst();
  if (!item) throw new AppError(404, "That product was not found");
  return item.title;
}

/**
 * Save a product to the owner's wishlist: an unknown product is refused (404) before a wishlist
 * is made for it; a guest's new wishlist is `rowId`, for the session to keep.
 */
export async function saveItem(owner: Owner, itemId: number, db: Db = defaultDb): Promise<{ title: string; rowId: string }> {
  await titleOf(itemId, db);
  const rowId = await ensureOwned("wishlists", owner, db);
  return { title: await addToWishlist(rowId, itemId, db), rowId };
}

export async function removeFromWishlist(wishlistId: string | null, itemId: number, db: Db = defaultDb): Promise<void> {
  if (!wishlistId) return;
  await db.deleteFrom("wishlistItems").where("wishlistId", "=", wishlistId).where("itemId", "=", itemId).execute();
}

/** At sign-in: the guest's saved products join the customer's wishlist. */
export function adoptGuestWishlist(trx: Db, guestWishlistId: string | undefined, userId: number): Promise<void> {
  return adoptOwned(trx, "wishlists", guestWishlistId, userId, async (trx, fromId, toId) => {
    const rows = await trx.selectFrom("wishlistItems").select(["itemId", "createdAt"]).where("wishlistId", "=", fromId).execute();
    for (const row of rows) {
      await trx
        .insertInto("wishlistItems")
        .values({ wishlistId: toId, itemId: row.itemId, createdAt: row.createdAt })
        .onConflict((oc) => oc.columns(["wishlistId", "itemId"]).doNothing())
        .execute();
    }
  });
}
