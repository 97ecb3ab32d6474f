// A product made for one test file (plenty of stock, a known price), beside the demo catalogue.
import { db } from "~/lib/db.server";

export async function createTestItem(slug: string, fields: { price?: number; stock?: number } = {}): Promise<number> {
  const now = new Date().toISOString();
  const category = await db.selectFrom("categories").select("id").orderBy("id").executeTakeFirstOrThrow();
  const row = await db
    .insertInto("items")
    .values({
      categoryId: category.id,
      title: `Test ${slug}`,
      slug,
      description: "A product made for a test.",
      price: fields.price ?? 2500,
      imgPath: "/x.svg",
      featured: 0,
      stock: fields.stock ?? 1000,
      specifications: "{}",
      createdAt: now,
      updatedAt: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The product's default variant (a product without options has only it): what its stock and price are. */
export async function defaultVariantId(itemId: number, on = db): Promise<number> {
  const row = await on
    .selectFrom("productVariants")
    .select("id")
    .where("itemId", "=", itemId)
    .where("optionKey", "=", "")
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Set a product's stock and/or price, as staff would: on its default variant (the product's
 * figures follow by trigger; writing items.stock or items.price directly is refused).
 */
export async function setItemFigures(itemId: number, figures: { stock?: number; price?: number }, on = db): Promise<void> {
  await on
    .updateTable("productVariants")
    .set(figures)
    .where("id", "=", await defaultVariantId(itemId, on))
    .execute();
}
