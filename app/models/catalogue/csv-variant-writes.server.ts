// The import's writes of one product's variants, inside its transaction: a variant changed only
// while it is still the version its row was exported at, new variants with their option values
// (a value the product does not have yet is added to its option), a new product's first variant
// made of the default one it was born with, and the audit row saying what changed.
import type { Db } from "~/lib/db.server";
import { nowIso } from "~/lib/db.server";
import { slugify } from "~/utils/slug";
import { recordAudit } from "../audit.server";
import type { Actor } from "../staff/staff.server";
import type { VariantWrite } from "./csv-plan-variants.server";
import type { VariantFields } from "./csv-variants-read.server";
import { STALE_VARIANT } from "./csv-plan-variants.server";
import { ImportRejected } from "./csv-read.server";

/** A variant's fields as its row stores them. */
function variantRow(fields: Partial<VariantFields>) {
  const { active, ...rest } = fields;
  return { ...rest, ...(active === undefined ? {} : { active: active ? 1 : 0 }) };
}

/** The position after the highest one read (0 for the first). */
const nextPosition = (last: { at: unknown } | undefined) => (last?.at === null || last?.at === undefined ? 0 : Number(last.at) + 1);

/** The ids of these values of the product's options, in option order; options and values missing are added. */
async function valueIds(trx: Db, itemId: number, names: string[], values: string[]): Promise<number[]> {
  const ids: number[] = [];
  for (const [position, name] of names.entries()) {
    let option = await trx
      .selectFrom("productOptions")
      .select("id")
      .where("itemId", "=", itemId)
      .where("position", "=", position)
      .executeTakeFirst();
    option ??= await trx
      .insertInto("productOptions")
      .values({ itemId, name, slug: slugify(name), position, createdAt: nowIso() })
      .returning("id")
      .executeTakeFirstOrThrow();
    const slug = slugify(values[position]!);
    const known = await trx
      .selectFrom("productOptionValues")
      .select("id")
      .where("optionId", "=", option.id)
      .where("slug", "=", slug)
      .executeTakeFirst();
    if (known) {
      ids.push(known.id);
      continue;
    }
    const last = await trx
      .selectFrom("productOptionValues")
      .select((eb) => eb.fn.max("position").as("at"))
      .where("optionId", "=", option.id)
      .executeTakeFirst();
    const at = nextPosition(last);
    const row = await trx
      .insertInto("productOptionValues")
      .values({ optionId: option.id, itemId, value: values[position]!, slug, position: at })
      .returning("id")
      .executeTakeFirstOrThrow();
    ids.push(row.id);
  }
  return ids;
}

/** What an audit row says of a variant's change: "price ₹100 → ₹120, stock 3 → 5". */
function changeNote(write: Extract<VariantWrite, { kind: "update" }>): string {
  const parts = Object.entries(write.set).map(([field, after]) => {
    const before = write.before[field as keyof VariantFields];
    const show = (v: unknown) => (field === "price" ? `₹${String(v)}` : v === null ? "none" : String(v));
    return `${field} ${show(before)} → ${show(after)}`;
  });
  return `${write.sku} ${parts.join(", ")}`;
}

/**
 * One product's variant writes, and (when there were any) its audit row. `options` are the
 * product's option names in order, for its new variants' values.
 */
export async function writeVariants(
  trx: Db,
  product: { id: number; title: string; created: boolean },
  options: string[],
  writes: VariantWrite[],
  actor: Actor,
): Promise<void> {
  const now = nowIso();
  const notes: string[] = [];
  const added: string[] = [];
  for (const write of writes) {
    if (write.kind === "update") {
      let update = trx
        .updateTable("productVariants")
        .set((eb) => ({ ...variantRow(write.set), version: eb("version", "+", 1), updatedAt: now }))
        .where("id", "=", write.id);
      if (write.guard !== null) update = update.where("version", "=", write.guard);
      const done = await update.executeTakeFirst();
      if (Number(done.numUpdatedRows) !== 1) {
        // Sold or edited between the check and this write: the row is refused, nothing is written.
        const now = await trx.selectFrom("productVariants").select("stock").where("id", "=", write.id).executeTakeFirst();
        throw new ImportRejected([{ line: write.line, message: STALE_VARIANT(write.sku, now?.stock ?? 0) }]);
      }
      notes.push(changeNote(write));
      continue;
    }
    const ids = write.values.length ? await valueIds(trx, product.id, options, write.values) : [];
    const fields = {
      ...variantRow(write.fields),
      ...(write.sku === null ? {} : { sku: write.sku }),
      optionKey: ids.join("."),
      updatedAt: now,
    };
    // A new product's default variant, made with it, becomes its first.
    const born = await trx
      .selectFrom("productVariants")
      .select("id")
      .where("itemId", "=", product.id)
      .where("optionKey", "=", "")
      .executeTakeFirst();
    let variantId: number;
    if (born && product.created) {
      await trx.updateTable("productVariants").set(fields).where("id", "=", born.id).execute();
      variantId = born.id;
    } else {
      const last = await trx
        .selectFrom("productVariants")
        .select((eb) => eb.fn.max("position").as("at"))
        .where("itemId", "=", product.id)
        .executeTakeFirst();
      const position = nextPosition(last);
      const row = await trx
        .insertInto("productVariants")
        .values({ ...fields, sku: write.sku!, price: write.fields.price, itemId: product.id, position, createdAt: now })
        .returning("id")
        .executeTakeFirstOrThrow();
      variantId = row.id;
    }
    if (ids.length) {
      await trx
        .insertInto("variantOptionValues")
        .values(ids.map((optionValueId) => ({ variantId, optionValueId })))
        .execute();
    }
    if (write.values.length) added.push(`${write.sku} (${write.values.join(", ")})`);
  }
  if (notes.length === 0 && added.length === 0) return;
  const said = [notes.length ? `changed ${notes.join("; ")}` : null, added.length ? `added ${added.join(", ")}` : null].filter(Boolean);
  await recordAudit(trx, {
    action: "update",
    entity: "product",
    entityId: product.id,
    summary: `Variants of product "${product.title}" from CSV: ${said.join("; ")}`,
    actor,
  });
}
