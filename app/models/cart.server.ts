// The cart: lines keyed by a cart id, the row of a customer or of a guest's session (owned.server).
import { sql } from "kysely";
import type { Db } from "~/lib/db.server";
import { db as defaultDb, expectChanged, nowIso } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import type { Owner } from "./owned.server";
import { adoptOwned, ensureOwned } from "./owned.server";
import type { CartCoupon } from "~/models/coupons/apply.server";
import { cartCoupon } from "~/models/coupons/apply.server";
import { assertStock, availabilityOf, withAvailability } from "./reservations.server";
import type { DiscountedTotals } from "~/utils/pricing";
import { MAX_CART_LINES, MAX_QUANTITY, totalsWithCoupon } from "~/utils/pricing";

export interface CartLine {
  id: number;
  itemId: number;
  quantity: number;
  item: {
    id: number;
    title: string;
    slug: string;
    imgPath: string;
    price: number;
    /** the coupon rule's categories are matched against it */
    categoryId: number;
    inStock: boolean;
    stock: number;
    /** units the cart's owner may have now: stock less what other customers hold while paying (reservations.server) */
    available: number;
  };
}

/** The cart: its lines, totals after its coupon's discount (0 without one), and the coupon as applied. */
export interface CartDetail extends DiscountedTotals {
  items: CartLine[];
  coupon: CartCoupon | null;
}

/** An upsert's new quantity: the line's plus the added units, capped at 99. */
const LINE_GONE = "That cart item was not found";
/** A guest cart that expired (or joined an account) while this request ran. */
const CART_GONE = "Your cart has expired. Please add the items again.";

export const CART_FULL =
  `Your cart holds the most different pieces we take in one order (${MAX_CART_LINES}). ` +
  "Please place this order first, or remove a piece.";
const ADD_QUANTITIES = sql<number>`case when cart_lines.quantity + excluded.quantity > ${MAX_QUANTITY} then ${MAX_QUANTITY}
  else cart_lines.quantity + excluded.quantity end`;

function lineQuery(db: Db) {
  return db
    .selectFrom("cartLines")
    .innerJoin("items", "items.id", "cartLines.itemId")
    .select([
      "cartLines.id as id",
      "cartLines.itemId as itemId",
      "cartLines.quantity as quantity",
      "items.title as title",
      "items.slug as slug",
      "items.imgPath as imgPath",
      "items.price as price",
      "items.categoryId as categoryId",
      "items.stock as stock",
    ]);
}

type LineRow = {
  id: number;
  itemId: number;
  quantity: number;
  title: string;
  slug: string;
  imgPath: string;
  price: number;
  categoryId: number;
  stock: number;
};

function toLine(r: LineRow & { available: number }): CartLine {
  const { title, slug, imgPath, price, categoryId, stock, available } = r;
  return {
    id: r.id,
    itemId: r.itemId,
    quantity: r.quantity,
    item: { id: r.itemId, title, slug, imgPath, price, categoryId, inStock: stock > 0, stock, available },
  };
}

/** The customer a cart belongs to (null: a guest's, or no cart): whose holds are not "others'". */
async function cartOwnerId(db: Db, cartId: string): Promise<number | null> {
  const row = await db.selectFrom("carts").select("userId").where("id", "=", cartId).executeTakeFirst();
  return row?.userId ?? null;
}

/** Cart lines with what their owner may have of each product now. */
async function toLines(db: Db, cartId: string, rows: LineRow[]): Promise<CartLine[]> {
  return (await withAvailability(db, rows, await cartOwnerId(db, cartId))).map(toLine);
}

