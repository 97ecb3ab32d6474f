// Loads the demo catalogue. Runs on first start (empty catalogue, SEED=demo) and by `npm run db:seed`.
import type { Kysely } from "kysely";
import type { DB } from "../app/lib/db-schema";
import { seedCategories, seedProducts } from "./seed-data";

export const categoryImagePath = (slug: string) => `/images/categories/${slug}.svg`;
export const productImagePath = (slug: string) => `/images/products/${slug}.svg`;

/** Inserts or refreshes the demo catalogue by slug, in one transaction. */
export async function seedDemo(db: Kysely<DB>): Promise<{ categories: number; products: number }> {
  const now = new Date().toISOString();
  await db.transaction().execute(async (trx) => {
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
  });
  return { categories: seedCategories.length, products: seedProducts.length };
}

/** Seeds only a shop whose catalogue is empty. */
export async function seedIfEmpty(db: Kysely<DB>): Promise<boolean> {
  const anyCategory = await db.selectFrom("categories").select("id").limit(1).executeTakeFirst();
  if (anyCategory) return false;
  await seedDemo(db);
  return true;
}
