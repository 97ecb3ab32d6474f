import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { addToWishlist, isInWishlist, listWishlist, removeFromWishlist, wishlistCount } from "~/models/wishlist.server";
import { loader as productLoader } from "~/routes/product.$slug";
import { action, loader } from "~/routes/wishlist";
import { cookiesFrom, formRequest, getRequest } from "../support/requests";
import { asRecord, call } from "./helpers";

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
    expect((await listWishlist("w-model")).map((i) => i.slug).sort()).toEqual([outOfStock.slug, sofa.slug].sort());
    expect(await isInWishlist("w-model", sofa.id)).toBe(true);

    await removeFromWishlist("w-model", sofa.id);
    expect(await isInWishlist("w-model", sofa.id)).toBe(false);
    expect(await wishlistCount("w-model")).toBe(1);
    expect(await listWishlist(null)).toEqual([]);
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
