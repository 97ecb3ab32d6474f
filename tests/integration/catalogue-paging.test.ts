// A mid-size catalogue (docs/decisions/0013): the large seed's generator fills this file's own
// database with 5,000 products (the demo's 30 included), then the category pages and the product
// lists of the API are paged through: first, middle, last and past the last page, sort and filters
// kept across pages, totals, page sizes, bad page numbers. The references are computed here from
// every row of a category, independently of the model's SQL.
import { cardsWithVariants, cardVariants } from "~/models/catalogue/variant-lists.server";
import { beforeAll, describe, expect, it } from "vitest";
import { FEATURED_SHARE, generateLargeCatalogue, LARGE_PRICE_MAX, LARGE_PRICE_MIN, OUT_OF_STOCK_SHARE } from "../../db/large-seed";
import { seedCategories, seedProducts } from "../../db/seed-data";
import { CatalogueNotEmptyError, INSERT_BATCH, SEEDED, seedLarge } from "../../db/seed.server";
import { colourPalette } from "~/content/illustrations.server";
import { db, toCount } from "~/lib/db.server";
import type { ItemRow } from "~/lib/db-schema";
import { migrateToLatest } from "~/lib/migrate.server";
import { listCategoryItemsPage, toItem } from "~/models/catalogue/products.server";
import * as categoryItemsApi from "~/routes/api.category.items";
import * as featuredApi from "~/routes/api.furniture-items.featured";
import * as categoryPage from "~/routes/category.$slug";
import type { CardItem, Item } from "~/utils/catalogue";
import { cardOf } from "~/utils/catalogue";
import type { CategoryQuery } from "~/utils/catalogue-schemas";
import { CategoryQuerySchema } from "~/utils/catalogue-schemas";
import { getRequest } from "../support/requests";
import type { Answer } from "../support/route-calls";
import { asRecord, call, expectApiError } from "../support/route-calls";

const TOTAL = 5_000;
const PER_CATEGORY = TOTAL / seedCategories.length;
const PAGE = 24;
let seconds = 0;

beforeAll(async () => {
  await migrateToLatest(db);
  const started = performance.now();
  expect(await seedLarge(db, TOTAL)).toEqual({ categories: seedCategories.length, products: TOTAL });
  seconds = (performance.now() - started) / 1000;
}, 60_000);

async function categoryIdOf(slug: string): Promise<number> {
  return (await db.selectFrom("categories").select("id").where("slug", "=", slug).executeTakeFirstOrThrow()).id;
}

/** Every item of a category, in JavaScript: the reference the paged SQL must agree with. */
async function everyItem(slug: string): Promise<Item[]> {
  const rows: ItemRow[] = await db
    .selectFrom("items")
    .selectAll()
    .where("categoryId", "=", await categoryIdOf(slug))
    .execute();
  return rows.map(toItem).sort((a, b) => a.id - b.id);
}

function reference(items: Item[], query: CategoryQuery): Item[] {
  let out = items;
  if (query.availability.length === 1) out = out.filter((i) => (query.availability[0] === "in-stock" ? i.stock > 0 : i.stock === 0));
  if (query.featured) out = out.filter((i) => i.featured);
  if (query.price.includes("under-15000")) out = out.filter((i) => i.price < 15000);
  if (query.sort === "price-asc") out = [...out].sort((a, b) => a.price - b.price || a.id - b.id);
  if (query.sort === "price-desc") out = [...out].sort((a, b) => b.price - a.price || b.id - a.id);
  return out;
}

const ids = (items: { id: number }[]) => items.map((i) => i.id);

interface PageData {
  items: CardItem[];
  info: { page: number; pages: number; total: number; from: number; to: number };
}

async function openPage(path: string): Promise<Answer> {
  const slug = /^\/category\/([^?]*)/.exec(path)![1]!;
  return call(categoryPage.loader, getRequest(path), { slug });
}

async function pageData(path: string): Promise<PageData> {
  const answer = await openPage(path);
  expect(answer.status, path).toBe(200);
  return answer.body as PageData;
}

