// Products as CSV for the back-office: the list's filtered export, and an all-or-nothing import
// that checks every row first and writes only when none has a problem, in one transaction.
import { CsvError, parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import type { Db } from "~/lib/db.server";
import { db as defaultDb, isForeignKeyViolation, isUniqueViolation } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import type { AdminListQuery, ProductEdit, ProductInput, StockChange } from "~/utils/admin-schemas";
import { ProductFormSchema } from "~/utils/admin-schemas";
import type { Item } from "~/utils/catalogue";
import type { CsvColumn } from "~/utils/product-csv";
import { CSV_COLUMNS, IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, REQUIRED_COLUMNS, TOO_LARGE } from "~/utils/product-csv";
import { firstFreeSlug, slugify } from "~/utils/slug";
import type { AdminItem } from "./catalogue/admin-lists.server";
import { listProductsForExport } from "./catalogue/admin-lists.server";
import { insertProduct, sameDetails, saveProduct, StaleProductError } from "./catalogue/product-writes.server";
import { recordAudit } from "./audit.server";
import { toItem } from "./catalogue/products.server";
import { SlugSchema } from "~/utils/schemas";

export { CSV_COLUMNS, IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, REQUIRED_COLUMNS, TOO_LARGE } from "~/utils/product-csv";
export type { CsvColumn } from "~/utils/product-csv";

export const NOTHING_IMPORTED = "Nothing was imported: fix these rows and upload the file again.";
export const NO_ROWS = "The file has no product rows";
export const TOO_MANY_ROWS = `The file has more than ${IMPORT_MAX_ROWS} product rows: split it into smaller files`;
export const IMPORT_RACE =
  "Another change to the products was saved at the same time, so nothing was imported. Please upload the file again.";
export const CHOOSE_FILE = "Choose a CSV file to import";
const SAVE_AS_CSV = 'in your spreadsheet choose Save As → "CSV UTF-8", then upload that file';
export const SPREADSHEET = `That is a spreadsheet file, not CSV: ${SAVE_AS_CSV}`;
export const NOT_UTF8 = `The file is not UTF-8 text: ${SAVE_AS_CSV}`;
export const STALE_ROW = (stock: number) =>
  `This product changed since the file was exported (it now has ${stock} in stock): ` +
  "export the list again and make this row's changes there";
export const STOCK_NEEDS_VERSION =
  "To change the stock of an existing product the row needs the version the export wrote: " +
  "export the list again, or leave the stock column out";
export const VERSION_FORMAT = "Version must be the whole number the export wrote";

/** One problem of an import: the CSV line it is on (the header is line 1) and what is wrong. */
export interface ImportProblem {
  line: number;
  message: string;
}

export interface ImportResult {
  created: number;
  updated: number;
}

/** The import was refused as a whole: every problem found, row by row. */
export class ImportRejected extends AppError {
  constructor(public problems: ImportProblem[]) {
    super(400, NOTHING_IMPORTED);
    this.name = "ImportRejected";
  }
}

// ---- export ----

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return) as a formula:
 * such a cell is written with a leading apostrophe. A cell that already starts with apostrophes
 * before one of them gets one more, so the import can undo exactly one.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;
export const escapeCell = (value: string) => (FORMULA_START.test(value) ? `'${value}` : value);
const unescapeCell = (value: string) => (value.startsWith("'") && FORMULA_START.test(value) ? value.slice(1) : value);

/** products-2026-11-22.csv, dated in India's time zone. */
export function exportFileName(now = new Date()): string {
  const day = new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "2-digit", day: "2-digit", timeZone: "Asia/Kolkata" }).format(now);
  return `products-${day}.csv`;
}

/** The products the list's filters match, as CSV with a UTF-8 BOM (so Excel reads ₹ and names right). */
export async function exportProductsCsv(query: Pick<AdminListQuery, "q" | "category">, db: Db = defaultDb): Promise<string> {
  const [products, categories] = await Promise.all([
    listProductsForExport(query, db),
    db.selectFrom("categories").select(["id", "slug"]).execute(),
  ]);
  const categorySlug = new Map(categories.map((c) => [c.id, c.slug]));
  const rows = products.map((p) =>
    [
      p.slug,
      p.title,
      categorySlug.get(p.categoryId) ?? "",
      String(p.price),
      String(p.stock),
      p.featured ? "yes" : "no",
      p.madeToOrder ? "yes" : "no",
      p.description,
      p.imgPath,
      JSON.stringify(p.specifications),
      String(p.version),
    ].map(escapeCell),
  );
  return stringify([[...CSV_COLUMNS], ...rows], { bom: true, record_delimiter: "windows" });
}

