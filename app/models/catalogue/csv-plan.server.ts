// The import's check of every row against the catalogue, before anything is written: each row
// becomes a product to create or an edit to make, or its problems, reported by line.
import type { Db } from "~/lib/db.server";
import type { ProductEdit, ProductInput, StockChange } from "~/utils/admin-schemas";
import { ProductFormSchema } from "~/utils/admin-schemas";
import type { Item } from "~/utils/catalogue";
import type { CsvColumn } from "~/utils/product-csv";
import { SlugSchema } from "~/utils/schemas";
import type { AdminItem } from "./admin-lists.server";
import { unescapeCell } from "./csv-export.server";
import type { ColumnIndex, CsvRecord, ImportProblem } from "./csv-read.server";
import { ImportRejected, readSpecifications, readYesNo } from "./csv-read.server";
import { sameDetails } from "./product-writes.server";
import { toItem } from "./products.server";

export const STALE_ROW = (stock: number) =>
  `This product changed since the file was exported (it now has ${stock} in stock): ` +
  "export the list again and make this row's changes there";
export const STOCK_NEEDS_VERSION =
  "To change the stock of an existing product the row needs the version the export wrote: " +
  "export the list again, or leave the stock column out";
export const VERSION_FORMAT = "Version must be the whole number the export wrote";

/** A product as the edit form would post it, for ProductFormSchema. */
function specsOf(item: Item) {
  return { keys: Object.keys(item.specifications), values: Object.values(item.specifications) };
}

export type PlannedRow = { line: number } & (
  { kind: "update"; id: number; edit: ProductEdit } | { kind: "create"; slug?: string; input: ProductInput }
);

