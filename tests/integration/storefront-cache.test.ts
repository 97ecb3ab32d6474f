// The storefront's kept catalogue reads (models/catalogue/storefront.server): a page rendered for a
// visitor with a cookie shows every write at once, as a fresh read would.
import { setItemFigures } from "../support/items";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { whenListening } from "~/lib/write-watch.server";
import { requestWroteShown, runWithRequest } from "~/lib/request-context.server";
import { storefront } from "~/models/catalogue/storefront.server";
import { searchItems } from "~/models/catalogue/search.server";
import { parseSearch } from "~/utils/search";
import { createTestItem } from "../support/items";

beforeAll(async () => {
  await ready;
  await whenListening();
});

describe("storefront catalogue reads", () => {
  it("answer what was written since, categories and products alike", async () => {
    const [first] = await storefront.categories();
    expect(first).toBeDefined();
    await db.updateTable("categories").set({ title: "Kept Title Check" }).where("id", "=", first!.id).execute();
    expect((await storefront.categories())[0]!.title).toBe("Kept Title Check");
    expect((await storefront.categoryBySlug(first!.slug))!.title).toBe("Kept Title Check");
    await db.updateTable("categories").set({ title: first!.title }).where("id", "=", first!.id).execute();
    expect((await storefront.categories())[0]!.title).toBe(first!.title);

    const id = await createTestItem("kept-read-check", { price: 1000, stock: 2 });
    const before = await storefront.itemBySlug("kept-read-check");
    expect(before).toMatchObject({ id, price: 1000, inStock: true });
    await setItemFigures(id, { price: 1500, stock: 0 });
    expect(await storefront.itemBySlug("kept-read-check")).toMatchObject({ price: 1500, inStock: false });
  });

  it("hands out the same frozen answer while nothing was written", async () => {
    const a = await storefront.categories();
    const b = await storefront.categories();
    expect(b).toBe(a);
    expect(Object.isFrozen(a[0])).toBe(true);
  });

  it("a search's pages, sorts and filters read its index once while nothing is written, and show a write at once", async () => {
    const id = await createTestItem("kept-search-wombat", { price: 1000, stock: 2 });
    const words = parseSearch("wombat").words;
    const unfiltered = { sort: "default" as const, availability: [], price: [], featured: undefined };
    const asks = () => [
      searchItems(words),
      searchItems(words, { ...unfiltered, sort: "price-asc" }),
      searchItems(words, { ...unfiltered, availability: ["in-stock"] }, { offset: 0, limit: 12 }),
    ];
    const first = await Promise.all(asks());
    expect(first.map((page) => page.rows.map((r) => r.id))).toEqual([[id], [id], [id]]);
    const queries = vi.spyOn(db.getExecutor(), "executeQuery");
    try {
      // Asked again: the same answers, the products read by id, the index not at all.
      expect(await Promise.all(asks())).toEqual(first);
      const read = queries.mock.calls.map(([query]) => query.sql);
      expect(read.length).toBeGreaterThan(0);
      expect(read.filter((text) => /items_fts|items_search/.test(text))).toEqual([]);
    } finally {
      queries.mockRestore();
    }
    // A write shows at once: renamed, the product is found by its new word and no longer by the old.
    await db.updateTable("items").set({ title: "Test Numbat Lamp" }).where("id", "=", id).execute();
    expect((await searchItems(words)).rows).toEqual([]);
    expect((await searchItems(parseSearch("numbat").words)).rows.map((r) => r.id)).toEqual([id]);
  });

  // A marked request's answer sets the fresh-reads cookie on PostgreSQL (app/lib/fresh-reads.server.ts).
  it("a request that writes what a page shows is marked so; one that writes only a cart, or reads, is not", async () => {
    const id = await createTestItem("kept-marked-write", { price: 1000, stock: 2 });
    const wrote = await runWithRequest("marks-a-price", async () => {
      await db.updateTable("items").set({ description: "Marked." }).where("id", "=", id).execute();
      return requestWroteShown();
    });
    expect(wrote).toBe(true);
    const cartOnly = await runWithRequest("marks-a-cart", async () => {
      await db.deleteFrom("cartLines").where("id", "=", -1).execute();
      return requestWroteShown();
    });
    expect(cartOnly).toBe(false);
    const readOnly = await runWithRequest("reads-only", async () => {
      await storefront.itemBySlug("kept-marked-write");
      return requestWroteShown();
    });
    expect(readOnly).toBe(false);
  });
});
