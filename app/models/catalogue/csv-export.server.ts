// The back-office's product list as a CSV file: every product the list's filters match, one row
// each, in the columns the import reads back (app/utils/product-csv.ts).
import { stringify } from "csv-stringify/sync";
import type { Db } from "~/lib/db.server";
import { db as defaultDb } from "~/lib/db.server";
import type { AdminListQuery } from "~/utils/admin-schemas";
import { CSV_COLUMNS } from "~/utils/product-csv";
import { listProductsForExport } from "./admin-lists.server";

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