/** Every row checked against the catalogue: the writes to make, or every problem found. */
export async function planImport(records: CsvRecord[], header: CsvRecord, index: ColumnIndex, db: Db): Promise<PlannedRow[]> {
  const cell = (record: CsvRecord, column: CsvColumn): string | undefined => {
    const i = index.get(column);
    return i === undefined ? undefined : unescapeCell(record.cells[i] ?? "");
  };

  const givenSlugs = [
    ...new Set(records.map((r) => SlugSchema.safeParse(cell(r, "slug") ?? "")).flatMap((r) => (r.success ? [r.data] : []))),
  ];
  const existing = new Map<string, AdminItem>();
  for (let i = 0; i < givenSlugs.length; i += 500) {
    const rows = await db
      .selectFrom("items")
      .selectAll()
      .where("slug", "in", givenSlugs.slice(i, i + 500))
      .execute();
    for (const row of rows) existing.set(row.slug, { ...toItem(row), version: row.version });
  }
  const categories = await db.selectFrom("categories").select(["id", "slug"]).execute();
  const categoryId = new Map(categories.map((c) => [c.slug, c.id]));

  // Cells past the last named column may be missing or blank (a spreadsheet's trailing commas).
  const needed = Math.max(...index.values()) + 1;
  const problems: ImportProblem[] = [];
  const seenSlugs = new Map<string, number>();
  const plan: PlannedRow[] = [];

  for (const record of records) {
    const rowProblems: string[] = [];
    const problem = (message: string) => {
      if (!rowProblems.includes(message)) rowProblems.push(message);
    };
    const extra = record.cells.slice(header.cells.length).some((c) => c.trim() !== "");
    if (record.cells.length < needed || extra) {
      const message =
        `This row has ${record.cells.length} cells but the header has ${header.cells.length}: ` +
        "check for a missing or extra comma or quote";
      problems.push({ line: record.line, message });
      continue;
    }

    // The slug: an existing product's is updated, a new one is created with it.
    let slug: string | undefined;
    const slugCell = (cell(record, "slug") ?? "").trim();
    if (slugCell) {
      const parsed = SlugSchema.safeParse(slugCell);
      if (!parsed.success) problem(`Slug "${slugCell}" is not valid: use lowercase letters, digits and hyphens`);
      else if (seenSlugs.has(parsed.data)) problem(`Slug "${parsed.data}" is already used on line ${seenSlugs.get(parsed.data)}`);
      else {
        slug = parsed.data;
        seenSlugs.set(slug, record.line);
      }
    }
    const before = slug ? existing.get(slug) : undefined;

    const categoryCell = (cell(record, "category") ?? "").trim().toLowerCase();
    const category = categoryId.get(categoryCell);
    if (!categoryCell) problem("Category is required");
    else if (category === undefined) problem(`Unknown category "${categoryCell}": use one of ${[...categoryId.keys()].join(", ")}`);

    const featuredCell = cell(record, "featured");
    const featured = featuredCell === undefined ? (before?.featured ?? false) : readYesNo(featuredCell);
    if (featured === null) problem('Featured must be "yes" or "no"');
    const madeToOrderCell = cell(record, "made_to_order");
    const madeToOrder = madeToOrderCell === undefined ? (before?.madeToOrder ?? false) : readYesNo(madeToOrderCell);
    if (madeToOrder === null) problem('Made to order must be "yes" or "no"');

    const specsCell = cell(record, "specifications");
    const specifications = specsCell === undefined ? (before ? specsOf(before) : { keys: [], values: [] }) : readSpecifications(specsCell);
    if (typeof specifications === "string") problem(specifications);

    // The version the row was exported at (blank in a row that adds a product).
    const versionCell = (cell(record, "version") ?? "").trim();
    const version = versionCell === "" ? null : /^\d{1,9}$/.test(versionCell) ? Number(versionCell) : NaN;
    if (Number.isNaN(version)) problem(VERSION_FORMAT);

    // A column left out keeps the product's value (a new product: 0 in stock, not featured, not made to order, no specifications).
    const stockCell = cell(record, "stock");
    const stock = stockCell ?? String(before?.stock ?? 0);
    const parsed = ProductFormSchema.safeParse({
      title: cell(record, "title"),
      categoryId: category,
      price: cell(record, "price"),
      imgPath: cell(record, "imgPath"),
      description: cell(record, "description"),
      featured: featured === true,
      madeToOrder: madeToOrder === true,
      inStock: /^\s*\d+\s*$/.test(stock) && Number(stock) > 0,
      stock,
      specifications: typeof specifications === "string" ? { keys: [], values: [] } : specifications,
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if (field === "categoryId") continue; // reported above, in the file's own words
        problem(field === "specifications" ? `Specifications: ${issue.message}` : issue.message);
      }
    }

    if (rowProblems.length || !parsed.success) {
      problems.push(...rowProblems.map((message) => ({ line: record.line, message })));
      continue;
    }
    if (!before) {
      plan.push({ kind: "create", slug, line: record.line, input: parsed.data });
      continue;
    }
    const edit = planEdit(before, parsed.data, stockCell !== undefined, version);
    if (typeof edit === "string") problems.push({ line: record.line, message: edit });
    else plan.push({ kind: "update", id: before.id, line: record.line, edit });
  }

  if (problems.length) throw new ImportRejected(problems);
  return plan;
}

/**
 * An update row as the edit to make, or why it is refused: a row carrying a version that is not
 * the product's any more (sold or edited since the export) is refused unless it changes nothing;
 * a stock figure is written only with the row's version (without one the figure may be from
 * before units were sold); without a stock column the stock is not touched at all.
 */
function planEdit(before: AdminItem, input: ProductInput, hasStock: boolean, version: number | null): ProductEdit | string {
  const { inStock: _, stock, ...details } = input;
  const change: StockChange = hasStock && stock !== before.stock ? { to: stock } : null;
  const unchanged = change === null && sameDetails(before, details);
  if (unchanged) return { ...details, stock: null, version: before.version };
  if (version !== null && version !== before.version) return STALE_ROW(before.stock);
  if (version === null && change !== null) return STOCK_NEEDS_VERSION;
  return { ...details, stock: change, version };
}
