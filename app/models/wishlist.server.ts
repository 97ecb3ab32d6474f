// The wishlist: products a visitor saves for later, owned like the cart (owned.server).
import type { Db } from "~/lib/db.server";
import { db as defaultDb, expectChanged, nowIso } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import type { Item } from "~/utils/catalogue";
import type { ListPage, RowWindow } from "~/lib/paging.server";
import { toItem } from "./catalogue/products.server";
import type { Owner } from "./owned.server";
import { adoptOwned, ensureOwned } from "./owned.server";

/** The most pieces one wishlist keeps: a list a customer can read, and a bound on what a client can make the shop store. */
export const MAX_WISHLIST_ITEMS = 100;
export const WISHLIST_FULL = `Your wishlist holds the most pieces we keep (${MAX_WISHLIST_ITEMS}). Remove one to save another.`;
const WISHLIST_GONE = "Your wishlist has expired. Please save the piece again.";

/** One page of saved products, newest first, and how many there are: never more rows than it shows. */
export async function listWishlistPage(wishlistId: string | null, window: RowWindow, db: Db = defaultDb): Promise<ListPage<Item>> {
  const total = await wishlistCount(wishlistId, db);
  if (!wishlistId || window.offset >= total) return { rows: [], total };
  const rows = await db
    .selectFrom("wishlistItems")
    .innerJoin("items", "items.id", "wishlistItems.itemId")
    .selectAll("items")
    .where("wishlistItems.wishlistId", "=", wishlistId)
    .orderBy("wishlistItems.createdAt", "desc")
    .orderBy("items.id", "desc")
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return { rows: rows.map(toItem), total };
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

/**
 * Idempotent: saving a saved product changes nothing. A new piece joins only while the wishlist
 * holds fewer than MAX_WISHLIST_ITEMS (counted after locking the wishlist's row, so parallel
 * saves cannot pass the cap together); a wishlist whose row vanished is a 404. Returns the
 * product's title.
 */
export async function addToWishlist(wishlistId: string, itemId: number, db: Db = defaultDb): Promise<string> {
  const title = await titleOf(itemId, db);
  await db.transaction().execute(async (trx) => {
    const locked = await trx.updateTable("wishlists").set({ updatedAt: nowIso() }).where("id", "=", wishlistId).executeTakeFirst();
    expectChanged(locked, () => new AppError(404, WISHLIST_GONE));
    if (await isInWishlist(wishlistId, itemId, trx)) return;
    if ((await wishlistCount(wishlistId, trx)) >= MAX_WISHLIST_ITEMS) throw new AppError(409, WISHLIST_FULL);
    await trx
      .insertInto("wishlistItems")
      .values({ wishlistId, itemId, createdAt: nowIso() })
      .onConflict((oc) => oc.columns(["wishlistId", "itemId"]).doNothing())
      .execute();
  });
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

/** At sign-in: the guest's saved products join the customer's wishlist, up to MAX_WISHLIST_ITEMS. */
export function adoptGuestWishlist(trx: Db, guestWishlistId: string | undefined, userId: number): Promise<void> {
  return adoptOwned(trx, "wishlists", guestWishlistId, userId, async (trx, fromId, toId) => {
    // The customer's own pieces first, then the guest's newest, up to the cap.
    const room = MAX_WISHLIST_ITEMS - (await wishlistCount(toId, trx));
    if (room <= 0) return;
    const rows = await trx
      .selectFrom("wishlistItems")
      .select(["itemId", "createdAt"])
      .where("wishlistId", "=", fromId)
      .where("itemId", "not in", trx.selectFrom("wishlistItems").select("itemId").where("wishlistId", "=", toId))
      .orderBy("createdAt", "desc")
      .orderBy("itemId", "desc")
      .limit(room)
      .execute();
    for (const row of rows) {
      await trx
        .insertInto("wishlistItems")
        .values({ wishlistId: toId, itemId: row.itemId, createdAt: row.createdAt })
        .onConflict((oc) => oc.columns(["wishlistId", "itemId"]).doNothing())
        .execute();
    }
  });
}
