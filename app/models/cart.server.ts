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
import { chosenVariant, variantLabels } from "./catalogue/variants.server";
import { lineTitle } from "~/utils/variants";
import type { DiscountedTotals } from "~/utils/pricing";
import { MAX_CART_LINES, MAX_QUANTITY, totalsWithCoupon } from "~/utils/pricing";

export interface CartLine {
  id: number;
  itemId: number;
  /** the variant in the cart, its SKU and label ('Walnut, 3-seater'; '' for a product without options) */
  variantId: number;
  sku: string;
  variantLabel: string;
  quantity: number;
  item: {
    id: number;
    title: string;
    slug: string;
    imgPath: string;
    /** the variant's price */
    price: number;
    /** the coupon rule's categories are matched against it */
    categoryId: number;
    inStock: boolean;
    /** the variant's stock (0 when it is no longer sold) */
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
    .innerJoin("productVariants as v", "v.id", "cartLines.variantId")
    .select((eb) => [
      "cartLines.id as id",
      "cartLines.itemId as itemId",
      "cartLines.variantId as variantId",
      "v.sku as sku",
      "cartLines.quantity as quantity",
      "items.title as title",
      "items.slug as slug",
      "items.imgPath as imgPath",
      "v.price as price",
      "items.categoryId as categoryId",
      // A variant no longer sold has none to sell.
      eb.case().when("v.active", "=", 1).then(eb.ref("v.stock")).else(0).end().as("stock"),
    ]);
}

type LineRow = {
  id: number;
  itemId: number;
  variantId: number;
  sku: string;
  quantity: number;
  title: string;
  slug: string;
  imgPath: string;
  price: number;
  categoryId: number;
  stock: number;
};

function toLine(r: LineRow & { available: number; variantLabel: string }): CartLine {
  const { title, slug, imgPath, price, categoryId, stock, available } = r;
  return {
    id: r.id,
    itemId: r.itemId,
    variantId: r.variantId,
    sku: r.sku,
    variantLabel: r.variantLabel,
    quantity: r.quantity,
    item: { id: r.itemId, title, slug, imgPath, price, categoryId, inStock: stock > 0, stock, available },
  };
}

/** The customer a cart belongs to (null: a guest's, or no cart): whose holds are not "others'". */
async function cartOwnerId(db: Db, cartId: string): Promise<number | null> {
  const row = await db.selectFrom("carts").select("userId").where("id", "=", cartId).executeTakeFirst();
  return row?.userId ?? null;
}

/** Cart lines with their variants' labels and what their owner may have of each variant now. */
async function toLines(db: Db, cartId: string, rows: LineRow[]): Promise<CartLine[]> {
  const labels = await variantLabels(
    db,
    rows.map((r) => r.variantId),
  );
  const named = rows.map((r) => ({ ...r, variantLabel: labels.get(r.variantId) ?? "" }));
  return (await withAvailability(db, named, await cartOwnerId(db, cartId))).map(toLine);
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

/** What a cart add is of: the product, and the variant when it names one. */
export interface CartPiece {
  itemId: number;
  variantId?: number;
}

/**
 * The variant an add means, with the name a message gives it: unknown product 404, a variant not
 * the product's 404, no longer sold 400, none named of a product sold in several 400.
 */
async function pieceToAdd(db: Db, piece: CartPiece) {
  const item = await db.selectFrom("items").select(["id", "title"]).where("id", "=", piece.itemId).executeTakeFirst();
  if (!item) throw new AppError(404, "That product was not found");
  const variant = await chosenVariant(db, piece.itemId, piece.variantId);
  return { variant, title: lineTitle(item.title, variant.label) };
}

/**
 * Refuses what can never be added (unknown product or variant, out of stock or too few) before a
 * cart is created for it, so a refused add leaves no row behind.
 */
async function assertAddable(piece: CartPiece, quantity: number, userId: number | null, db: Db): Promise<void> {
  const { variant, title } = await pieceToAdd(db, piece);
  const { available, held } = await availabilityOf(db, variant, userId);
  assertStock({ title, stock: available, quantity, held });
}

/**
 * Add to the owner's cart (page and API): what can never be added is refused first, then the
 * cart is made when missing (a guest's new cart is `rowId`, for the session to keep), then the
 * units are added. Answers the line as it now is.
 */
export async function addItem(
  owner: Owner,
  input: CartPiece & { quantity: number },
  db: Db = defaultDb,
): Promise<{ line: CartLine; rowId: string }> {
  await assertAddable(input, input.quantity, owner.userId, db);
  const rowId = await ensureOwned("carts", owner, db);
  return { line: await addToCart(rowId, input, input.quantity, db), rowId };
}

/**
 * Adds units to the cart's line for the variant (quantities add, capped at 99), in one
 * transaction; a product id alone means its only variant. The write is an upsert, so two
 * simultaneous adds of the same variant cannot collide on the (cart, variant) unique key; the
 * stock check reads the result and rolls back when it is too much.
 */
export async function addToCart(cartId: string, piece: number | CartPiece, quantity: number, db: Db = defaultDb): Promise<CartLine> {
  const { itemId, variantId } = typeof piece === "number" ? { itemId: piece, variantId: undefined } : piece;
  return db.transaction().execute(async (trx) => {
    const owner = await lockCart(trx, cartId);
    const { variant, title } = await pieceToAdd(trx, { itemId, variantId });
    const existing = await trx
      .selectFrom("cartLines")
      .select("quantity")
      .where("cartId", "=", cartId)
      .where("variantId", "=", variant.id)
      .executeTakeFirst();
    if (existing && existing.quantity >= MAX_QUANTITY) {
      throw new AppError(409, `You already have the most we take in one order (${MAX_QUANTITY}) of ${title} in your cart`);
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
      .values({ cartId, itemId, variantId: variant.id, quantity: Math.min(quantity, MAX_QUANTITY), createdAt: nowIso() })
      .onConflict((oc) =>
        oc.columns(["cartId", "variantId"]).doUpdateSet({
          quantity: ADD_QUANTITIES,
        }),
      )
      .returning(["id", "quantity"])
      .executeTakeFirstOrThrow();
    const { available, held } = await availabilityOf(trx, variant, owner.userId);
    assertStock({ title, stock: available, quantity: line.quantity, held });
    return getLine(cartId, line.id, trx);
  });
}

export async function updateCartLine(cartId: string | null, lineId: number, quantity: number, db: Db = defaultDb): Promise<CartLine> {
  if (!cartId) throw new AppError(404, LINE_GONE);
  return db.transaction().execute(async (trx) => {
    await lockCart(trx, cartId);
    const line = await getLine(cartId, lineId, trx);
    assertStock({ title: lineTitle(line.item.title, line.variantLabel), stock: line.item.available, quantity });
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
    const held = new Set(
      (await trx.selectFrom("cartLines").select("variantId").where("cartId", "=", toId).execute()).map((l) => l.variantId),
    );
    const lines = await trx
      .selectFrom("cartLines")
      .select(["itemId", "variantId", "quantity"])
      .where("cartId", "=", fromId)
      .orderBy("createdAt")
      .orderBy("id")
      .execute();
    for (const line of lines) {
      if (!held.has(line.variantId)) {
        if (held.size >= MAX_CART_LINES) continue;
        held.add(line.variantId);
      }
      const { itemId, variantId } = line;
      await trx
        .insertInto("cartLines")
        .values({ cartId: toId, itemId, variantId, quantity: Math.min(line.quantity, MAX_QUANTITY), createdAt: nowIso() })
        .onConflict((oc) =>
          oc.columns(["cartId", "variantId"]).doUpdateSet({
            quantity: ADD_QUANTITIES,
          }),
        )
        .execute();
    }
  });
}
