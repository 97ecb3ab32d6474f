// A product's options and variants written (migration 0032, ADR 0034), inside the caller's
// transaction, with its audit row. The product's figures (items.stock, items.price) follow its
// variants by trigger.
import type { Db } from "~/lib/db.server";
import { isUniqueViolation, nowIso } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { slugify } from "~/utils/slug";
import type { VariantSet } from "~/utils/variant-schemas";
import { VariantSetSchema } from "~/utils/variant-schemas";
import { recordAudit } from "../audit.server";
import type { Actor } from "../staff/staff.server";
import { lockItems } from "./variants.server";

const HAS_OPTIONS = "This product already has options: change its variants one by one";
export const SKU_TAKEN = "That SKU is already used by another variant";

/**
 * Give a product sold as one piece its options and variants. Its default variant becomes the
 * first variant given (a cart line or hold on it stays valid, now of that variant); the others are
 * added. Refused (400) when the product has options already, or the set is not valid; a SKU that
 * another variant has is a 409. Nothing is written when any of it fails.
 */
export async function defineVariants(trx: Db, itemId: number, input: unknown, actor: Actor): Promise<void> {
  const { item, set } = await writeVariantSet(trx, itemId, input);
  await recordAudit(trx, {
    action: "update",
    entity: "product",
    entityId: itemId,
    summary:
      `Gave product "${item.title}" options (${set.options.map((o) => `${o.name}: ${o.values.join(", ")}`).join("; ")}) ` +
      `and ${set.variants.length} variant${set.variants.length === 1 ? "" : "s"}`,
    actor,
  });
}

/** defineVariants' writes, without its audit row: the demo seed's catalogue is no one's change. */
export async function writeVariantSet(trx: Db, itemId: number, input: unknown): Promise<{ item: { title: string }; set: VariantSet }> {
  const parsed = VariantSetSchema.safeParse(input);
  if (!parsed.success) throw new AppError(400, parsed.error.issues[0]?.message ?? "The options are not valid");
  const set: VariantSet = parsed.data;
  await lockItems(trx, [itemId]);
  const item = await trx.selectFrom("items").select(["id", "title"]).where("id", "=", itemId).executeTakeFirst();
  if (!item) throw new AppError(404, "Product Not Found");
  const existing = await trx.selectFrom("productOptions").select("id").where("itemId", "=", itemId).executeTakeFirst();
  if (existing) throw new AppError(400, HAS_OPTIONS);
  const now = nowIso();
  // Each option and its values, keyed by the value's slug.
  const valueIds: Map<string, number>[] = [];
  for (const [position, option] of set.options.entries()) {
    const row = await trx
      .insertInto("productOptions")
      .values({ itemId, name: option.name, slug: slugify(option.name), position, createdAt: now })
      .returning("id")
      .executeTakeFirstOrThrow();
    const ids = new Map<string, number>();
    for (const [at, value] of option.values.entries()) {
      const inserted = await trx
        .insertInto("productOptionValues")
        .values({ optionId: row.id, itemId, value, slug: slugify(value), position: at })
        .returning("id")
        .executeTakeFirstOrThrow();
      ids.set(slugify(value), inserted.id);
    }
    valueIds.push(ids);
  }
  const defaultVariant = await trx
    .selectFrom("productVariants")
    .select("id")
    .where("itemId", "=", itemId)
    .where("optionKey", "=", "")
    .executeTakeFirst();
  try {
    for (const [position, variant] of set.variants.entries()) {
      const ids = variant.values.map((value, i) => valueIds[i]!.get(slugify(value))!);
      const row = {
        sku: variant.sku,
        optionKey: ids.join("."),
        price: variant.price,
        stock: variant.stock,
        active: variant.active ? 1 : 0,
        position,
        updatedAt: now,
      };
      const variantId =
        position === 0 && defaultVariant
          ? (
              await trx
                .updateTable("productVariants")
                .set((eb) => ({ ...row, version: eb("version", "+", 1) }))
                .where("id", "=", defaultVariant.id)
                .returning("id")
                .executeTakeFirstOrThrow()
            ).id
          : (
              await trx
                .insertInto("productVariants")
                .values({ ...row, itemId, createdAt: now })
                .returning("id")
                .executeTakeFirstOrThrow()
            ).id;
      await trx
        .insertInto("variantOptionValues")
        .values(ids.map((optionValueId) => ({ variantId, optionValueId })))
        .execute();
    }
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(409, SKU_TAKEN);
    throw error;
  }
  return { item, set };
}