export async function getCart(cartId: string | null, db: Db = defaultDb): Promise<CartDetail> {
  const rows = cartId ? await lineQuery(db).where("cartLines.cartId", "=", cartId).orderBy("cartLines.id").execute() : [];
  const items = cartId ? await toLines(db, cartId, rows) : [];
  const lines = items.map((l) => ({ quantity: l.quantity, price: l.item.price, categoryId: l.item.categoryId }));
  // The applied code is checked again on every read: one that expired or ran out since gives nothing, and says why.
  const cart =
    cartId && items.length > 0
      ? await db.selectFrom("carts").select(["couponCode", "userId"]).where("id", "=", cartId).executeTakeFirst()
      : null;
  const coupon = cart ? await cartCoupon(db, cart.couponCode, lines, cart.userId) : null;
  return { items, ...totalsWithCoupon(lines, coupon?.rule ?? null), coupon };
}

/** Units in the cart: the header badge. */
export async function cartCount(cartId: string | null, db: Db = defaultDb): Promise<number> {
  if (!cartId) return 0;
  const row = await db
    .selectFrom("cartLines")
    .select((eb) => eb.fn.sum<number | string>("quantity").as("units"))
    .where("cartId", "=", cartId)
    .executeTakeFirst();
  return Number(row?.units ?? 0);
}

async function getLine(cartId: string, lineId: number, db: Db): Promise<CartLine> {
  const row = await lineQuery(db).where("cartLines.cartId", "=", cartId).where("cartLines.id", "=", lineId).executeTakeFirst();
  if (!row) throw new AppError(404, LINE_GONE);
  return (await toLines(db, cartId, [row]))[0]!;
}

/**
 * Refuses what can never be added (unknown item 404, out of stock or too few 409) before a
 * cart is created for it, so a refused add leaves no row behind.
 */
async function assertAddable(itemId: number, quantity: number, userId: number | null, db: Db): Promise<void> {
  const item = await db.selectFrom("items").select(["id", "title", "stock"]).where("id", "=", itemId).executeTakeFirst();
  if (!item) throw new AppError(404, "That product was not found");
  const { available, held } = await availabilityOf(db, item, userId);
  assertStock({ title: item.title, stock: available, quantity, held });
}

/**
 * Add to the owner's cart (page and API): what can never be added is refused first, then the
 * cart is made when missing (a guest's new cart is `rowId`, for the session to keep), then the
 * units are added. Answers the line as it now is.
 */
export async function addItem(
  owner: Owner,
  input: { itemId: number; quantity: number },
  db: Db = defaultDb,
): Promise<{ line: CartLine; rowId: string }> {
  await assertAddable(input.itemId, input.quantity, owner.userId, db);
  const rowId = await ensureOwned("carts", owner, db);
  return { line: await addToCart(rowId, input.itemId, input.quantity, db), rowId };
}

/**
 * Adds units to the cart's line for the item (quantities add, capped at 99), in one transaction.
 * The write is an upsert, so two simultaneous adds of the same item cannot collide on the
 * (cart, item) unique key; the stock check reads the result and rolls back when it is too much.
 */
export async function addToCart(cartId: string, itemId: number, quantity: number, db: Db = defaultDb): Promise<CartLine> {
  return db.transaction().execute(async (trx) => {
    const owner = await lockCart(trx, cartId);
    const item = await trx.selectFrom("items").select(["id", "title", "stock"]).where("id", "=", itemId).executeTakeFirst();
    if (!item) throw new AppError(404, "That product was not found");
    const existing = await trx
      .selectFrom("cartLines")
      .select("quantity")
      .where("cartId", "=", cartId)
      .where("itemId", "=", itemId)
      .executeTakeFirst();
    if (existing && existing.quantity >= MAX_QUANTITY) {
      throw new AppError(409, `You already have the most we take in one order (${MAX_QUANTITY}) of ${item.title} in your cart`);
    }
    if (!existing) {
      const { n } = await trx
        .selectFrom("cartLines")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("cartId", "=", cartId)
        .executeTakeFirstOrThrow();
      if (Number(n) >= MAX_CART_LINES) throw new AppError(409, CART_FULL);
    }
    const line = await trx
      .insertInto("cartLines")
      .values({ cartId, itemId, quantity: Math.min(quantity, MAX_QUANTITY), createdAt: nowIso() })
      .onConflict((oc) =>
        oc.columns(["cartId", "itemId"]).doUpdateSet({
          quantity: ADD_QUANTITIES,
        }),
      )
      .returning(["id", "quantity"])
      .executeTakeFirstOrThrow();
    const { available, held } = await availabilityOf(trx, item, owner.userId);
    assertStock({ title: item.title, stock: available, quantity: line.quantity, held });
    return getLine(cartId, line.id, trx);
  });
}

