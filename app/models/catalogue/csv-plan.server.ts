// The import's check of every row against the catalogue, before anything is written. Rows are
// grouped into products (by slug, or by the product an existing SKU is of; a row without either is
// a new product of its own); the rows of one product must agree on its columns. Each product
// becomes one to create or an edit to make, with its variants' writes (csv-plan-variants.server.ts),
// or its problems, reported by line.
import type { Db } from "~/lib/db.server";
import type { ProductEdit, ProductInput } from "~/utils/admin-schemas";
import type { Item } from "~/utils/catalogue";
import { slugify } from "~/utils/slug";
import type { AdminItem } from "./admin-lists.server";
import type { VariantWrite } from "./csv-plan-variants.server";
import { planNewVariants, planVariants, STALE_ROW } from "./csv-plan-variants.server";
import { loadVariants } from "./csv-variants-read.server";
import type { ColumnIndex, CsvRecord, ImportProblem } from "./csv-read.server";
import { ImportRejected } from "./csv-read.server";
import type { ParsedRow } from "./csv-row.server";
import { cellReader, readRow } from "./csv-row.server";
import { sameDetails } from "./product-writes.server";
import { toItem } from "./products.server";

export { STALE_ROW, STOCK_NEEDS_VERSION } from "./csv-plan-variants.server";
export { VERSION_FORMAT } from "./csv-row.server";

export type PlannedRow = { line: number } & (
  | {
      kind: "update";
      id: number;
      hasOptions: boolean;
      detailsChange: boolean;
      options: string[];
      edit: ProductEdit;
      variants: VariantWrite[];
    }
  | { kind: "create"; slug?: string; input: ProductInput; options: string[]; variants: VariantWrite[] }
);

const inChunks = async <T, R>(list: T[], read: (chunk: T[]) => Promise<R[]>): Promise<R[]> => {
  const out: R[] = [];
  for (let i = 0; i < list.length; i += 500) out.push(...(await read(list.slice(i, i + 500))));
  return out;
};

/** The columns the rows of one product must agree on, by name, as the later row differs. */
function differences(a: ParsedRow, b: ParsedRow): string[] {
  const names = (r: ParsedRow) => r.variant.options.map((o) => slugify(o.name)).join("/");
  const diff: [string, boolean][] = [
    ["title", a.input.title !== b.input.title],
    ["category", a.input.categoryId !== b.input.categoryId],
    ["featured", a.input.featured !== b.input.featured],
    ["made_to_order", a.input.madeToOrder !== b.input.madeToOrder],
    ["description", a.input.description !== b.input.description],
    ["imgPath", a.input.imgPath !== b.input.imgPath],
    ["specifications", JSON.stringify(a.input.specifications) !== JSON.stringify(b.input.specifications)],
    ["version", a.version !== b.version],
    // A row of an existing variant may leave its options blank (its SKU says which it is).
    ["option names", names(a) !== names(b) && a.variant.options.length > 0 && b.variant.options.length > 0],
  ];
  return diff.filter(([, differs]) => differs).map(([name]) => name);
}

