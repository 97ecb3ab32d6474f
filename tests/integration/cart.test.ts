import crypto from "node:crypto";
import { defaultVariantId, setItemFigures } from "../support/items";
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import {
  addItem,
  addToCart,
  adoptGuestCart,
  CART_FULL,
  cartCount,
  clearCart,
  getCart,
  removeCartLine,
  updateCartLine,
} from "~/models/cart.server";
import { orderableLines } from "~/models/orders/orderable.server";
import { asOwner, currentCartId } from "~/web/visitor.server";
import { computeTotals, MAX_CART_LINES } from "~/utils/pricing";
import { createTestItem } from "../support/items";
import { cookiesFrom, getRequest } from "../support/requests";
import { newCustomer } from "../support/orders";

const ids = { plenty: 0, few: 0, none: 0, cheap: 0 };
/** the category the test's products are in (a cart line names it: coupons may be limited to categories) */
let firstCategoryId = 0;

async function newCart(): Promise<string> {
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  await db.insertInto("carts").values({ id, userId: null, createdAt: now, updatedAt: now }).execute();
  return id;
}

async function expectAppError(promise: Promise<unknown>, status: number, message?: RegExp) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).status).toBe(status);
  if (message) expect((error as AppError).message).toMatch(message);
}

async function lineRows(cartId: string) {
  return db.selectFrom("cartLines").select(["id", "itemId", "quantity"]).where("cartId", "=", cartId).orderBy("id").execute();
}

