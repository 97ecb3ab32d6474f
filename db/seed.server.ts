// The demo catalogue. A database's first start loads it (SEED=demo), loads it with generated
// products up to 100,000 (SEED=large, db/large-seed.ts) or not (SEED=none), and `npm run db:seed`
// loads or refreshes it on demand (`-- --large`: the large catalogue, into an empty one). Both record in `settings` that the database
// was seeded: a start seeds only a database without that record, so a live shop whose staff
// deleted every category does not get the demo catalogue back when the server restarts.
import type { Kysely, Transaction } from "kysely";
import { PostgresAdapter, sql } from "kysely";
import type { DB } from "../app/lib/db-schema";
import { seedCategories, seedProducts } from "./seed-data";
import type { SeedProduct } from "./seed-data";
import { generateLargeCatalogue, LARGE_SEED_TOTAL } from "./large-seed";
import { seedVariants, seedVariantSet } from "./seed-variants";
import { seedGeneratedProducts } from "./large-variants";
import { writeVariantSet } from "../app/models/catalogue/variant-writes.server";

export const categoryImagePath = (slug: string) => `/images/categories/${slug}.svg`;
export const productImagePath = (slug: string) => `/images/products/${slug}.svg`;

/** The settings key that says the database was seeded; its value says how: demo, none, or existing (a catalogue was there before). */
export const SEEDED = "seeded";

async function loadDemo(trx: Transaction<DB>, now: string) {
  for (const c of seedCategories) {
    await trx
      .insertInto("categories")
      .values({
        title: c.title,
        slug: c.slug,
        description: c.description,
        imgPath: categoryImagePath(c.slug),
        position: c.position,
        createdAt: now,
        updatedAt: now,
      })
      .onConflict((oc) =>
        oc.column("slug").doUpdateSet({ title: c.title, description: c.description, position: c.position, updatedAt: now }),
      )
      .execute();
  }
  const ids = new Map((await trx.selectFrom("categories").select(["id", "slug"]).execute()).map((r) => [r.slug, r.id]));
  for (const p of seedProducts) {
    const values = itemRow(p, ids, now);
    // A product's price and stock are its variants' (migration 0032): a refresh writes them there.
    const { price: _price, stock: _stock, ...details } = values;
    const row = await trx
      .insertInto("items")
      .values(values)
      .onConflict((oc) => oc.column("slug").doUpdateSet({ ...details, createdAt: undefined }))
      .returning("id")
      .executeTakeFirstOrThrow();
    const hasOptions = await trx.selectFrom("productOptions").select("id").where("itemId", "=", row.id).executeTakeFirst();
    if (hasOptions) continue;
    await trx
      .updateTable("productVariants")
      .set({ price: p.price, stock: p.stock, updatedAt: now })
      .where("itemId", "=", row.id)
      .where("optionKey", "=", "")
      .execute();
    const spec = seedVariants[p.slug];
    if (spec) await writeVariantSet(trx, row.id, seedVariantSet(p.slug, p, spec));
  }
}

