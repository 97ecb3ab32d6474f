// Seeding happens once in a database's life (ADR 0002): a shop whose staff deleted
// every category must not get the demo catalogue back when the server restarts. Each start below
// is what a restarted server does: a fresh module graph (boot migrates, then seeds or not) over
// the same database.
import crypto from "node:crypto";
import path from "node:path";
import { Migrator, sql } from "kysely";
import pg from "pg";
import { afterAll, describe, expect, it, vi } from "vitest";
import { migrations } from "../../db/migrations";
import { seedCategories, seedProducts } from "../../db/seed-data";
import { SEEDED, seedDemo, seedOnFirstStart } from "../../db/seed.server";
import type { Db } from "~/lib/db.server";
import { createDb, toCount } from "~/lib/db.server";
import { migrateToLatest } from "~/lib/migrate.server";
import { forget, remember } from "~/lib/remember.server";

const FLAG_MIGRATION = "2026-11-23-0007-seeded-flag";
const original = { DATABASE_URL: process.env.DATABASE_URL, SEED: process.env.SEED };

/** A database of its own: a SQLite file in this file's data folder, or a new PostgreSQL database. */
async function newDatabaseUrl(): Promise<string> {
  const name = `shop_seed_${crypto.randomBytes(6).toString("hex")}`;
  const adminUrl = process.env.TEST_PG_URL;
  if (!adminUrl) return `file:${path.join(process.env.DATA_DIR!, `${name}.db`)}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function closeProcessDb() {
  await remember<Db | null>("db", () => null)?.destroy();
  forget("db");
  forget("boot");
}

/** Starts the app over `url` as a restarted server would, and answers its database. */
async function start(url: string, seed: "demo" | "none" = "demo"): Promise<Db> {
  await closeProcessDb();
  process.env.DATABASE_URL = url;
  process.env.SEED = seed;
  vi.resetModules();
  const boot = await import("~/lib/boot.server");
  await boot.ready;
  return (await import("~/lib/db.server")).db;
}

async function count(db: Db, table: "categories" | "items") {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return toCount(row.n);
}

async function emptyCatalogue(db: Db) {
  await db.deleteFrom("items").execute();
  await db.deleteFrom("categories").execute();
}

afterAll(async () => {
  await closeProcessDb();
  process.env.DATABASE_URL = original.DATABASE_URL;
  process.env.SEED = original.SEED;
});

describe("seeding at start", () => {
  it("seeds a new database with the demo catalogue, and never again once its catalogue was emptied", async () => {
    const url = await newDatabaseUrl();
    let db = await start(url);
    expect(await count(db, "categories")).toBe(seedCategories.length);
    expect(await count(db, "items")).toBe(seedProducts.length);

    await emptyCatalogue(db);
    db = await start(url);
    expect(await count(db, "categories")).toBe(0);
    expect(await count(db, "items")).toBe(0);

    // A later start with the same database leaves the staff's own catalogue alone.
    const now = new Date().toISOString();
    await db
      .insertInto("categories")
      .values({ title: "Kids", slug: "kids", description: "For little ones", imgPath: "/k.svg", createdAt: now, updatedAt: now })
      .execute();
    db = await start(url);
    expect((await db.selectFrom("categories").select("slug").execute()).map((c) => c.slug)).toEqual(["kids"]);
    expect(await count(db, "items")).toBe(0);
  });

  it("counts a database that held a catalogue before seeding was recorded as seeded", async () => {
    const url = await newDatabaseUrl();
    // The schema as it was before the record existed, with a shop's own category in it.
    const before = Object.keys(migrations)
      .filter((name) => name < FLAG_MIGRATION)
      .sort()
      .at(-1)!;
    const old = createDb(url);
    const migrated = await new Migrator({
      db: old.withoutPlugins(),
      provider: { getMigrations: async () => migrations },
    }).migrateTo(before);
    expect(migrated.error).toBeUndefined();
    const now = new Date().toISOString();
    await old
      .insertInto("categories")
      .values({ title: "Beds", slug: "our-beds", description: "Ours", imgPath: "/b.svg", createdAt: now, updatedAt: now })
      .execute();
    await old.destroy();

    let db = await start(url);
    expect((await db.selectFrom("categories").select("slug").execute()).map((c) => c.slug)).toEqual(["our-beds"]);
    await emptyCatalogue(db);
    db = await start(url);
    expect(await count(db, "categories")).toBe(0);
  });

  it("remembers a first start with SEED=none: a later start with SEED=demo seeds nothing", async () => {
    const url = await newDatabaseUrl();
    let db = await start(url, "none");
    expect(await count(db, "categories")).toBe(0);
    db = await start(url, "demo");
    expect(await count(db, "categories")).toBe(0);
  });

  it("still loads (or refreshes) the demo catalogue when asked: npm run db:seed", async () => {
    const url = await newDatabaseUrl();
    let db = await start(url);
    await emptyCatalogue(db);
    expect(await seedDemo(db)).toEqual({ categories: seedCategories.length, products: seedProducts.length });
    expect(await count(db, "categories")).toBe(seedCategories.length);
    expect(await count(db, "items")).toBe(seedProducts.length);
    db = await start(url);
    expect(await count(db, "items")).toBe(seedProducts.length);
  });

  it("SEED=large: a first start loads the demo catalogue plus generated products (here up to 600), a later start nothing", async () => {
    const db = createDb(await newDatabaseUrl());
    try {
      await migrateToLatest(db);
      expect(await seedOnFirstStart(db, "large", 600)).toBe(true);
      expect(await count(db, "categories")).toBe(seedCategories.length);
      expect(await count(db, "items")).toBe(600);
      for (const p of seedProducts.slice(0, 3)) {
        expect(await db.selectFrom("items").select("title").where("slug", "=", p.slug).executeTakeFirst()).toEqual({ title: p.title });
      }
      expect((await db.selectFrom("settings").select("value").where("key", "=", SEEDED).executeTakeFirst())?.value).toBe("large");
      expect(await seedOnFirstStart(db, "large", 600)).toBe(false);
      expect(await count(db, "items")).toBe(600);
    } finally {
      await db.destroy();
    }
  });

  it("SEED=large: its set-based writes are what the triggers write, and the triggers are on again after it", async () => {
    const db = createDb(await newDatabaseUrl());
    try {
      await migrateToLatest(db);
      expect(await seedOnFirstStart(db, "large", 600)).toBe(true);
      // Every product has its variants (the generated ones several), and its figures are theirs.
      const figures = await sql<{ id: number; stock: number; price: number; variants: number | string; sum: number | string; min: number }>`
        select i.id, i.stock, i.price, count(v.id) as variants, sum(v.stock) as sum, min(v.price) as min
        from items i join product_variants v on v.item_id = i.id and v.active = 1 group by i.id, i.stock, i.price`.execute(db);
      expect(figures.rows).toHaveLength(600);
      expect(figures.rows.filter((r) => toCount(r.sum) !== r.stock || r.min !== r.price)).toEqual([]);
      expect(figures.rows.filter((r) => toCount(r.variants) > 1).length).toBeGreaterThan(400);
      // The facets hold one row per active variant and value, with the copies the triggers keep.
      const facetColumns = sql`variant_id, option_value_id, item_id, category_id, option_slug, value_slug, in_stock, price, featured`;
      const facets = await sql`select ${facetColumns} from variant_facets order by variant_id, option_value_id`.execute(db);
      const expected = await sql`select ${facetColumns} from (
          select pv.id as variant_id, v.id as option_value_id, pv.item_id, i.category_id, o.slug as option_slug,
            v.slug as value_slug, case when pv.stock > 0 then 1 else 0 end as in_stock, i.price, i.featured
          from product_variants pv join variant_option_values x on x.variant_id = pv.id
          join product_option_values v on v.id = x.option_value_id join product_options o on o.id = v.option_id
          join items i on i.id = pv.item_id where pv.active = 1) e
        order by variant_id, option_value_id`.execute(db);
      expect(facets.rows.length).toBeGreaterThan(1000);
      expect(facets.rows).toEqual(expected.rows);
      // Each table it filled has planner statistics (without them PostgreSQL read a page's variants three times slower).
      const filled = ["items", "product_options", "product_option_values", "product_variants", "variant_option_values", "variant_facets"];
      const analyzed = process.env.TEST_PG_URL
        ? await sql<{ name: string }>`select relname as name from pg_stat_user_tables where last_analyze is not null`.execute(db)
        : await sql<{ name: string }>`select distinct tbl as name from sqlite_stat1`.execute(db);
      expect(filled.filter((table) => !analyzed.rows.some((r) => r.name === table))).toEqual([]);
      // The triggers answer again: a new product gets its default variant, a variant's stock its product's figure.
      const category = await db.selectFrom("categories").select("id").executeTakeFirstOrThrow();
      const now = new Date().toISOString();
      const added = await db
        .insertInto("items")
        .values({
          slug: "after-the-seed",
          title: "After The Seed",
          price: 1000,
          stock: 4,
          categoryId: category.id,
          description: "",
          imgPath: "",
          createdAt: now,
          updatedAt: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      expect(await db.selectFrom("productVariants").select(["price", "stock"]).where("itemId", "=", added.id).execute()).toEqual([
        { price: 1000, stock: 4 },
      ]);
      const several = figures.rows.find((r) => toCount(r.variants) > 1)!;
      const variant = await db
        .selectFrom("productVariants")
        .select(["id", "stock"])
        .where("itemId", "=", several.id)
        .executeTakeFirstOrThrow();
      await db
        .updateTable("productVariants")
        .set({ stock: variant.stock + 5 })
        .where("id", "=", variant.id)
        .execute();
      expect((await db.selectFrom("items").select("stock").where("id", "=", several.id).executeTakeFirstOrThrow()).stock).toBe(
        several.stock + 5,
      );
    } finally {
      await db.destroy();
    }
  });
});