// ---- import ----

interface CsvRecord {
  /** the line the record starts on (a quoted cell may span several) */
  line: number;
  cells: string[];
}

/** The file's records with the line each starts on; blank lines are skipped. */
function readRecords(text: string): CsvRecord[] {
  const buf = Buffer.from(text, "utf8");
  let entries: { record: string[]; info: { bytes: number } }[];
  try {
    entries = parse(buf, {
      bom: true,
      info: true,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
    }) as unknown as typeof entries;
  } catch (error) {
    if (error instanceof CsvError) {
      const line = typeof error.lines === "number" ? error.lines : 1;
      throw new ImportRejected([{ line, message: `The file is not valid CSV: ${error.message}` }]);
    }
    throw error;
  }
  // Walk the bytes once: each record starts after the previous one's end, past any blank lines.
  let pos = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  let line = 1;
  const advance = (to: number) => {
    for (; pos < to && pos < buf.length; pos++) {
      if (buf[pos] === 0x0a || (buf[pos] === 0x0d && buf[pos + 1] !== 0x0a)) line++;
    }
  };
  return entries.map(({ record, info }) => {
    while (pos < buf.length && (buf[pos] === 0x0a || buf[pos] === 0x0d)) advance(pos + 1);
    const start = line;
    advance(info.bytes);
    return { line: start, cells: record };
  });
}

type ColumnIndex = Map<CsvColumn, number>;

function readHeader(header: CsvRecord): ColumnIndex {
  const index: ColumnIndex = new Map();
  const problems: string[] = [];
  header.cells.forEach((cell, i) => {
    const name = cell.trim();
    if (!name) return; // an unnamed column (a spreadsheet's trailing comma) is ignored
    const column = CSV_COLUMNS.find((c) => c.toLowerCase() === name.toLowerCase());
    if (!column) problems.push(`Unknown column "${name}": the columns are ${CSV_COLUMNS.join(", ")}`);
    else if (index.has(column)) problems.push(`The column "${column}" appears twice`);
    else index.set(column, i);
  });
  for (const column of REQUIRED_COLUMNS) {
    if (!index.has(column)) problems.push(`The header has no "${column}" column (required: ${REQUIRED_COLUMNS.join(", ")})`);
  }
  if (problems.length) throw new ImportRejected(problems.map((message) => ({ line: header.line, message })));
  return index;
}

const SPECS_FORMAT = 'Specifications must be a JSON object of names and values, like {"Material":"Teak"}';

/** The specifications cell as the form's key/value rows, or what is wrong with it. */
function readSpecifications(cell: string): { keys: string[]; values: string[] } | string {
  const text = cell.trim();
  if (!text) return { keys: [], values: [] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return `Specifications are not valid JSON. ${SPECS_FORMAT}`;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return SPECS_FORMAT;
  const entries = Object.entries(value);
  const notText = entries.find(([, v]) => typeof v !== "string");
  if (notText) return `Specifications: the value of "${notText[0]}" must be text in quotes, like {"${notText[0]}":"…"}`;
  return { keys: entries.map(([k]) => k), values: entries.map(([, v]) => v as string) };
}

/** A yes/no cell (featured, made_to_order): yes, true, 1, y; no, false, 0, n or blank; else null. */
function readYesNo(cell: string): boolean | null {
  const value = cell.trim().toLowerCase();
  if (["yes", "true", "1", "y"].includes(value)) return true;
  if (["no", "false", "0", "n", ""].includes(value)) return false;
  return null;
}

/** A product as the edit form would post it, for ProductFormSchema. */
function specsOf(item: Item) {
  return { keys: Object.keys(item.specifications), values: Object.values(item.specifications) };
}

type PlannedRow = { line: number } & (
  { kind: "update"; id: number; edit: ProductEdit } | { kind: "create"; slug?: string; input: ProductInput }
);

/** Every row checked against the catalogue: the writes to make, or every problem found. */
async function planImport(records: CsvRecord[], header: CsvRecord, index: ColumnIndex, db: Db): Promise<PlannedRow[]> {
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

async function slugIsFree(trx: Db, slug: string): Promise<boolean> {
  return !(await trx.selectFrom("items").select("id").where("slug", "=", slug).executeTakeFirst());
}

/**
 * A slug from the title that the database does not hold and no later row of the file asks for
 * by name (else insertProduct's default would take it first and rename that row's product).
 */
async function titleSlug(trx: Db, title: string, reserved: ReadonlySet<string>): Promise<string | undefined> {
  if (reserved.size === 0) return undefined; // insertProduct's own default
  const base = slugify(title);
  const rows = await trx
    .selectFrom("items")
    .select("slug")
    .where((eb) => eb.or([eb("slug", "=", base), eb("slug", "like", `${base}-%`)]))
    .execute();
  return firstFreeSlug(base, new Set([...rows.map((r) => r.slug), ...reserved]));
}

/** A refusal of the uploaded file itself, shown beside the form's file field. */
const fileError = (message: string, status: 400 | 413 = 400) => new AppError(status, message, { file: message });

/** The uploaded file as text: a non-empty UTF-8 file, not a spreadsheet's own format. */
async function uploadedText(file: FormDataEntryValue | null): Promise<string> {
  if (file === null || typeof file === "string" || file.size === 0) throw fileError(CHOOSE_FILE);
  if (/\.(xlsx|xlsm|xlsb|xls|ods|numbers)$/i.test(file.name)) throw fileError(SPREADSHEET);
  if (file.size > IMPORT_MAX_BYTES) throw fileError(TOO_LARGE, 413);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer());
  } catch {
    throw fileError(NOT_UTF8);
  }
}

