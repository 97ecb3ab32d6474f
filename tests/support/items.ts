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
