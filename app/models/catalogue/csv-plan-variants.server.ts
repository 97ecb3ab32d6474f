// The import's check of one product's rows against its variants, before anything is written: a
// row with a known SKU updates that variant, one with a new SKU adds a variant (new option values
// are made), a product without options keeps its one variant. Stale rows, duplicate SKUs, a
// combination already sold under another SKU and options that are not the product's are refused
// by line.
import type { StockChange } from "~/utils/admin-schemas";
import type { Item } from "~/utils/catalogue";
import { MEASURE_COLUMNS } from "~/utils/product-csv";
import { slugify } from "~/utils/slug";
import { SkuSchema, VARIANT_LIMITS } from "~/utils/variant-schemas";
import type { ParsedRow } from "./csv-row.server";
import type { CurrentProduct, VariantFields } from "./csv-variants-read.server";
import { sameDetails } from "./product-writes.server";

export const STALE_ROW = (stock: number) =>
  `This product changed since the file was exported (it now has ${stock} in stock): ` +
  "export the list again and make this row's changes there";
export const STALE_VARIANT = (sku: string, stock: number) =>
  `The variant ${sku} changed since the file was exported (it now has ${stock} in stock): ` +
  "export the list again and make this row's changes there";
export const STOCK_NEEDS_VERSION =
  "To change the stock of an existing product the row needs the version the export wrote: " +
  "export the list again, or leave the stock column out";
export const VARIANT_STOCK_NEEDS_VERSION =
  "To change the stock of an existing variant the row needs the variant_version the export wrote: " +
  "export the list again, or leave the stock column out";
export const NEEDS_SKU = "This product is sold in variants: give the row its variant's SKU";
export const NO_OPTIONS = "This product is sold as one piece: give it options in the product editor first, then import its variants";

/** A variant to change (only the fields in `set`, while it is still version `guard`), or one to add. */
export type VariantWrite =
  | { kind: "update"; line: number; id: number; sku: string; guard: number | null; set: Partial<VariantFields>; before: VariantFields }
  | { kind: "create"; line: number; sku: string | null; values: string[]; fields: VariantFields };

type Report = (line: number, message: string) => void;

/** The row's variant fields that differ from the variant's (a column left out keeps its value). */
function changesOf(row: ParsedRow, v: VariantFields): Partial<VariantFields> {
  const set: Partial<VariantFields> = {};
  if (row.input.price !== v.price) set.price = row.input.price;
  if (row.hasStock && row.input.stock !== v.stock) set.stock = row.input.stock;
  if (row.variant.active !== undefined && row.variant.active !== v.active) set.active = row.variant.active;
  for (const [, field] of MEASURE_COLUMNS) {
    const value = row.variant.measures[field];
    if (value !== undefined && value !== v[field]) set[field] = value;
  }
  return set;
}

/** A new variant's fields from its row (a column left out: 0 in stock, sold, no measures). */
function fieldsOf(row: ParsedRow): VariantFields {
  const m = row.variant.measures;
  return {
    price: row.input.price,
    stock: row.hasStock ? row.input.stock : 0,
    active: row.variant.active ?? true,
    weightGrams: m.weightGrams ?? null,
    lengthCm: m.lengthCm ?? null,
    widthCm: m.widthCm ?? null,
    heightCm: m.heightCm ?? null,
  };
}

/** A SKU no variant has yet, valid for a new variant; false (reported) when it is not. */
function newSku(row: ParsedRow, sku: string, skuItem: Map<string, number>, byId: Map<number, Item>, report: Report): boolean {
  if (skuItem.has(sku)) {
    report(row.line, `SKU ${sku} is already a variant of the product "${byId.get(skuItem.get(sku)!)?.slug ?? ""}"`);
    return false;
  }
  const parsed = SkuSchema.safeParse(sku);
  if (!parsed.success) report(row.line, `SKU "${sku}": ${parsed.error.issues[0]?.message ?? "not valid"}`);
  return parsed.success;
}

