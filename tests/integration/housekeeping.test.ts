import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { purgeExpired } from "~/lib/housekeeping.server";

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
    const item = await db.selectFrom("items").select("id").where("stock", ">", 0).executeTakeFirstOrThrow();
    await db.insertInto("cartLines").values({ cartId: "old-cart", itemId: item.id, quantity: 1, createdAt: iso(40 * DAY) }).execute();
    await db
      .insertInto("rateLimits")
      .values([
        { key: "t:spent", count: 3, resetAt: iso(1000) },
        { key: "t:open", count: 3, resetAt: iso(-60_000) },
      ])
      .execute();

    const result = await purgeExpired(db);

    expect(result).toEqual({ sessions: 2, carts: 1, rateLimits: 1 });
    expect((await db.selectFrom("sessions").select("id").execute()).map((r) => r.id)).toEqual(["live"]);
    expect((await db.selectFrom("carts").select("id").execute()).map((r) => r.id)).toEqual(["fresh-cart"]);
    expect(await db.selectFrom("cartLines").select("id").where("cartId", "=", "old-cart").execute()).toEqual([]);
    expect((await db.selectFrom("rateLimits").select("key").execute()).map((r) => r.key)).toEqual(["t:open"]);
  });
});