export async function updateCartLine(cartId: string | null, lineId: number, quantity: number, db: Db = defaultDb): Promise<CartLine> {
  if (!cartId) throw new AppError(404, LINE_GONE);
  return db.transaction().execute(async (trx) => {
    await lockCart(trx, cartId);
    const line = await getLine(cartId, lineId, trx);
    assertStock({ title: line.item.title, stock: line.item.available, quantity });
    await trx.updateTable("cartLines").set({ quantity }).where("id", "=", lineId).execute();
    return { ...line, quantity };
  });
}

export async function removeCartLine(cartId: string | null, lineId: number, db: Db = defaultDb): Promise<void> {
  if (!cartId) throw new AppError(404, LINE_GONE);
  await db.transaction().execute(async (trx) => {
    await lockCart(trx, cartId);
    const result = await trx.deleteFrom("cartLines").where("cartId", "=", cartId).where("id", "=", lineId).executeTakeFirst();
    expectChanged(result, () => new AppError(404, LINE_GONE));
  });
}

export async function clearCart(cartId: string | null, db: Db = defaultDb): Promise<void> {
  if (!cartId) return;
  await db.transaction().execute(async (trx) => {
    await lockCart(trx, cartId);
    await trx.deleteFrom("cartLines").where("cartId", "=", cartId).execute();
  });
}

/**
 * Every change to a cart's lines first touches the cart row, as placing an order does: so an
 * order and a cart change queue on that row in the same order (no deadlock on PostgreSQL), and
 * a line changed while an order is being placed waits for it.
 */
async function lockCart(trx: Db, cartId: string): Promise<{ userId: number | null }> {
  const row = await trx.updateTable("carts").set({ updatedAt: nowIso() }).where("id", "=", cartId).returning("userId").executeTakeFirst();
  if (!row) throw new AppError(404, CART_GONE);
  return row;
}

// ---- at sign-in ------------------------------------------------------------------------

/**
 * At sign-in: the guest's cart joins the customer's; quantities of the same item add, capped at
 * 99, and new pieces join only while the cart holds fewer than MAX_CART_LINES (the customer's own
 * lines first, then the guest's in the order they were added): the cap holds however the cart
 * was filled.
 */
export function adoptGuestCart(trx: Db, guestCartId: string | undefined, userId: number): Promise<void> {
  return adoptOwned(trx, "carts", guestCartId, userId, async (trx, fromId, toId) => {
    const held = new Set((await trx.selectFrom("cartLines").select("itemId").where("cartId", "=", toId).execute()).map((l) => l.itemId));
    const lines = await trx
      .selectFrom("cartLines")
      .select(["itemId", "quantity"])
      .where("cartId", "=", fromId)
      .orderBy("createdAt")
      .orderBy("itemId")
      .execute();
    for (const line of lines) {
      if (!held.has(line.itemId)) {
        if (held.size >= MAX_CART_LINES) continue;
        held.add(line.itemId);
      }
      await trx
        .insertInto("cartLines")
        .values({ cartId: toId, itemId: line.itemId, quantity: Math.min(line.quantity, MAX_QUANTITY), createdAt: nowIso() })
        .onConflict((oc) =>
          oc.columns(["cartId", "itemId"]).doUpdateSet({
            quantity: ADD_QUANTITIES,
          }),
        )
        .execute();
    }
  });
}
