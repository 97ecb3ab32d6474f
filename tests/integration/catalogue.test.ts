import { beforeAll, describe, expect, it } from "vitest";
import { setItemFigures } from "../support/items";
import { seedOnFirstStart } from "../../db/seed.server";
import { seedCategories, seedProducts } from "../../db/seed-data";
import { ready } from "~/lib/boot.server";
import { createDb, db, toCount } from "~/lib/db.server";
import { migrateToLatest } from "~/lib/migrate.server";
import type { ItemRow } from "~/lib/db-schema";
import { getCategoryBySlug, listCategories } from "~/models/catalogue/categories.server";
import {
  getItemBySlug,
  listFeatured,
  listCategoryItemsPage as pageOfCategory,
  listRelated,
  listFeaturedPage,
  toItem,
} from "~/models/catalogue/products.server";
import type { Item, PriceRange } from "~/utils/catalogue";
import type { CategoryQuery } from "~/utils/catalogue-schemas";
import { PRICE_RANGE_KEYS } from "~/utils/catalogue";

const SLUGS = ["living-room", "bedroom", "dining-room", "office", "outdoor"];
const q = (partial: Partial<CategoryQuery> = {}): CategoryQuery => ({
  sort: "default",
  availability: [],
  price: [],
  featured: undefined,
  ...partial,
});

/** The price ranges of docs/product.md, written out independently of PRICE_RANGES. */
const inRange: Record<PriceRange, (price: number) => boolean> = {
  "under-15000": (p) => p < 15000,
  "15000-30000": (p) => p >= 15000 && p <= 30000,
  "30000-50000": (p) => p >= 30000 && p <= 50000,
  "above-50000": (p) => p > 50000,
};

/** Every item of a small category (the demo's, the boundary test's): one page of 100. */
const listCategoryItemsPage = async (id: number, query?: CategoryQuery) =>
  (await pageOfCategory(id, query, { offset: 0, limit: 100 })).rows;

const slugs = (items: Item[]) => items.map((i) => i.slug);
const sortedSlugs = (items: { slug: string }[]) => items.map((i) => i.slug).sort();

async function categoryId(slug: string) {
  const category = await getCategoryBySlug(slug);
  if (!category) throw new Error(`no category ${slug}`);
  return category.id;
}

beforeAll(async () => {
  await ready;
});

describe("categories", () => {
  it("lists the five seeded categories in position order", async () => {
    const categories = await listCategories();
    expect(categories.map((c) => c.slug)).toEqual(SLUGS);
    expect(categories.map((c) => c.slug)).toEqual([...seedCategories].sort((a, b) => a.position - b.position).map((c) => c.slug));
    for (const c of categories) {
      expect(c).toEqual({
        id: expect.any(Number),
        title: expect.any(String),
        description: expect.any(String),
        slug: expect.any(String),
        imgPath: `/images/categories/${c.slug}.svg`,
      });
      expect(c.title.length).toBeGreaterThan(0);
    }
  });

  it("finds a category by slug, and null for an unknown one", async () => {
    expect((await getCategoryBySlug("bedroom"))?.title).toBe("Bedroom");
    expect(await getCategoryBySlug("kitchen")).toBeNull();
  });
});

describe("seed data meets docs/product.md", () => {
  it("has ≥5 products per category, prices 9999..48999, ≥4 featured, one out of stock, specifications", async () => {
    for (const slug of SLUGS) {
      expect((await listCategoryItemsPage(await categoryId(slug))).length).toBeGreaterThanOrEqual(5);
    }
    const all = await db.selectFrom("items").selectAll().execute();
    expect(all.length).toBe(seedProducts.length);
    for (const row of all) {
      expect(row.price).toBeGreaterThanOrEqual(9999);
      expect(row.price).toBeLessThanOrEqual(48999);
      const item = toItem(row);
      expect(Object.keys(item.specifications).length).toBeGreaterThan(0);
    }
    expect(all.filter((r) => r.featured === 1).length).toBeGreaterThanOrEqual(4);
    expect(all.some((r) => r.stock === 0)).toBe(true);
  });
});