/** The items row of a seed product (demo or generated), its category found by slug. */
function itemRow(p: SeedProduct, categoryIds: Map<string, number>, now: string) {
  const categoryId = categoryIds.get(p.categorySlug);
  if (!categoryId) throw new Error(`Seed product ${p.slug} names unknown category ${p.categorySlug}`);
  return {
    categoryId,
    title: p.title,
    slug: p.slug,
    description: p.description,
    price: p.price,
    imgPath: productImagePath(p.slug),
    featured: p.featured ? 1 : 0,
    stock: p.stock,
    madeToOrder: p.madeToOrder ? 1 : 0,
    specifications: JSON.stringify(p.specifications),
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Rows per multi-row insert of the large seed: 12 values a row, so 24,000 bind parameters a
 * statement, under SQLite's 32,766 and PostgreSQL's 65,535.
 */
export const INSERT_BATCH = 2_000;

/**
 * Inserts generated products in batches of multi-row inserts (the caller's transaction), then their
 * options and variants, set-based (db/large-variants.ts).
 */
async function loadGenerated(trx: Transaction<DB>, products: SeedProduct[], now: string) {
  const ids = new Map((await trx.selectFrom("categories").select(["id", "slug"]).execute()).map((r) => [r.slug, r.id]));
  const before = await trx
    .selectFrom("items")
    .select((eb) => eb.fn.max("id").as("last"))
    .executeTakeFirst();
  const insertItems = async () => {
    for (let start = 0; start < products.length; start += INSERT_BATCH) {
      const rows = products.slice(start, start + INSERT_BATCH).map((p) => itemRow(p, ids, now));
      await trx.insertInto("items").values(rows).execute();
    }
  };
  await seedGeneratedProducts(trx, insertItems, Number(before?.last ?? 0), now);
}

/** Records that the database was seeded, unless it already was; answers whether this call recorded it. */
async function recordSeeded(trx: Transaction<DB>, how: string, now: string): Promise<boolean> {
  const result = await trx
    .insertInto("settings")
    .values({ key: SEEDED, value: how, updatedAt: now })
    .onConflict((oc) => oc.column("key").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** Inserts or refreshes the demo catalogue by slug, in one transaction (`npm run db:seed`). */
export async function seedDemo(db: Kysely<DB>): Promise<{ categories: number; products: number }> {
  const now = new Date().toISOString();
  await db.transaction().execute(async (trx) => {
    await loadDemo(trx, now);
    await recordSeeded(trx, "demo", now);
  });
  return { categories: seedCategories.length, products: seedProducts.length };
}

/** The tables the large seed fills: the products, their search index, options, values and variants. */
const LOADED_TABLES = [
  "items",
  "items_search",
  "product_options",
  "product_option_values",
  "product_variants",
  "variant_option_values",
  "variant_facets",
];

/**
 * Fresh planner statistics after a bulk load, so both databases pick their indexes from the start
 * (PostgreSQL read a category's 48 products' options and variants, for the API, in 25 ms instead of
 * 8 while their tables had none). PostgreSQL also vacuums them: the visibility map lets a count read
 * an index alone, and autovacuum would otherwise do this work (100,000 rows and a GIN index) in the
 * first minutes the shop serves (it slowed every page by about 10 ms, ADR 0014).
 */
async function analyzeItems(db: Kysely<DB>) {
  // INDEX_CLEANUP ON: the demo pieces sold in variants leave a few dead rows of items (their
  // figures moved as the variants were written); with so few, PostgreSQL would skip the index
  // pass and leave those pages out of the visibility map.
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql.raw(`vacuum (analyze, index_cleanup on) ${LOADED_TABLES.join(", ")}`).execute(db);
  } else {
    // SQLite's items_search is its FTS5 tables (they keep no statistics).
    for (const table of LOADED_TABLES.filter((t) => t !== "items_search")) await sql.raw(`analyze ${table}`).execute(db);
  }
}

/** A catalogue that already holds a product cannot take the large seed: its slugs and totals would clash. */
export class CatalogueNotEmptyError extends Error {}

/**
 * The large catalogue (`npm run db:seed -- --large`): the demo catalogue plus generated products
 * up to `total` in all, in one transaction, into a database without products (else
 * CatalogueNotEmptyError and nothing written). Answers the counts.
 */
export async function seedLarge(db: Kysely<DB>, total: number = LARGE_SEED_TOTAL): Promise<{ categories: number; products: number }> {
  const now = new Date().toISOString();
  const generated = generateLargeCatalogue(total);
  await db.transaction().execute(async (trx) => {
    if (await trx.selectFrom("items").select("id").limit(1).executeTakeFirst()) {
      throw new CatalogueNotEmptyError("The large seed needs a catalogue without products: this database already has some.");
    }
    await loadDemo(trx, now);
    await loadGenerated(trx, generated, now);
    await recordSeeded(trx, "large", now);
  });
  await analyzeItems(db);
  return { categories: seedCategories.length, products: seedProducts.length + generated.length };
}

/**
 * At every start: the first start of a database records that it was seeded, loading the demo
 * catalogue when `seed` is demo and the catalogue is empty (large: with generated products up to
 * 100,000, in the same transaction); every later start changes nothing. Answers whether the demo
 * catalogue was loaded.
 */
export async function seedOnFirstStart(
  db: Kysely<DB>,
  seed: "demo" | "large" | "none",
  total: number = LARGE_SEED_TOTAL,
): Promise<boolean> {
  const now = new Date().toISOString();
  let loadedLarge = false;
  const loaded = await db.transaction().execute(async (trx) => {
    const anyCategory = await trx.selectFrom("categories").select("id").limit(1).executeTakeFirst();
    const how = anyCategory ? "existing" : seed;
    if (!(await recordSeeded(trx, how, now)) || how === "none" || how === "existing") return false;
    await loadDemo(trx, now);
    if (how === "large") {
      const generated = generateLargeCatalogue(total);
      await loadGenerated(trx, generated, now);
      console.info(`Seeded ${generated.length} generated products (SEED=large)`);
      loadedLarge = true;
    }
    return true;
  });
  if (loadedLarge) await analyzeItems(db);
  return loaded;
}
