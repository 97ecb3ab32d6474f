// The back-office's product list as a CSV file: every variant of every product the list's filters
// match, one row each, in the columns the import reads back (app/utils/product-csv.ts).
import { stringify } from "csv-stringify/sync";
import type { Db } from "~/lib/db.server";
import { db as defaultDb } from "~/lib/db.server";
import type { AdminListQuery } from "~/utils/admin-schemas";
import { CSV_COLUMNS, CSV_OPTIONS, MEASURE_COLUMNS } from "~/utils/product-csv";
import { listProductsForExport } from "./admin-lists.server";
import { loadVariants } from "./csv-variants-read.server";

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab or carriage return) as a formula:
 * such a cell is written with a leading apostrophe. A cell that already starts with apostrophes
 * before one of them gets one more, so the import can undo exactly one.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;
export const escapeCell = (value: string) => (FORMULA_START.test(value) ? `'${value}` : value);
/** What the import reads from a cell the export escaped: the cell as it was stored. */
export const unescapeCell = (value: string) => (value.startsWith("'") && FORMULA_START.test(value) ? value.slice(1) : value);

/** products-2026-11-22.csv, dated in India's time zone. */
export function exportFileName(now = new Date()): string {
  const day = new Intl.DateTimeFormat("en-CA", { year: "numeric", month: "2-digit", day: "2-digit", timeZone: "Asia/Kolkata" }).format(now);
  return `products-${day}.csv`;
}

/**
 * The products the list's filters match, as CSV with a UTF-8 BOM (so Excel reads ₹ and names
 * right): one row per variant, the product's columns repeated on each (a product without options:
 * one row, its only variant's).
 */
export async function exportProductsCsv(query: Pick<AdminListQuery, "q" | "category">, db: Db = defaultDb): Promise<string> {
  const [products, categories] = await Promise.all([
    listProductsForExport(query, db),
    db.selectFrom("categories").select(["id", "slug"]).execute(),
  ]);
  const categorySlug = new Map(categories.map((c) => [c.id, c.slug]));
  const rows: string[][] = [];
  const yesNo = (flag: boolean) => (flag ? "yes" : "no");
  for (let i = 0; i < products.length; i += 500) {
    const chunk = products.slice(i, i + 500);
    const variants = await loadVariants(
      db,
      chunk.map((p) => p.id),
    );
    for (const p of chunk) {
      const product = [
        p.slug,
        p.title,
        categorySlug.get(p.categoryId) ?? "",
        "",
        "",
        yesNo(p.featured),
        yesNo(p.madeToOrder),
        p.description,
        p.imgPath,
        JSON.stringify(p.specifications),
        String(p.version),
      ];
      const { options, variants: sold } = variants.get(p.id) ?? { options: [], variants: [] };
      for (const v of sold) {
        const cells = [...product];
        cells[3] = String(v.price);
        cells[4] = String(v.stock);
        const named = Array.from({ length: CSV_OPTIONS }, (_, at) => {
          const option = options[at];
          return option ? [option.name, v.values[at] ?? ""] : ["", ""];
        }).flat();
        const measures = MEASURE_COLUMNS.map(([, field]) => (v[field] === null ? "" : String(v[field])));
        rows.push([...cells, ...named, v.sku, yesNo(v.active), ...measures, String(v.version)].map(escapeCell));
      }
    }
  }
  return stringify([[...CSV_COLUMNS], ...rows], { bom: true, record_delimiter: "windows" });
}