beforeAll(async () => {
  await ready;
  const now = new Date().toISOString();
  const category = await db.selectFrom("categories").select("id").orderBy("id").executeTakeFirstOrThrow();
  firstCategoryId = category.id;
  const make = async (slug: string, price: number, stock: number) =>
    (
      await db
        .insertInto("items")
        .values({
          categoryId: category.id,
          title: `Cart test ${slug}`,
          slug,
          description: "t",
          price,
          imgPath: "/x.svg",
          featured: 0,
          stock,
          specifications: "{}",
          createdAt: now,
          updatedAt: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
  ids.plenty = await make("cart-test-plenty", 12999, 1000);
  ids.few = await make("cart-test-few", 44999, 3);
  ids.none = await make("cart-test-none", 34999, 0);
  ids.cheap = await make("cart-test-cheap", 25, 500);
});

describe("addToCart", () => {
  it("adds a new line with the item's details", async () => {
    const cartId = await newCart();
    const line = await addToCart(cartId, ids.plenty, 2);
    expect(line).toEqual({
      id: expect.any(Number),
      itemId: ids.plenty,
      variantId: await defaultVariantId(ids.plenty),
      sku: `FS-${ids.plenty}`,
      variantLabel: "",
      quantity: 2,
      item: {
        id: ids.plenty,
        title: "Cart test cart-test-plenty",
        slug: "cart-test-plenty",
        imgPath: "/x.svg",
        price: 12999,
        categoryId: firstCategoryId,
        inStock: true,
        stock: 1000,
        // nobody holds any while paying (reservations: ADR 0023)
        available: 1000,
      },
    });
    expect(await lineRows(cartId)).toEqual([{ id: line.id, itemId: ids.plenty, quantity: 2 }]);
  });

  it("merges quantities of the same item into one line", async () => {
    const cartId = await newCart();
    const first = await addToCart(cartId, ids.plenty, 2);
    const second = await addToCart(cartId, ids.plenty, 3);
    expect(second.id).toBe(first.id);
    expect(second.quantity).toBe(5);
    expect(await lineRows(cartId)).toEqual([{ id: first.id, itemId: ids.plenty, quantity: 5 }]);
  });

  it("caps a merged line at 99", async () => {
    const cartId = await newCart();
    await addToCart(cartId, ids.plenty, 60);
    const line = await addToCart(cartId, ids.plenty, 60);
    expect(line.quantity).toBe(99);
    expect((await lineRows(cartId))[0].quantity).toBe(99);
    // A line already at the maximum refuses more with a clear 409, instead of silently ignoring it.
    await expectAppError(addToCart(cartId, ids.plenty, 1), 409, /99/);
    expect((await lineRows(cartId))[0].quantity).toBe(99);
  });

  it("simultaneous adds of the same item to one cart merge into one line", async () => {
    const cartId = await newCart();
    await Promise.all([addToCart(cartId, ids.plenty, 2), addToCart(cartId, ids.plenty, 3), addToCart(cartId, ids.plenty, 4)]);
    const rows = await lineRows(cartId);
    expect(rows.length).toBe(1);
    expect(rows[0].quantity).toBe(9);
  });

  it("refuses an out-of-stock item with 409 and adds nothing", async () => {
    const cartId = await newCart();
    await expectAppError(addToCart(cartId, ids.none, 1), 409, /out of stock/i);
    expect(await lineRows(cartId)).toEqual([]);
  });

  it("refuses more than the stock with 409, also when merging, and keeps the line as it was", async () => {
    const cartId = await newCart();
    await expectAppError(addToCart(cartId, ids.few, 4), 409, /Only 3/);
    expect(await lineRows(cartId)).toEqual([]);
    const line = await addToCart(cartId, ids.few, 2);
    await expectAppError(addToCart(cartId, ids.few, 2), 409, /Only 3/);
    expect(await lineRows(cartId)).toEqual([{ id: line.id, itemId: ids.few, quantity: 2 }]);
    expect((await addToCart(cartId, ids.few, 1)).quantity).toBe(3);
  });

  it("answers 404 for an unknown item", async () => {
    const cartId = await newCart();
    await expectAppError(addToCart(cartId, 9_999_999, 1), 404);
    expect(await lineRows(cartId)).toEqual([]);
  });
});

describe("updateCartLine", () => {
  it("sets the quantity of the cart's own line", async () => {
    const cartId = await newCart();
    const line = await addToCart(cartId, ids.plenty, 1);
    const updated = await updateCartLine(cartId, line.id, 7);
    expect(updated).toMatchObject({ id: line.id, itemId: ids.plenty, quantity: 7 });
    expect((await lineRows(cartId))[0].quantity).toBe(7);
    expect((await updateCartLine(cartId, line.id, 1)).quantity).toBe(1);
  });

  it("refuses a quantity above the stock with 409", async () => {
    const cartId = await newCart();
    const line = await addToCart(cartId, ids.few, 1);
    await expectAppError(updateCartLine(cartId, line.id, 4), 409);
    expect((await lineRows(cartId))[0].quantity).toBe(1);
  });

  it("answers 404 for another cart's line, an unknown line, or no cart", async () => {
    const mine = await newCart();
    const theirs = await newCart();
    const theirLine = await addToCart(theirs, ids.plenty, 2);
    await expectAppError(updateCartLine(mine, theirLine.id, 5), 404);
    await expectAppError(updateCartLine(mine, 9_999_999, 5), 404);
    await expectAppError(updateCartLine(null, theirLine.id, 5), 404);
    expect((await lineRows(theirs))[0].quantity).toBe(2);
  });
});

describe("removeCartLine and clearCart", () => {
  it("removes one line; removing it again, or another cart's line, is 404", async () => {
    const cartId = await newCart();
    const other = await newCart();
    const a = await addToCart(cartId, ids.plenty, 1);
    const b = await addToCart(cartId, ids.cheap, 1);
    const theirs = await addToCart(other, ids.plenty, 1);
    await removeCartLine(cartId, a.id);
    expect(await lineRows(cartId)).toEqual([{ id: b.id, itemId: ids.cheap, quantity: 1 }]);
    await expectAppError(removeCartLine(cartId, a.id), 404);
    await expectAppError(removeCartLine(cartId, theirs.id), 404);
    await expectAppError(removeCartLine(null, b.id), 404);
    expect(await lineRows(other)).toHaveLength(1);
  });

  it("clears only this cart", async () => {
    const cartId = await newCart();
    const other = await newCart();
    await addToCart(cartId, ids.plenty, 1);
    await addToCart(cartId, ids.cheap, 4);
    await addToCart(other, ids.plenty, 1);
    await clearCart(cartId);
    expect(await lineRows(cartId)).toEqual([]);
    expect(await lineRows(other)).toHaveLength(1);
    await expect(clearCart(null)).resolves.toBeUndefined();
    await expect(clearCart(cartId)).resolves.toBeUndefined();
  });
});

describe("getCart and cartCount", () => {
  it("an empty or missing cart is all zeros", async () => {
    const empty = { items: [], count: 0, subtotal: 0, discount: 0, shipping: 0, gst: 0, total: 0, coupon: null };
    expect(await getCart(null)).toEqual(empty);
    expect(await getCart(await newCart())).toEqual(empty);
    expect(await getCart("no-such-cart")).toEqual(empty);
    expect(await cartCount(null)).toBe(0);
    expect(await cartCount(await newCart())).toBe(0);
  });

  it("totals match computeTotals and the money rules of docs/product.md", async () => {
    const cartId = await newCart();
    await addToCart(cartId, ids.cheap, 1); // 25 → GST 4.5 → 5, shipping 1
    let cart = await getCart(cartId);
    expect(cart).toMatchObject({ count: 1, subtotal: 25, shipping: 1, gst: 5, total: 31 });

    await addToCart(cartId, ids.cheap, 2); // 75 → GST 13.5 → 14
    cart = await getCart(cartId);
    expect(cart).toMatchObject({ count: 3, subtotal: 75, shipping: 1, gst: 14, total: 90 });

    await addToCart(cartId, ids.plenty, 2); // + 25,998 → above 25,000 → free shipping
    await addToCart(cartId, ids.few, 1);
    cart = await getCart(cartId);
    const subtotal = 75 + 2 * 12999 + 44999;
    expect(cart).toMatchObject({ count: 6, subtotal, shipping: 0 });
    expect(cart.gst).toBe(Math.round((subtotal * 18) / 100));
    expect(cart.total).toBe(subtotal + cart.gst);
    const { items, coupon, ...totals } = cart;
    expect(coupon).toBeNull();
    expect(totals).toEqual({ ...computeTotals(items.map((l) => ({ quantity: l.quantity, price: l.item.price }))), discount: 0 });
    expect(items.map((l) => l.itemId)).toEqual([ids.cheap, ids.plenty, ids.few]);
    expect(await cartCount(cartId)).toBe(6);
  });

  it("prices come from the catalogue at read time", async () => {
    const cartId = await newCart();
    await addToCart(cartId, ids.cheap, 2);
    await setItemFigures(ids.cheap, { price: 30 });
    try {
      expect(await getCart(cartId)).toMatchObject({ subtotal: 60, gst: 11, shipping: 1, total: 72 });
    } finally {
      await setItemFigures(ids.cheap, { price: 25 });
    }
  });
});

describe("addItem for a request's owner (asOwner) and currentCartId", () => {
  const add = (request: Request) => asOwner(request, "carts", (owner) => addItem(owner, { itemId: ids.plenty, quantity: 1 }));

  it("creates a cart once per session and finds it again from the cookie", async () => {
    expect(await currentCartId(getRequest("/cart"))).toBeNull();
    const first = await add(getRequest("/cart"));
    const setCookie = first.headers.get("Set-Cookie");
    expect(setCookie).toMatch(/^__session=/);
    const cookie = cookiesFrom(new Response(null, { headers: first.headers }));
    expect(await currentCartId(getRequest("/cart", { Cookie: cookie }))).toBe(first.rowId);
    const again = await add(getRequest("/cart", { Cookie: cookie }));
    expect(again.rowId).toBe(first.rowId);
    expect(again.headers.get("Set-Cookie")).toBeNull();
    expect((await getCart(first.rowId)).count).toBe(2);
  });

  it("a refused add makes no cart and sets no cookie", async () => {
    const before = await db.selectFrom("carts").select("id").execute();
    await expectAppError(
      asOwner(getRequest("/cart"), "carts", (owner) => addItem(owner, { itemId: ids.none, quantity: 1 })),
      409,
    );
    await expectAppError(
      asOwner(getRequest("/cart"), "carts", (owner) => addItem(owner, { itemId: 9_999_999, quantity: 1 })),
      404,
    );
    expect((await db.selectFrom("carts").select("id").execute()).length).toBe(before.length);
  });

  it("ignores a forged or foreign cookie", async () => {
    expect(await currentCartId(getRequest("/cart", { Cookie: "__session=forged" }))).toBeNull();
  });
});

describe("a cart holds at most MAX_CART_LINES different pieces (otherwise nothing caps a COD order's lines)", () => {
  it("the next new piece is 409 and nothing is added; more of a piece already there still is", async () => {
    const cartId = await newCart();
    const pieces: number[] = [];
    for (let i = 0; i <= MAX_CART_LINES; i++) pieces.push(await createTestItem(`cart-cap-${Date.now()}-${i}`, { stock: 5 }));
    for (const id of pieces.slice(0, MAX_CART_LINES)) await addToCart(cartId, id, 1);
    await expect(addToCart(cartId, pieces[MAX_CART_LINES]!, 1)).rejects.toMatchObject({ status: 409, message: CART_FULL });
    const lines = await db.selectFrom("cartLines").select("itemId").where("cartId", "=", cartId).execute();
    expect(lines).toHaveLength(MAX_CART_LINES);
    await expect(addToCart(cartId, pieces[0]!, 1)).resolves.toMatchObject({ quantity: 2 });
  });

  it("holds at sign-in too: a guest cart joins a customer's only up to the cap, and an order of more lines is refused", async () => {
    const customer = await newCustomer("cart-cap-merge");
    const pieces: number[] = [];
    for (let i = 0; i < MAX_CART_LINES + 5; i++) pieces.push(await createTestItem(`cart-cap-merge-${Date.now()}-${i}`, { stock: 5 }));
    // The customer's own cart holds 10 pieces; a guest cart (another browser) holds 45 others and 1 of the same.
    const first = await filledGuestCart([pieces[0]!]);
    await db.transaction().execute((trx) => adoptGuestCart(trx, first, customer.user.id));
    const mine = (await db.selectFrom("carts").select("id").where("userId", "=", customer.user.id).executeTakeFirstOrThrow()).id;
    for (const id of pieces.slice(1, 10)) await addToCart(mine, id, 1);
    const guest = await filledGuestCart([pieces[0]!, ...pieces.slice(10)]);
    await db.transaction().execute((trx) => adoptGuestCart(trx, guest, customer.user.id));
    const lines = await lineRows(mine);
    expect(lines).toHaveLength(MAX_CART_LINES);
    // The customer's own ten stay, the shared piece's quantities add, the guest's first 40 new ones join.
    expect(new Set(lines.map((l) => l.itemId))).toEqual(new Set(pieces.slice(0, MAX_CART_LINES)));
    expect(lines.find((l) => l.itemId === pieces[0])?.quantity).toBe(2);

    // However a cart came to hold more (rows written before the cap), an order of it is refused.
    await db
      .insertInto("cartLines")
      .values({
        cartId: mine,
        itemId: pieces[MAX_CART_LINES]!,
        variantId: await defaultVariantId(pieces[MAX_CART_LINES]!),
        quantity: 1,
        createdAt: new Date().toISOString(),
      })
      .execute();
    await expect(orderableLines(db, mine)).rejects.toMatchObject({ status: 409, message: CART_FULL });
  });
});

/** A guest cart holding one unit of each piece, added in this order. */
async function filledGuestCart(itemIds: number[]): Promise<string> {
  const cartId = await newCart();
  for (const id of itemIds) await addToCart(cartId, id, 1);
  return cartId;
}
