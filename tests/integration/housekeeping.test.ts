import { beforeAll, describe, expect, it } from "vitest";
import { defaultVariantId } from "../support/items";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { purgeExpired } from "~/lib/housekeeping.server";
import { getSession, sessionCookie } from "~/lib/session.server";

const DAY = 24 * 60 * 60 * 1000;
const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();

beforeAll(async () => {
  await ready;
});

describe("purgeExpired", () => {
  it("deletes expired and idle sessions, abandoned guest carts and spent rate limits, and keeps live ones", async () => {
    const base = { data: "{}", userId: null, createdAt: iso(DAY) };
    await db
      .insertInto("sessions")
      .values([
        { ...base, id: "live", lastSeenAt: iso(0), expiresAt: iso(-DAY) },
        { ...base, id: "idle", lastSeenAt: iso(31 * DAY), expiresAt: iso(-DAY) },
        { ...base, id: "expired", lastSeenAt: iso(0), expiresAt: iso(1000) },
      ])
      .execute();
    await db
      .insertInto("carts")
      .values([
        { id: "fresh-cart", userId: null, createdAt: iso(DAY), updatedAt: iso(DAY) },
        { id: "old-cart", userId: null, createdAt: iso(40 * DAY), updatedAt: iso(40 * DAY) },
      ])
      .execute();
    // A piece sold as one (its default variant is what a line of it holds).
    const item = await db
      .selectFrom("items")
      .innerJoin("productVariants", "productVariants.itemId", "items.id")
      .select("items.id")
      .where("items.stock", ">", 0)
      .where("productVariants.optionKey", "=", "")
      .executeTakeFirstOrThrow();
    await db
      .insertInto("cartLines")
      .values({ cartId: "old-cart", itemId: item.id, variantId: await defaultVariantId(item.id), quantity: 1, createdAt: iso(40 * DAY) })
      .execute();
    await db
      .insertInto("rateLimits")
      .values([
        { key: "t:spent", count: 3, resetAt: iso(1000) },
        { key: "t:open", count: 3, resetAt: iso(-60_000) },
      ])
      .execute();

    const result = await purgeExpired(db);

    expect(result).toEqual({ sessions: 2, carts: 1, rateLimits: 1, mails: 0 });
    expect((await db.selectFrom("sessions").select("id").execute()).map((r) => r.id)).toEqual(["live"]);
    expect((await db.selectFrom("carts").select("id").execute()).map((r) => r.id)).toEqual(["fresh-cart"]);
    expect(await db.selectFrom("cartLines").select("id").where("cartId", "=", "old-cart").execute()).toEqual([]);
    expect((await db.selectFrom("rateLimits").select("key").execute()).map((r) => r.key)).toEqual(["t:open"]);
  });
});

describe("a visit keeps the guest cart alive", () => {
  it("reading a session untouched for over an hour refreshes it and the cart and wishlist it points at", async () => {
    const old = iso(29 * DAY);
    await db.insertInto("carts").values({ id: "visited-cart", userId: null, createdAt: old, updatedAt: old }).execute();
    await db.insertInto("wishlists").values({ id: "visited-list", userId: null, createdAt: old, updatedAt: old }).execute();
    await db
      .insertInto("sessions")
      .values({
        id: "visitor",
        userId: null,
        data: JSON.stringify({ cartId: "visited-cart", wishlistId: "visited-list" }),
        createdAt: old,
        lastSeenAt: iso(2 * 60 * 60 * 1000),
        // 90 days after it began, as every full session (a session that ends takes its guest cart along).
        expiresAt: iso(-61 * DAY),
      })
      .execute();
    const cookie = (await sessionCookie.serialize("visitor")).split(";")[0];
    const session = await getSession(new Request("http://localhost/", { headers: { Cookie: cookie } }));
    expect(session.get("cartId")).toBe("visited-cart");

    const since = Date.now() - 60_000;
    const cart = await db.selectFrom("carts").select("updatedAt").where("id", "=", "visited-cart").executeTakeFirstOrThrow();
    const list = await db.selectFrom("wishlists").select("updatedAt").where("id", "=", "visited-list").executeTakeFirstOrThrow();
    expect(Date.parse(cart.updatedAt)).toBeGreaterThan(since);
    expect(Date.parse(list.updatedAt)).toBeGreaterThan(since);
    // Two days later (31 days after the last add), housekeeping still keeps them.
    await purgeExpired(db, new Date(Date.now() + 2 * DAY));
    expect(await db.selectFrom("carts").select("id").where("id", "=", "visited-cart").executeTakeFirst()).toBeTruthy();
  });
});