/**
 * Import the products of an uploaded CSV file (the import form's `file`): the file is refused
 * with a message on the field when it is missing, a spreadsheet's own format, too large or not
 * UTF-8; its rows as importProductsCsv.
 */
export async function importProductsFile(file: FormDataEntryValue | null, db: Db = defaultDb): Promise<ImportResult> {
  return importProductsCsv(await uploadedText(file), db);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * Import products from CSV text: every row is checked first (all problems are reported, as an
 * ImportRejected), and only a file without problems is written, in one transaction.
 */
export async function importProductsCsv(text: string, db: Db = defaultDb): Promise<ImportResult> {
  if (Buffer.byteLength(text, "utf8") > IMPORT_MAX_BYTES) throw new AppError(413, TOO_LARGE);
  if (text.includes("\u0000")) throw new AppError(400, "The file is not a CSV text file");
  const records = readRecords(text);
  const [header, ...rest] = records;
  if (!header) throw new AppError(400, NO_ROWS);
  const index = readHeader(header);
  const rows = rest.filter((r) => r.cells.some((c) => c.trim() !== ""));
  if (rows.length === 0) throw new AppError(400, NO_ROWS);
  if (rows.length > IMPORT_MAX_ROWS) throw new AppError(400, TOO_MANY_ROWS);

  const plan = await planImport(rows, header, index, db);
  const created = plan.filter((r) => r.kind === "create").length;
  const updated = plan.length - created;

  try {
    await db.transaction().execute(async (trx) => {
      const reserved = new Set(plan.flatMap((r) => (r.kind === "create" && r.slug ? [r.slug] : [])));
      for (const row of plan) {
        if (row.kind === "update") {
          await saveProduct(trx, row.id, row.edit).catch((error: unknown) => {
            // Sold or edited between the check and this write: the row is refused, nothing is written.
            if (error instanceof StaleProductError) throw new ImportRejected([{ line: row.line, message: STALE_ROW(error.stockNow) }]);
            throw error;
          });
          continue;
        }
        if (row.slug) {
          reserved.delete(row.slug);
          // The check found no product with this slug; one made since would be duplicated under another slug.
          if (!(await slugIsFree(trx, row.slug))) throw new AppError(409, IMPORT_RACE);
        }
        await insertProduct(trx, row.input, row.slug ?? (await titleSlug(trx, row.input.title, reserved)));
      }
      await recordAudit(trx, {
        action: "import",
        entity: "product",
        summary: `Imported ${plural(plan.length, "product")} from CSV: ${created} created, ${updated} updated`,
      });
    });
  } catch (error) {
    // A slug taken by a product being made at the same moment, or a category deleted meanwhile.
    if (isUniqueViolation(error) || isForeignKeyViolation(error)) throw new AppError(409, IMPORT_RACE);
    throw error;
  }
  return { created, updated };
}
