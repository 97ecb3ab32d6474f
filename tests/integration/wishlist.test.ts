import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import {
  addToWishlist,
  adoptGuestWishlist,
  isInWishlist,
  MAX_WISHLIST_ITEMS,
  listWishlistPage,
  removeFromWishlist,
  WISHLIST_FULL,
  wishlistCount,
} from "~/models/wishlist.server";
import { loader as productLoader } from "~/routes/product.$slug";
import { action, loader } from "~/routes/wishlist";
import { createTestItem } from "../support/items";
import { cookiesFrom, formRequest, getRequest } from "../support/requests";
import { asRecord, call } from "../support/route-calls";
import { newCustomer } from "../support/orders";

const FIRST_PAGE = { offset: 0, limit: 24 };

async function itemBySlug(slug: string) {
  return db.selectFrom("items").select(["id", "title", "slug"]).where("slug", "=", slug).executeTakeFirstOrThrow();
}

beforeAll(async () => {
  await ready;
});

describe("wishlist model", () => {
  it("saves idempotently, lists newest first, counts and removes", async () => {
    const now = new Date().toISOString();
    await db.insertInto("wishlists").values({ id: "w-model", userId: null, createdAt: now, updatedAt: now }).execute();
    const sofa = await itemBySlug("sheesham-wood-3-seater-sofa");
    const outOfStock = await itemBySlug("chesterfield-velvet-2-seater-sofa");

    expect(await addToWishlist("w-model", sofa.id)).toBe(sofa.title);
    await addToWishlist("w-model", sofa.id);
    await addToWishlist("w-model", outOfStock.id); // out of stock can still be saved for later
    expect(await wishlistCount("w-model")).toBe(2);
    expect((await listWishlistPage("w-model", FIRST_PAGE)).rows.map((i) => i.slug).sort()).toEqual([outOfStock.slug, sofa.slug].sort());
    expect(await isInWishlist("w-model", sofa.id)).toBe(true);

    await removeFromWishlist("w-model", sofa.id);
    expect(await isInWishlist("w-model", sofa.id)).toBe(false);
    expect(await wishlistCount("w-model")).toBe(1);
    expect((await listWishlistPage(null, FIRST_PAGE)).rows).toEqual([]);
  });

  it("refuses an unknown product with 404", async () => {
    await expect(addToWishlist("w-model", 999_999)).rejects.toMatchObject({ status: 404 });
  });
});

describe("wishlist page action", () => {
  it("adds with a redirect and a session cookie, shows on the page and the product page, then removes", async () => {
    const sofa = await itemBySlug("teak-wood-diwan-with-bolsters");
    const added = await call(
      action,
      formRequest("/wishlist", { intent: "add", itemId: String(sofa.id), redirectTo: `/product/${sofa.slug}` }),
    );
    expect(added.status).toBe(302);
    expect(added.headers.get("Location")).toBe(`/product/${sofa.slug}`);
    const cookie = cookiesFrom(added.raw as Response);
    expect(cookie).toContain("__session=");

    const page = await call(loader, getRequest("/wishlist", { Cookie: cookie }));
    expect((asRecord(page.body).items as { slug: string }[]).map((i) => i.slug)).toEqual([sofa.slug]);
    const product = await call(productLoader, getRequest(`/product/${sofa.slug}`, { Cookie: cookie }), { slug: sofa.slug });
    expect(asRecord(product.body).saved).toBe(true);

    const removed = await call(action, formRequest("/wishlist", { intent: "remove", itemId: String(sofa.id) }, { Cookie: cookie }));
    expect(removed.status).toBe(200);
    const after = await call(loader, getRequest("/wishlist", { Cookie: cookie }));
    expect(asRecord(after.body).items).toEqual([]);
  });

  it("answers 400 for a bad intent or id and 404 for an unknown product, writing nothing", async () => {
    const before = await db.selectFrom("wishlistItems").select("itemId").execute();
    expect((await call(action, formRequest("/wishlist", { intent: "steal", itemId: "1" }))).status).toBe(400);
    expect((await call(action, formRequest("/wishlist", { intent: "add", itemId: "abc" }))).status).toBe(400);
    expect((await call(action, formRequest("/wishlist", { intent: "add", itemId: "999999" }))).status).toBe(404);
    expect(await db.selectFrom("wishlistItems").select("itemId").execute()).toEqual(before);
  });
});

