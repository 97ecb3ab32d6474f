import { describe, expect, it } from "vitest";
import { createDb } from "~/lib/db.server";
import { migrateToLatest } from "~/lib/migrate.server";
import { listCategoriesOrDefaults } from "~/models/catalogue/categories.server";
import { DEFAULT_CATEGORIES } from "~/utils/default-categories";

describe("default categories", () => {
  it("are shown for a shop with no categories", async () => {
    const empty = createDb(":memory:");
    await migrateToLatest(empty);
    expect(await listCategoriesOrDefaults(empty)).toEqual(DEFAULT_CATEGORIES);
    await empty.destroy();
  });

  it("remain when the database cannot be read", async () => {
    const broken = createDb(":memory:"); // never migrated: the categories table does not exist
    expect(await listCategoriesOrDefaults(broken)).toEqual(DEFAULT_CATEGORIES);
    await broken.destroy();
  });

  it("give way to the shop's own categories", async () => {
    const shop = createDb(":memory:");
    await migrateToLatest(shop);
    const now = new Date().toISOString();
    await shop
      .insertInto("categories")
      .values({
        title: "Kids",
        slug: "kids",
        description: "For little ones",
        imgPath: "/images/categories/kids.svg",
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    expect((await listCategoriesOrDefaults(shop)).map((c) => c.slug)).toEqual(["kids"]);
    await shop.destroy();
  });
});