describe("listCategoryItemsPage on the seeded catalogue", () => {
  it("without a filter lists exactly the category's seeded products, in id order", async () => {
    for (const slug of SLUGS) {
      const items = await listCategoryItemsPage(await categoryId(slug));
      expect(sortedSlugs(items)).toEqual(sortedSlugs(seedProducts.filter((p) => p.categorySlug === slug)));
      const ids = items.map((i) => i.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(items.every((i) => i.categoryId === items[0].categoryId)).toBe(true);
    }
  });

  it("sorts by price ascending and descending", async () => {
    for (const slug of SLUGS) {
      const id = await categoryId(slug);
      const asc = (await listCategoryItemsPage(id, q({ sort: "price-asc" }))).map((i) => i.price);
      const desc = (await listCategoryItemsPage(id, q({ sort: "price-desc" }))).map((i) => i.price);
      expect(asc).toEqual([...asc].sort((a, b) => a - b));
      expect(desc).toEqual([...desc].sort((a, b) => b - a));
      expect(asc.length).toBe(desc.length);
      expect(new Set(asc).size).toBeGreaterThan(1); // a real sort, not a trivial one
      expect(asc).not.toEqual(desc);
    }
  });

  it("filters by availability", async () => {
    for (const slug of SLUGS) {
      const id = await categoryId(slug);
      const seeded = seedProducts.filter((p) => p.categorySlug === slug);
      const inStock = await listCategoryItemsPage(id, q({ availability: ["in-stock"] }));
      const outOfStock = await listCategoryItemsPage(id, q({ availability: ["out-of-stock"] }));
      const both = await listCategoryItemsPage(id, q({ availability: ["in-stock", "out-of-stock"] }));
      expect(sortedSlugs(inStock)).toEqual(sortedSlugs(seeded.filter((p) => p.stock > 0)));
      expect(sortedSlugs(outOfStock)).toEqual(sortedSlugs(seeded.filter((p) => p.stock === 0)));
      expect(inStock.every((i) => i.inStock && i.stock > 0)).toBe(true);
      expect(outOfStock.every((i) => !i.inStock && i.stock === 0)).toBe(true);
      expect(sortedSlugs(both)).toEqual(sortedSlugs(seeded));
    }
    // The seed has an out-of-stock living-room sofa, so the filter is really exercised.
    expect((await listCategoryItemsPage(await categoryId("living-room"), q({ availability: ["out-of-stock"] }))).length).toBeGreaterThan(0);
  });

  it("filters by each price range and by featured", async () => {
    for (const slug of SLUGS) {
      const id = await categoryId(slug);
      const seeded = seedProducts.filter((p) => p.categorySlug === slug);
      for (const key of PRICE_RANGE_KEYS) {
        const items = await listCategoryItemsPage(id, q({ price: [key] }));
        expect(sortedSlugs(items), `${slug} ${key}`).toEqual(sortedSlugs(seeded.filter((p) => inRange[key](p.price))));
      }
      const featured = await listCategoryItemsPage(id, q({ featured: "1" }));
      expect(sortedSlugs(featured)).toEqual(sortedSlugs(seeded.filter((p) => p.featured)));
      expect(featured.every((i) => i.featured)).toBe(true);
    }
  });

  it("combines filters (AND across groups, OR within a group) with a sort", async () => {
    for (const slug of SLUGS) {
      const id = await categoryId(slug);
      const seeded = seedProducts.filter((p) => p.categorySlug === slug);
      const items = await listCategoryItemsPage(
        id,
        q({ sort: "price-desc", availability: ["in-stock"], price: ["under-15000", "30000-50000"] }),
      );
      const expected = seeded
        .filter((p) => p.stock > 0 && (inRange["under-15000"](p.price) || inRange["30000-50000"](p.price)))
        .sort((a, b) => b.price - a.price);
      expect(items.map((i) => i.price)).toEqual(expected.map((p) => p.price));
      expect(sortedSlugs(items)).toEqual(sortedSlugs(expected));

      const featuredInStock = await listCategoryItemsPage(id, q({ featured: "1", availability: ["in-stock"] }));
      expect(sortedSlugs(featuredInStock)).toEqual(sortedSlugs(seeded.filter((p) => p.featured && p.stock > 0)));
    }
  });
});

describe("listCategoryItemsPage at the price-range boundaries", () => {
  const PRICES = [0, 9999, 14999, 15000, 15001, 29999, 30000, 30001, 49999, 50000, 50001, 99999];
  let boundaryCategory = 0;

  beforeAll(async () => {
    const now = new Date().toISOString();
    const cat = await db
      .insertInto("categories")
      .values({
        title: "Boundaries",
        slug: "zz-boundaries",
        description: "test",
        imgPath: "/x.svg",
        position: 99,
        createdAt: now,
        updatedAt: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    boundaryCategory = cat.id;
    for (const [i, price] of PRICES.entries()) {
      await db
        .insertInto("items")
        .values({
          categoryId: cat.id,
          title: `Boundary ${price}`,
          slug: `zz-boundary-${price}`,
          description: "test",
          price,
          imgPath: "/x.svg",
          featured: i % 3 === 0 ? 1 : 0,
          stock: i % 2,
          specifications: "{}",
          createdAt: now,
          updatedAt: now,
        })
        .execute();
    }
  });

  const prices = (items: Item[]) => items.map((i) => i.price).sort((a, b) => a - b);

  it.each([
    ["under-15000", [0, 9999, 14999]],
    ["15000-30000", [15000, 15001, 29999, 30000]],
    ["30000-50000", [30000, 30001, 49999, 50000]],
    ["above-50000", [50001, 99999]],
  ] as const)("%s includes exactly its boundaries", async (range, expected) => {
    expect(prices(await listCategoryItemsPage(boundaryCategory, q({ price: [range] })))).toEqual(expected);
  });

  it("all four ranges together cover every price once", async () => {
    const items = await listCategoryItemsPage(boundaryCategory, q({ price: [...PRICE_RANGE_KEYS] }));
    expect(prices(items)).toEqual(PRICES);
  });

  it("combines a range with availability and featured", async () => {
    const items = await listCategoryItemsPage(
      boundaryCategory,
      q({ price: ["15000-30000"], availability: ["in-stock"], sort: "price-asc" }),
    );
    const expected = PRICES.filter((p, i) => p >= 15000 && p <= 30000 && i % 2 === 1);
    expect(items.map((i) => i.price)).toEqual(expected);
    const featured = await listCategoryItemsPage(boundaryCategory, q({ featured: "1", availability: ["out-of-stock"] }));
    expect(prices(featured)).toEqual(PRICES.filter((_, i) => i % 3 === 0 && i % 2 === 0));
  });

  it("keeps other categories' items out", async () => {
    const items = await listCategoryItemsPage(boundaryCategory);
    expect(items.every((i) => i.slug.startsWith("zz-boundary-"))).toBe(true);
    expect(items.length).toBe(PRICES.length);
  });
});

describe("items", () => {
  it("finds an item by slug with its stock, inStock and specifications", async () => {
    const seed = seedProducts[0];
    const item = await getItemBySlug(seed.slug);
    expect(item).not.toBeNull();
    expect(item).toMatchObject({
      slug: seed.slug,
      title: seed.title,
      price: seed.price,
      featured: seed.featured,
      stock: seed.stock,
      inStock: seed.stock > 0,
      specifications: seed.specifications,
      imgPath: `/images/products/${seed.slug}.svg`,
    });
    const out = seedProducts.find((p) => p.stock === 0);
    expect(out).toBeDefined();
    expect(await getItemBySlug(out!.slug)).toMatchObject({ inStock: false, stock: 0 });
  });

  it("answers null for an unknown slug", async () => {
    expect(await getItemBySlug("no-such-product")).toBeNull();
  });

  it("listFeatured(4) gives four featured items; a page of 100, all of them with their count", async () => {
    const four = await listFeatured(4);
    expect(four).toHaveLength(4);
    expect(four.every((i) => i.featured)).toBe(true);
    const { rows: all, total } = await listFeaturedPage({ offset: 0, limit: 100 });
    const expectedCount = await db
      .selectFrom("items")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("featured", "=", 1)
      .executeTakeFirstOrThrow();
    expect(all).toHaveLength(toCount(expectedCount.n));
    expect(total).toBe(toCount(expectedCount.n));
    expect(all.every((i) => i.featured)).toBe(true);
    expect((await listFeaturedPage({ offset: 2, limit: 2 })).rows.map((i) => i.id)).toEqual(all.slice(2, 4).map((i) => i.id));
  });

  it("listRelated excludes the current product and holds only living-room items", async () => {
    const livingRoomId = await categoryId("living-room");
    const livingRoom = seedProducts.filter((p) => p.categorySlug === "living-room");
    const current = livingRoom[0].slug;
    const related = await listRelated(current);
    expect(related.length).toBeGreaterThan(0);
    expect(related.length).toBeLessThanOrEqual(4);
    expect(slugs(related)).not.toContain(current);
    expect(related.every((i) => i.categoryId === livingRoomId)).toBe(true);

    const fromOther = await listRelated(seedProducts.find((p) => p.categorySlug === "office")!.slug, 100);
    expect(sortedSlugs(fromOther)).toEqual(sortedSlugs(livingRoom));
    const fromLiving = await listRelated(current, 100);
    expect(sortedSlugs(fromLiving)).toEqual(sortedSlugs(livingRoom.filter((p) => p.slug !== current)));
  });
});

describe("toItem", () => {
  const row: ItemRow = {
    id: 7,
    categoryId: 2,
    title: "Test",
    slug: "test",
    description: "d",
    price: 1000,
    imgPath: "/images/products/test.svg",
    featured: 1,
    stock: 3,
    specifications: JSON.stringify({ Material: "Teak" }),
    version: 1,
    reviewCount: 0,
    ratingTotal: 0,
    madeToOrder: 0,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
  };

  it("derives inStock from stock", () => {
    expect(toItem(row)).toMatchObject({ inStock: true, stock: 3, featured: true, specifications: { Material: "Teak" } });
    expect(toItem({ ...row, stock: 1 }).inStock).toBe(true);
    expect(toItem({ ...row, stock: 0 })).toMatchObject({ inStock: false, stock: 0 });
    expect(toItem({ ...row, featured: 0 }).featured).toBe(false);
    expect(toItem(row).madeToOrder).toBe(false);
    expect(toItem({ ...row, madeToOrder: 1 }).madeToOrder).toBe(true);
  });

  it("never leaks database-only columns and survives bad specifications", () => {
    const item = toItem({ ...row, specifications: "not json" });
    expect(item.specifications).toEqual({});
    expect(Object.keys(item).sort()).toEqual(
      [
        ...["id", "categoryId", "title", "slug", "description", "price", "imgPath", "featured", "inStock", "stock", "specifications"],
        ...["averageRating", "reviewCount", "madeToOrder"],
      ].sort(),
    );
    expect(toItem({ ...row, specifications: "[1,2]" }).specifications).toEqual({});
  });

  it("carries the rating of the product's visible reviews: the average to one decimal, null without any", () => {
    expect(toItem(row)).toMatchObject({ averageRating: null, reviewCount: 0 });
    expect(toItem({ ...row, reviewCount: 3, ratingTotal: 13 })).toMatchObject({ averageRating: 4.3, reviewCount: 3 });
    expect(toItem({ ...row, reviewCount: 2, ratingTotal: 9 })).toMatchObject({ averageRating: 4.5, reviewCount: 2 });
  });
});

describe("seedOnFirstStart", () => {
  it("does not reseed a database seeded before", async () => {
    const slug = seedProducts[0].slug;
    const { id: itemId } = await db.selectFrom("items").select("id").where("slug", "=", slug).executeTakeFirstOrThrow();
    await setItemFigures(itemId, { price: 11111 });
    const before = await db
      .selectFrom("items")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(await seedOnFirstStart(db, "demo")).toBe(false);
    const after = await db
      .selectFrom("items")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(toCount(after.n)).toBe(toCount(before.n));
    expect((await getItemBySlug(slug))?.price).toBe(11111);
    await setItemFigures(itemId, { price: seedProducts[0].price });
  });

  it("seeds an empty database once", async () => {
    const fresh = createDb(":memory:");
    try {
      await migrateToLatest(fresh);
      expect(await seedOnFirstStart(fresh, "demo")).toBe(true);
      expect((await listCategories(fresh)).map((c) => c.slug)).toEqual(SLUGS);
      const n = await fresh
        .selectFrom("items")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow();
      expect(toCount(n.n)).toBe(seedProducts.length);
      expect(await seedOnFirstStart(fresh, "demo")).toBe(false);
    } finally {
      await fresh.destroy();
    }
  });
});