/** The SKU once in the file: a second row with it is reported. */
function firstUse(row: ParsedRow, skusInFile: Map<string, number>, report: Report): boolean {
  const sku = row.variant.sku;
  if (sku === null) return true;
  const seen = skusInFile.get(sku);
  if (seen !== undefined) {
    report(row.line, `SKU ${sku} is already on line ${seen}`);
    return false;
  }
  skusInFile.set(sku, row.line);
  return true;
}

/** New rows of a product with options: each a new combination of its options' values, within the limits. */
function newCombinations(
  rows: { row: ParsedRow; slugs: string[] }[],
  options: { values: string[] }[],
  taken: Map<string, string>,
  existing: number,
  report: Report,
): boolean {
  let ok = true;
  const values = options.map((o) => new Set(o.values));
  for (const { row, slugs } of rows) {
    const key = slugs.join("/");
    const other = taken.get(key);
    if (other !== undefined) {
      report(row.line, `${row.variant.options.map((o) => o.value).join(", ")} is already sold as ${other}`);
      ok = false;
      continue;
    }
    taken.set(key, `SKU ${row.variant.sku} (line ${row.line})`);
    slugs.forEach((slug, i) => values[i]!.add(slug));
  }
  if (values.some((v) => v.size > VARIANT_LIMITS.values)) {
    report(rows[0]!.row.line, `An option has at most ${VARIANT_LIMITS.values} values`);
    ok = false;
  }
  if (existing + rows.length > VARIANT_LIMITS.variants) {
    report(rows[0]!.row.line, `A product has at most ${VARIANT_LIMITS.variants} variants`);
    ok = false;
  }
  return ok;
}

/** A new product's variants: its rows' (one, perhaps without a SKU, when it has no options). */
export function planNewVariants(
  rows: ParsedRow[],
  skuItem: Map<string, number>,
  byId: Map<number, Item>,
  skusInFile: Map<string, number>,
  report: Report,
): VariantWrite[] | null {
  let ok = true;
  const fresh: { row: ParsedRow; slugs: string[] }[] = [];
  const names = (row: ParsedRow) => row.variant.options.map((o) => slugify(o.name)).join("/");
  for (const row of rows) {
    if (!firstUse(row, skusInFile, report)) ok = false;
    else if (names(row) !== names(rows[0]!)) {
      report(row.line, `The product's columns differ from line ${rows[0]!.line} (option names): the rows of one product must agree`);
      ok = false;
    } else if (row.variant.options.length === 0) {
      if (row !== rows[0]) {
        report(row.line, `A product without options is sold as one variant: line ${rows[0]!.line} gives it already`);
        ok = false;
      } else if (row.variant.sku !== null && !newSku(row, row.variant.sku, skuItem, byId, report)) ok = false;
    } else if (row.variant.sku === null) {
      report(row.line, NEEDS_SKU);
      ok = false;
    } else if (!newSku(row, row.variant.sku, skuItem, byId, report)) ok = false;
    else fresh.push({ row, slugs: row.variant.options.map((o) => slugify(o.value)) });
  }
  if (
    fresh.length &&
    !newCombinations(
      fresh,
      rows[0]!.variant.options.map(() => ({ values: [] })),
      new Map(),
      0,
      report,
    )
  )
    ok = false;
  if (!ok) return null;
  return rows.map((row) => ({
    kind: "create",
    line: row.line,
    sku: row.variant.sku,
    values: row.variant.options.map((o) => o.value),
    fields: fieldsOf(row),
  }));
}

/**
 * An existing product's rows as its variants' writes, or null (reported). A product without options
 * is one row, as before it had variants: its price and stock are the product's edit (`price`, `stock`,
 * `version`), checked against the product's version (or the row's variant_version).
 */