describe("the large seed, at 5,000 products", () => {
  it("is deterministic: the same total gives the same products, and a larger total only adds to them", () => {
    const once = generateLargeCatalogue(TOTAL);
    expect(generateLargeCatalogue(TOTAL)).toEqual(once);
    expect(once).toHaveLength(TOTAL - seedProducts.length);
    expect(generateLargeCatalogue(TOTAL + 500).slice(0, once.length)).toEqual(once);
    expect(generateLargeCatalogue(10)).toEqual([]);
  });

  it("filled the database in one go, with the demo's 30 products exactly as they are", async () => {
    console.info(`seedLarge(${TOTAL}) took ${seconds.toFixed(2)} s (batches of ${INSERT_BATCH} rows)`);
    expect(seconds).toBeLessThan(20);
    const count = await db
      .selectFrom("items")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(toCount(count.n)).toBe(TOTAL);
    for (const p of seedProducts) {
      const row = await db.selectFrom("items").selectAll().where("slug", "=", p.slug).executeTakeFirstOrThrow();
      expect(row).toMatchObject({
        title: p.title,
        description: p.description,
        price: p.price,
        stock: p.stock,
        featured: p.featured ? 1 : 0,
      });
      expect(JSON.parse(row.specifications)).toEqual(p.specifications);
    }
    const seeded = await db.selectFrom("settings").select("value").where("key", "=", SEEDED).executeTakeFirst();
    expect(seeded?.value).toBe("large");
  });

  it("spreads the products evenly over the five categories, with realistic figures", async () => {
    const generated = generateLargeCatalogue(TOTAL);
    const bySlug = new Map(generated.map((p) => [p.slug, p]));
    for (const c of seedCategories) expect((await everyItem(c.slug)).length).toBe(PER_CATEGORY);
    const prices = generated.map((p) => p.price);
    expect(Math.min(...prices)).toBeGreaterThanOrEqual(LARGE_PRICE_MIN);
    expect(Math.max(...prices)).toBeLessThanOrEqual(LARGE_PRICE_MAX);
    expect(prices.every((p) => Number.isInteger(p) && p % 1000 === 999)).toBe(true);
    const outShare = generated.filter((p) => p.stock === 0).length / generated.length;
    expect(Math.abs(outShare - OUT_OF_STOCK_SHARE)).toBeLessThan(0.015);
    const featured = generated.filter((p) => p.featured).length;
    expect(featured).toBeGreaterThan(0);
    expect(featured / generated.length).toBeLessThan(FEATURED_SHARE * 3);
    expect(bySlug.size).toBe(generated.length);
    for (const p of generated) {
      expect(p.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*-\d{5,}$/);
      expect(p.title.length).toBeLessThanOrEqual(120);
      expect(Object.keys(colourPalette)).toContain(p.specifications.Color);
      expect(p.specifications.Dimensions).toMatch(/^\d+ x \d+ x \d+ cm$/);
      expect(p.specifications.Material).toBeTruthy();
    }
    // The rows are the generator's, image path included.
    const sample = await db
      .selectFrom("items")
      .selectAll()
      .where("slug", "in", [generated[0]!.slug, generated.at(-1)!.slug])
      .execute();
    for (const row of sample) {
      const p = bySlug.get(row.slug)!;
      expect(row).toMatchObject({ title: p.title, price: p.price, stock: p.stock, imgPath: `/images/products/${p.slug}.svg` });
      expect(JSON.parse(row.specifications)).toEqual(p.specifications);
    }
  });

  it("refuses a catalogue that already has products, and writes nothing", async () => {
    await expect(seedLarge(db, TOTAL + 100)).rejects.toBeInstanceOf(CatalogueNotEmptyError);
    const count = await db
      .selectFrom("items")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(toCount(count.n)).toBe(TOTAL);
  });
});

