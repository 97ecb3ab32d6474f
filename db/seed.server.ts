// The demo catalogue. A database's first start loads it (SEED=demo) or not (SEED=none), and
// `npm run db:seed` loads or refreshes it on demand. Both record in `settings` that the database
// was seeded: a start seeds only a database without that record, so a live shop whose staff
// deleted every category does not get the demo catalogue back when the server restarts.
import type { Kysely, Transaction } from "kysely";
import type { DB } from "../app/lib/db-schema";
import { seedCategories, seedProducts } from "./seed-data";

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
    const categoryId = ids.get(p.categorySlug);
    if (!categoryId) throw new Error(`Seed product ${p.slug} names unknown category ${p.categorySlug}`);
    const values = {
      categoryId,
      title: p.title,
      slug: p.slug,
      description: p.description,
      price: p.price,
      imgPath: productImagePath(p.slug),
      featured: p.featured ? 1 : 0,
      stock: p.stock,
      specifications: JSON.stringify(p.specifications),
      createdAt: now,
      updatedAt: now,
    };
    await trx
      .insertInto("items")
      .values(values)
      .onConflict((oc) => oc.column("slug").doUpdateSet({ ...values, createdAt: undefined }))
      .execute();
  }
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

/**
 * At every start: the first start of a database records that it was seeded, loading the demo
 * catalogue when `seed` is demo and the catalogue is empty; every later start changes nothing.
 * Answers whether the demo catalogue was loaded.
 */
export async function seedOnFirstStart(db: Kysely<DB>, seed: "demo" | "none"): Promise<boolean> {
  const now = new Date().toISOString();
  return db.transaction().execute(async (trx) => {
    const anyCategory = await trx.selectFrom("categories").select("id").limit(1).executeTakeFirst();
    const how = anyCategory ? "existing" : seed;
    if (!(await recordSeeded(trx, how, now)) || how !== "demo") return false;
    await loadDemo(trx, now);
    return true;
  });
}