describe("a wishlist is bounded (unbounded, 20,000 saved pieces made 11 MB a page)", () => {
  const pieces: number[] = [];
  const newWishlist = async (id: string) => {
    const now = new Date().toISOString();
    await db.insertInto("wishlists").values({ id, userId: null, createdAt: now, updatedAt: now }).execute();
    return id;
  };
  beforeAll(async () => {
    for (let i = 0; i < MAX_WISHLIST_ITEMS + 5; i++) pieces.push(await createTestItem(`wish-cap-${Date.now()}-${i}`, { stock: 3 }));
  });

  it(`keeps at most ${MAX_WISHLIST_ITEMS} pieces: the next new one is 409 and nothing is written, also when saves race`, async () => {
    const id = await newWishlist(`w-cap-${Date.now()}`);
    for (const itemId of pieces.slice(0, MAX_WISHLIST_ITEMS - 3)) await addToWishlist(id, itemId);
    // Eight saves at once for the last three places.
    const results = await Promise.allSettled(
      pieces.slice(MAX_WISHLIST_ITEMS - 3, MAX_WISHLIST_ITEMS + 5).map((itemId) => addToWishlist(id, itemId)),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ status: 409, message: WISHLIST_FULL });
    expect(await wishlistCount(id)).toBe(MAX_WISHLIST_ITEMS);
    // Saving a piece already there is still fine.
    await expect(addToWishlist(id, pieces[0]!)).resolves.toBeTruthy();
    // A wishlist whose row vanished is a clear 404, and no line is written for it.
    await db.deleteFrom("wishlists").where("id", "=", id).execute();
    await expect(addToWishlist(id, pieces[1]!)).rejects.toMatchObject({ status: 404 });
    expect(await wishlistCount(id)).toBe(0);
  });

  it("a guest's saved pieces join a customer's only up to the cap", async () => {
    const { user } = await newCustomer("wish-cap");
    const mine = await newWishlist(`w-mine-${Date.now()}`);
    await db.updateTable("wishlists").set({ userId: user.id }).where("id", "=", mine).execute();
    for (const itemId of pieces.slice(0, 90)) await addToWishlist(mine, itemId);
    const guest = await newWishlist(`w-guest-${Date.now()}`);
    for (const itemId of pieces.slice(80, 105)) await addToWishlist(guest, itemId);
    await db.transaction().execute((trx) => adoptGuestWishlist(trx, guest, user.id));
    expect(await wishlistCount(mine)).toBe(MAX_WISHLIST_ITEMS);
  });

  it("the page shows 24 at a time with numbered pages; past the last, or not a number, is a 404", async () => {
    let cookie = "";
    for (const itemId of pieces.slice(0, 30)) {
      const added = await call(
        action,
        formRequest("/wishlist", { intent: "add", itemId: String(itemId), redirectTo: "/wishlist" }, cookie ? { Cookie: cookie } : {}),
      );
      cookie ||= cookiesFrom(added.raw as Response);
    }
    const first = asRecord((await call(loader, getRequest("/wishlist", { Cookie: cookie }))).body);
    expect((first.items as unknown[]).length).toBe(24);
    expect(first.info).toMatchObject({ page: 1, pages: 2, total: 30 });
    const second = asRecord((await call(loader, getRequest("/wishlist?page=2", { Cookie: cookie }))).body);
    expect((second.items as unknown[]).length).toBe(6);
    expect((await call(loader, getRequest("/wishlist?page=3", { Cookie: cookie }))).status).toBe(404);
    expect((await call(loader, getRequest("/wishlist?page=abc", { Cookie: cookie }))).status).toBe(404);
  });
});
