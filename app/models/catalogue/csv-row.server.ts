// One row of a products CSV file read into what it says, before it is checked against the
// catalogue: its product's fields (as the product form would post them), and its variant's options,
// SKU, price, stock, active flag, weight and dimensions. Every problem of the row, in the file's words.
import type { ProductInput } from "~/utils/admin-schemas";
import { ProductFormSchema } from "~/utils/admin-schemas";
import type { Item } from "~/utils/catalogue";
import type { CsvColumn } from "~/utils/product-csv";
import { CSV_OPTIONS, MEASURE_COLUMNS, MEASURE_MAX } from "~/utils/product-csv";
import { SlugSchema } from "~/utils/schemas";
import { slugify } from "~/utils/slug";
import { RESERVED_OPTION_SLUGS, VARIANT_LIMITS } from "~/utils/variant-schemas";
import { unescapeCell } from "./csv-export.server";
import type { ColumnIndex, CsvRecord } from "./csv-read.server";
import { readSpecifications, readYesNo } from "./csv-read.server";

export const VERSION_FORMAT = "Version must be the whole number the export wrote";
export const VARIANT_VERSION_FORMAT = "variant_version must be the whole number the export wrote";

export type MeasureField = (typeof MEASURE_COLUMNS)[number][1];

/** A row's variant as the file gives it; a column left out is undefined (the variant keeps its value). */
export interface RowVariant {
  /** its option names and values, in option order ([] for a product without options) */
  options: { name: string; value: string }[];
  /** upper-cased; null when blank or not in the file */
  sku: string | null;
  active: boolean | undefined;
  measures: Partial<Record<MeasureField, number | null>>;
  version: number | null;
}

/** A row read: its product's fields (price and stock are its variant's) and its variant. */
export interface ParsedRow {
  line: number;
  slug?: string;
  input: ProductInput;
  hasStock: boolean;
  version: number | null;
  variant: RowVariant;
}

export interface RowContext {
  cell: (record: CsvRecord, column: CsvColumn) => string | undefined;
  categoryId: Map<string, number>;
  /** the existing product a row with this slug or SKU is of, for the columns a file leaves out */
  productOf: (slug: string | undefined, sku: string | null) => Item | undefined;
}

/** A product as the edit form would post its specifications, for ProductFormSchema. */
function specsOf(item: Item) {
  return { keys: Object.keys(item.specifications), values: Object.values(item.specifications) };
}

/** A version cell: null when blank, NaN when not a whole number. */
function readVersion(cell: string | undefined): number | null {
  const text = (cell ?? "").trim();
  return text === "" ? null : /^\d{1,9}$/.test(text) ? Number(text) : NaN;
}

/** The row's option columns in order; what is wrong with them goes to `problem`. */
function readOptions(record: CsvRecord, ctx: RowContext, problem: (m: string) => void): RowVariant["options"] {
  const options: RowVariant["options"] = [];
  let gap: number | null = null;
  for (let i = 1; i <= CSV_OPTIONS; i++) {
    const name = (ctx.cell(record, `option${i}_name` as CsvColumn) ?? "").trim();
    const value = (ctx.cell(record, `option${i}_value` as CsvColumn) ?? "").trim();
    if (!name && !value) {
      gap ??= i;
      continue;
    }
    if (gap !== null) problem(`Fill option${gap} before option${i}`);
    if (!name) problem(`option${i}_value is given without option${i}_name`);
    else if (!value) problem(`option${i}_name "${name}" needs a value in option${i}_value`);
    if (name.length > VARIANT_LIMITS.name) problem(`An option's name must be at most ${VARIANT_LIMITS.name} characters`);
    if (value.length > VARIANT_LIMITS.value) problem(`An option's value must be at most ${VARIANT_LIMITS.value} characters`);
    if (name && (RESERVED_OPTION_SLUGS as readonly string[]).includes(slugify(name))) {
      problem(`"${name}" cannot be an option's name: the product page uses ?${slugify(name)}= already`);
    }
    if (name && options.some((o) => slugify(o.name) === slugify(name))) problem(`The option "${name}" is given twice`);
    options.push({ name, value });
  }
  return options;
}