/** Every row checked against the catalogue: the writes to make, or every problem found. */
export async function planImport(records: CsvRecord[], header: CsvRecord, index: ColumnIndex, db: Db): Promise<PlannedRow[]> {
  const cell = cellReader(index);
  const raw = (column: "slug" | "sku") => [
    ...new Set(
      records
        .map((r) => (cell(r, column) ?? "").trim())
        .filter((v) => v !== "")
        .map((v) => (column === "sku" ? v.toUpperCase() : v)),
    ),
  ];
  const skuRows = await inChunks(raw("sku"), (chunk) =>
    db.selectFrom("productVariants").select(["sku", "itemId"]).where("sku", "in", chunk).execute(),
  );
  const skuItem = new Map(skuRows.map((r) => [r.sku, r.itemId]));
  const itemRows = [
    ...(await inChunks(raw("slug"), (chunk) => db.selectFrom("items").selectAll().where("slug", "in", chunk).execute())),
    ...(await inChunks([...new Set(skuItem.values())], (chunk) => db.selectFrom("items").selectAll().where("id", "in", chunk).execute())),
  ];
  const bySlug = new Map<string, AdminItem>();
  const byId = new Map<number, AdminItem>();
  for (const row of itemRows) {
    const item = { ...toItem(row), version: row.version };
    bySlug.set(item.slug, item);
    byId.set(item.id, item);
  }
  const catalogue = await loadVariants(db, [...byId.keys()]);
  const categories = await db.selectFrom("categories").select(["id", "slug"]).execute();
  const productOf = (slug: string | undefined, sku: string | null): Item | undefined =>
    slug !== undefined ? bySlug.get(slug) : sku !== null && skuItem.has(sku) ? byId.get(skuItem.get(sku)!) : undefined;
  const ctx = { cell, categoryId: new Map(categories.map((c) => [c.slug, c.id])), productOf };

  // Cells past the last named column may be missing or blank (a spreadsheet's trailing commas).
  const needed = Math.max(...index.values()) + 1;
  const problems: ImportProblem[] = [];
  const groups = new Map<string, ParsedRow[]>();
  for (const record of records) {
    const extra = record.cells.slice(header.cells.length).some((c) => c.trim() !== "");
    if (record.cells.length < needed || extra) {
      const message =
        `This row has ${record.cells.length} cells but the header has ${header.cells.length}: ` +
        "check for a missing or extra comma or quote";
      problems.push({ line: record.line, message });
      continue;
    }
    const row = readRow(record, ctx);
    if (Array.isArray(row)) {
      problems.push(...row.map((message) => ({ line: record.line, message })));
      continue;
    }
    // The row's product: its slug's, else its SKU's; a row with neither makes a product of its own.
    const skuProduct = row.variant.sku !== null && skuItem.has(row.variant.sku) ? byId.get(skuItem.get(row.variant.sku)!) : undefined;
    if (row.slug !== undefined && skuProduct && skuProduct.slug !== row.slug) {
      problems.push({
        line: row.line,
        message: `SKU ${row.variant.sku} is a variant of the product "${skuProduct.slug}", not of "${row.slug}"`,
      });
      continue;
    }
    const key = row.slug ?? skuProduct?.slug ?? `line ${row.line}`;
    const group = groups.get(key);
    if (!group) groups.set(key, [row]);
    else {
      const diff = differences(group[0]!, row);
      if (diff.length) {
        const message = `The product's columns differ from line ${group[0]!.line} (${diff.join(", ")}): the rows of one product must agree`;
        problems.push({ line: row.line, message });
      } else group.push(row);
    }
  }

  const plan: PlannedRow[] = [];
  const skusInFile = new Map<string, number>();
  for (const [key, rows] of groups) {
    const first = rows[0]!;
    const before = bySlug.get(key);
    const report = (line: number, message: string) => problems.push({ line, message });
    if (!before) {
      const variants = planNewVariants(rows, skuItem, byId, skusInFile, report);
      if (variants) {
        const options = first.variant.options.map((o) => o.name);
        plan.push({ kind: "create", line: first.line, slug: first.slug, input: first.input, options, variants });
      }
      continue;
    }
    const current = catalogue.get(before.id)!;
    const { inStock: _, stock: _stock, ...details } = first.input;
    const detailsChange = !sameDetails(before, { ...details, price: before.price });
    if (detailsChange && first.version !== null && first.version !== before.version) {
      report(first.line, STALE_ROW(before.stock));
      continue;
    }
    const planned = planVariants(before, current, rows, skuItem, byId, skusInFile, report);
    if (!planned) continue;
    plan.push({
      kind: "update",
      id: before.id,
      line: first.line,
      hasOptions: current.options.length > 0,
      detailsChange,
      options: current.options.map((o) => o.name),
      edit: {
        ...details,
        price: planned.price ?? before.price,
        stock: planned.stock,
        version: planned.version !== undefined ? planned.version : detailsChange ? first.version : null,
      },
      variants: planned.writes,
    });
  }

  if (problems.length) throw new ImportRejected(problems.sort((a, b) => a.line - b.line));
  return plan;
}