describe("category pages: 24 products a page", () => {
  it("pages through a category: first, middle, last, each 'Showing X to Y of Z'", async () => {
    const all = await everyItem("living-room");
    const pages = Math.ceil(PER_CATEGORY / PAGE);
    const first = await pageData("/category/living-room");
    expect(first.info).toMatchObject({ page: 1, pages, total: PER_CATEGORY, from: 1, to: PAGE });
    expect(ids(first.items)).toEqual(ids(all.slice(0, PAGE)));
    expect(await pageData("/category/living-room?page=1")).toEqual(first);
    const middle = await pageData("/category/living-room?page=20");
    expect(ids(middle.items)).toEqual(ids(all.slice(19 * PAGE, 20 * PAGE)));
    expect(middle.info).toMatchObject({ from: 19 * PAGE + 1, to: 20 * PAGE });
    const last = await pageData(`/category/living-room?page=${pages}`);
    expect(ids(last.items)).toEqual(ids(all.slice((pages - 1) * PAGE)));
    expect(last.items.length).toBe(PER_CATEGORY - (pages - 1) * PAGE);
    expect(last.info).toMatchObject({ from: (pages - 1) * PAGE + 1, to: PER_CATEGORY });
  });

  it("sends each product as its card shows it: a summary, no specifications, no stock figure", async () => {
    const all = await everyItem("living-room");
    const first = await pageData("/category/living-room");
    // A piece sold in several variants also carries its card's summary of them ('From ₹X', its first option's values).
    const pageItems = all.slice(0, PAGE);
    expect(first.items).toEqual(
      cardsWithVariants(
        pageItems,
        await cardVariants(
          db,
          pageItems.map((i) => i.id),
        ),
      ),
    );
    expect(first.items.map(({ variants: _variants, ...card }) => card)).toEqual(pageItems.map(cardOf));
    for (const card of first.items) {
      expect(card).not.toHaveProperty("specifications");
      expect(card).not.toHaveProperty("stock");
    }
    expect(first.items.some((card, i) => card.summary.length < all[i]!.description.length)).toBe(true);
  });

  it("answers 404 for a page past the last, and for a page number that is not one", async () => {
    const pages = Math.ceil(PER_CATEGORY / PAGE);
    for (const page of [String(pages + 1), "999999999", "0", "-1", "abc", "2.5", "1e3", "", "1234567890"]) {
      const answer = await openPage(`/category/living-room?page=${encodeURIComponent(page)}`);
      expect(answer.status, `page=${page}`).toBe(404);
      expect(answer.body, `page=${page}`).toBe("Page Not Found");
    }
    expect((await openPage("/category/living-room?page=1&page=2")).status).toBe(404);
    expect((await openPage("/category/no-such-room?page=2")).body).toBe("Category Not Found");
  });

  it("keeps sort and filters across pages, with the filtered total", async () => {
    const all = await everyItem("bedroom");
    const cases: [string, Partial<Record<string, string | string[]>>][] = [
      ["sort=price-asc", { sort: "price-asc" }],
      ["sort=price-desc&availability=in-stock", { sort: "price-desc", availability: "in-stock" }],
      ["availability=out-of-stock", { availability: "out-of-stock" }],
      ["featured=1&sort=price-asc", { featured: "1", sort: "price-asc" }],
      ["price=under-15000&sort=price-desc", { price: "under-15000", sort: "price-desc" }],
    ];
    for (const [qs, raw] of cases) {
      const expected = reference(all, CategoryQuerySchema.parse(raw));
      const seen: CardItem[] = [];
      let pages = 1;
      for (let page = 1; page <= pages; page++) {
        const data = await pageData(`/category/bedroom?${qs}&page=${page}`);
        expect(data.info.total, qs).toBe(expected.length);
        pages = data.info.pages;
        seen.push(...data.items);
      }
      expect(ids(seen), qs).toEqual(ids(expected));
      expect((await openPage(`/category/bedroom?${qs}&page=${pages + 1}`)).status).toBe(404);
    }
    // About 5% are out of stock: still more than one page, so that filter was paged too.
    expect(reference(all, CategoryQuerySchema.parse({ availability: "out-of-stock" })).length).toBeGreaterThan(PAGE);
  });

  it("shows an empty category as one empty page (not a 404); its page 2 is a 404", async () => {
    const now = new Date().toISOString();
    await db
      .insertInto("categories")
      .values({
        title: "Empty Room",
        slug: "empty-room",
        description: "Nothing yet",
        imgPath: "/x.svg",
        position: 9,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    const empty = await pageData("/category/empty-room?sort=price-asc");
    expect(empty.items).toEqual([]);
    expect(empty.info).toMatchObject({ page: 1, pages: 1, total: 0 });
    expect((await openPage("/category/empty-room?page=2")).status).toBe(404);
  });

  it("reads one page of rows from the model, however large the category", async () => {
    const id = await categoryIdOf("outdoor");
    const page = await listCategoryItemsPage(id, CategoryQuerySchema.parse({ sort: "price-asc" }), { offset: 480, limit: 24 });
    expect(page.rows).toHaveLength(24);
    expect(page.total).toBe(PER_CATEGORY);
    const past = await listCategoryItemsPage(id, undefined, { offset: PER_CATEGORY, limit: 24 });
    expect(past).toEqual({ rows: [], total: PER_CATEGORY });
  });
});

describe("GET /api/category/items: page, pageSize, total", () => {
  const get = (qs: string) => call(categoryItemsApi.loader, getRequest(`/api/category/items?${qs}`));

  it("answers 48 by default with the category, total, page and pageSize", async () => {
    const all = await everyItem("dining-room");
    const body = asRecord((await get("slug=dining-room")).body);
    expect(Object.keys(body).sort()).toEqual(["category", "items", "page", "pageSize", "total"]);
    expect(body).toMatchObject({ total: PER_CATEGORY, page: 1, pageSize: 48, category: { slug: "dining-room" } });
    expect(ids(body.items as Item[])).toEqual(ids(all.slice(0, 48)));
  });

  it("pages to the end and past it; pageSize up to 100", async () => {
    const all = await everyItem("dining-room");
    const last = Math.ceil(PER_CATEGORY / 100);
    const seen: Item[] = [];
    for (let page = 1; page <= last; page++) {
      const body = asRecord((await get(`slug=dining-room&page=${page}&pageSize=100`)).body);
      expect(body).toMatchObject({ total: PER_CATEGORY, page, pageSize: 100 });
      seen.push(...(body.items as Item[]));
    }
    expect(ids(seen)).toEqual(ids(all));
    const past = await get(`slug=dining-room&page=${last + 1}&pageSize=100`);
    expect(past.status).toBe(200);
    expect(past.body).toMatchObject({ items: [], total: PER_CATEGORY, page: last + 1, pageSize: 100 });
    const middle = asRecord((await get("slug=dining-room&page=3&pageSize=7")).body);
    expect(ids(middle.items as Item[])).toEqual(ids(all.slice(14, 21)));
  });

  it("answers 400 with the error shape for a bad page or pageSize", async () => {
    const bad: [string, "page" | "pageSize"][] = [
      ["page=0", "page"],
      ["page=-1", "page"],
      ["page=abc", "page"],
      ["page=1&page=2", "page"],
      ["pageSize=0", "pageSize"],
      ["pageSize=101", "pageSize"],
      ["pageSize=100000", "pageSize"],
      ["pageSize=4.5", "pageSize"],
    ];
    for (const [qs, field] of bad) {
      const error = expectApiError(await get(`slug=dining-room&${qs}`), 400);
      expect(error.errors?.[field], qs).toEqual(expect.any(String));
    }
    expectApiError(await get("slug=no-such-room"), 404);
  });

  it("GET /api/furniture-items/featured is a paged Item[] with X-Total-Count and Link", async () => {
    const total = toCount(
      (
        await db
          .selectFrom("items")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("featured", "=", 1)
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(total).toBeGreaterThan(10);
    const first = await call(featuredApi.loader, getRequest("/api/furniture-items/featured?pageSize=10"));
    expect(first.status).toBe(200);
    expect(first.body as Item[]).toHaveLength(10);
    expect((first.body as Item[]).every((i) => i.featured)).toBe(true);
    expect(first.headers.get("X-Total-Count")).toBe(String(total));
    expect(first.headers.get("Link")).toMatch(/page=2.*rel="next"/);
    const all = await call(featuredApi.loader, getRequest("/api/furniture-items/featured?pageSize=100"));
    expect((all.body as Item[]).length).toBe(Math.min(total, 100));
    expectApiError(await call(featuredApi.loader, getRequest("/api/furniture-items/featured?pageSize=101")), 400);
  });
});