/** The row's weight and dimension cells: blank is none, a column left out keeps the variant's. */
function readMeasures(record: CsvRecord, ctx: RowContext, problem: (m: string) => void): RowVariant["measures"] {
  const measures: RowVariant["measures"] = {};
  for (const [column, field] of MEASURE_COLUMNS) {
    const cell = ctx.cell(record, column);
    if (cell === undefined) continue;
    const text = cell.trim();
    const max = field === "weightGrams" ? MEASURE_MAX.weightGrams : MEASURE_MAX.cm;
    if (text === "") measures[field] = null;
    else if (/^\d{1,9}$/.test(text) && Number(text) >= 1 && Number(text) <= max) measures[field] = Number(text);
    else problem(`${column} must be a whole number from 1 to ${max}, or blank`);
  }
  return measures;
}

/** A row read, or every problem found in it. */
export function readRow(record: CsvRecord, ctx: RowContext): ParsedRow | string[] {
  const { cell } = ctx;
  const problems: string[] = [];
  const problem = (message: string) => {
    if (!problems.includes(message)) problems.push(message);
  };

  let slug: string | undefined;
  const slugCell = (cell(record, "slug") ?? "").trim();
  if (slugCell) {
    const parsed = SlugSchema.safeParse(slugCell);
    if (!parsed.success) problem(`Slug "${slugCell}" is not valid: use lowercase letters, digits and hyphens`);
    else slug = parsed.data;
  }
  const skuCell = (cell(record, "sku") ?? "").trim().toUpperCase();
  const sku = skuCell === "" ? null : skuCell;
  const before = ctx.productOf(slug, sku);

  const categoryCell = (cell(record, "category") ?? "").trim().toLowerCase();
  const category = ctx.categoryId.get(categoryCell);
  if (!categoryCell) problem("Category is required");
  else if (category === undefined) problem(`Unknown category "${categoryCell}": use one of ${[...ctx.categoryId.keys()].join(", ")}`);

  const featuredCell = cell(record, "featured");
  const featured = featuredCell === undefined ? (before?.featured ?? false) : readYesNo(featuredCell);
  if (featured === null) problem('Featured must be "yes" or "no"');
  const madeToOrderCell = cell(record, "made_to_order");
  const madeToOrder = madeToOrderCell === undefined ? (before?.madeToOrder ?? false) : readYesNo(madeToOrderCell);
  if (madeToOrder === null) problem('Made to order must be "yes" or "no"');
  const activeCell = (cell(record, "active") ?? "").trim();
  const active = activeCell === "" ? undefined : readYesNo(activeCell);
  if (active === null) problem('Active must be "yes" or "no"');

  const specsCell = cell(record, "specifications");
  const specifications = specsCell === undefined ? (before ? specsOf(before) : { keys: [], values: [] }) : readSpecifications(specsCell);
  if (typeof specifications === "string") problem(specifications);

  // The versions the row was exported at (blank in a row that adds a product or a variant).
  const version = readVersion(cell(record, "version"));
  if (Number.isNaN(version)) problem(VERSION_FORMAT);
  const variantVersion = readVersion(cell(record, "variant_version"));
  if (Number.isNaN(variantVersion)) problem(VARIANT_VERSION_FORMAT);

  const options = readOptions(record, ctx, problem);
  const measures = readMeasures(record, ctx, problem);

  // A column left out keeps the product's value (a new product: 0 in stock, not featured, not made to order, no specifications).
  const stockCell = cell(record, "stock");
  const stock = stockCell ?? "0";
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
  if (problems.length || !parsed.success) return problems;
  return {
    line: record.line,
    slug,
    input: parsed.data,
    hasStock: stockCell !== undefined,
    version,
    variant: { options, sku, active: active ?? undefined, measures, version: variantVersion },
  };
}

/** The cell reader of a file's header: unescaped, undefined for a column the file does not have. */
export function cellReader(index: ColumnIndex): RowContext["cell"] {
  return (record, column) => {
    const i = index.get(column);
    return i === undefined ? undefined : unescapeCell(record.cells[i] ?? "");
  };
}