export function planVariants(
  before: Item & { version: number },
  current: CurrentProduct,
  rows: ParsedRow[],
  skuItem: Map<string, number>,
  byId: Map<number, Item>,
  skusInFile: Map<string, number>,
  report: Report,
): { writes: VariantWrite[]; price?: number; stock: StockChange; version?: number | null } | null {
  let ok = true;
  const fail = (line: number, message: string) => {
    report(line, message);
    ok = false;
  };
  if (current.options.length === 0) {
    const only = current.variants[0]!;
    for (const row of rows) {
      if (!firstUse(row, skusInFile, report)) ok = false;
      else if (row.variant.options.length) fail(row.line, NO_OPTIONS);
      else if (row.variant.sku !== null && row.variant.sku !== only.sku) {
        fail(row.line, `This product without options is sold as one variant, SKU ${only.sku}: another SKU needs options`);
      } else if (row !== rows[0]) fail(row.line, `This row is the same variant as line ${rows[0]!.line}`);
    }
    if (!ok) return null;
    const row = rows[0]!;
    const { price: _, stock, ...extras } = changesOf(row, only);
    const change: StockChange = stock !== undefined ? { to: stock } : null;
    const { inStock: _i, stock: _s, ...details } = row.input;
    const unchanged = change === null && Object.keys(extras).length === 0 && row.input.price === only.price && sameDetails(before, details);
    if (unchanged) return { writes: [], price: row.input.price, stock: null, version: before.version };
    const stale =
      (row.version !== null && row.version !== before.version) || (row.variant.version !== null && row.variant.version !== only.version);
    if (stale) fail(row.line, STALE_ROW(before.stock));
    else if (change !== null && row.version === null && row.variant.version === null) fail(row.line, STOCK_NEEDS_VERSION);
    if (!ok) return null;
    const writes: VariantWrite[] = Object.keys(extras).length
      ? [{ kind: "update", line: row.line, id: only.id, sku: only.sku, guard: null, set: extras, before: only }]
      : [];
    // A row carrying only the variant's version was checked against it here; the write is guarded by the product's.
    return { writes, price: row.input.price, stock: change, version: change !== null ? before.version : row.version };
  }

  const bySku = new Map(current.variants.map((v) => [v.sku, v]));
  const writes: VariantWrite[] = [];
  const fresh: { row: ParsedRow; slugs: string[] }[] = [];
  const names = current.options.map((o) => o.name).join(", ");
  for (const row of rows) {
    const sku = row.variant.sku;
    if (!firstUse(row, skusInFile, report)) ok = false;
    else if (sku === null) fail(row.line, NEEDS_SKU);
    else if (bySku.has(sku)) {
      const v = bySku.get(sku)!;
      const given = row.variant.options;
      if (
        given.length &&
        given.map((o) => `${slugify(o.name)}=${slugify(o.value)}`).join("/") !==
          current.options.map((o, i) => `${o.slug}=${v.valueSlugs[i]}`).join("/")
      ) {
        fail(row.line, `SKU ${sku} is ${v.label}: a variant's options are not changed by an import`);
        continue;
      }
      const set = changesOf(row, v);
      if (Object.keys(set).length === 0) continue; // a row that changes nothing is never refused
      if (row.variant.version !== null && row.variant.version !== v.version) fail(row.line, STALE_VARIANT(sku, v.stock));
      else if (set.stock !== undefined && row.variant.version === null) fail(row.line, VARIANT_STOCK_NEEDS_VERSION);
      else writes.push({ kind: "update", line: row.line, id: v.id, sku, guard: row.variant.version, set, before: v });
    } else if (!newSku(row, sku, skuItem, byId, report)) ok = false;
    else if (
      row.variant.options.length !== current.options.length ||
      row.variant.options.some((o, i) => slugify(o.name) !== current.options[i]!.slug)
    ) {
      fail(row.line, `This product's options are ${names}: give the row a value of each, in that order`);
    } else fresh.push({ row, slugs: row.variant.options.map((o) => slugify(o.value)) });
  }
  const taken = new Map(current.variants.map((v) => [v.valueSlugs.join("/"), `SKU ${v.sku}`]));
  if (fresh.length && !newCombinations(fresh, current.options, taken, current.variants.length, report)) ok = false;
  if (!ok) return null;
  for (const { row } of fresh) {
    writes.push({
      kind: "create",
      line: row.line,
      sku: row.variant.sku,
      values: row.variant.options.map((o) => o.value),
      fields: fieldsOf(row),
    });
  }
  return { writes, stock: null };
}
