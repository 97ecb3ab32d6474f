// The back-office's product import: an all-or-nothing import of a CSV file that checks every row
// first (csv-plan.server.ts) and writes only when none has a problem, in one transaction.
import type { Db } from "~/lib/db.server";
import { db as defaultDb, isForeignKeyViolation, isUniqueViolation } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, TOO_LARGE } from "~/utils/product-csv";
import { firstFreeSlug, slugify } from "~/utils/slug";
import { recordAudit } from "../audit.server";
import type { Actor } from "../staff/staff.server";
import { planImport, STALE_ROW } from "./csv-plan.server";
import { ImportRejected, readHeader, readRecords, uploadedText } from "./csv-read.server";
import { writeVariants } from "./csv-variant-writes.server";
import { insertProduct, saveProduct, StaleProductError } from "./product-writes.server";
import { lockItems } from "./variants.server";

export const NO_ROWS = "The file has no product rows";
export const TOO_MANY_ROWS = `The file has more than ${IMPORT_MAX_ROWS} product rows: split it into smaller files`;
export const IMPORT_RACE =
  "Another change to the products was saved at the same time, so nothing was imported. Please upload the file again.";

export interface ImportResult {
  created: number;
  updated: number;
}

async function currentPrice(trx: Db, id: number): Promise<number> {
  return (await trx.selectFrom("items").select("price").where("id", "=", id).executeTakeFirstOrThrow()).price;
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

/**
 * Import the products of an uploaded CSV file (the import form's `file`): the file is refused
 * with a message on the field when it is missing, a spreadsheet's own format, too large or not
 * UTF-8; its rows as importProductsCsv.
 */
export async function importProductsFile(file: FormDataEntryValue | null, actor: Actor, db: Db = defaultDb): Promise<ImportResult> {
  return importProductsCsv(await uploadedText(file), actor, db);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * Import products from CSV text: every row is checked first (all problems are reported, as an
 * ImportRejected), and only a file without problems is written, in one transaction.
 */
export async function importProductsCsv(text: string, actor: Actor, db: Db = defaultDb): Promise<ImportResult> {
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
      // Every writer of a variant's stock locks its product first, in id order (ADR 0034): a checkout racing this import queues.
      await lockItems(
        trx,
        plan.flatMap((r) => (r.kind === "update" ? [r.id] : [])),
      );
      const reserved = new Set(plan.flatMap((r) => (r.kind === "create" && r.slug ? [r.slug] : [])));
      for (const row of plan) {
        if (row.kind === "update") {
          // A product sold in variants keeps the price its variants make it (they are written next);
          // its own row is written when its columns change, or (its audit row) when nothing does.
          const edit = row.hasOptions ? { ...row.edit, price: await currentPrice(trx, row.id) } : row.edit;
          if (!row.hasOptions || row.detailsChange || row.variants.length === 0) {
            await saveProduct(trx, row.id, edit, actor).catch((error: unknown) => {
              // Sold or edited between the check and this write: the row is refused, nothing is written.
              if (error instanceof StaleProductError) throw new ImportRejected([{ line: row.line, message: STALE_ROW(error.stockNow) }]);
              throw error;
            });
          }
          await writeVariants(trx, { id: row.id, title: row.edit.title, created: false }, row.options, row.variants, actor);
          continue;
        }
        if (row.slug) {
          reserved.delete(row.slug);
          // The check found no product with this slug; one made since would be duplicated under another slug.
          if (!(await slugIsFree(trx, row.slug))) throw new AppError(409, IMPORT_RACE);
        }
        const made = await insertProduct(trx, row.input, actor, row.slug ?? (await titleSlug(trx, row.input.title, reserved)));
        await writeVariants(trx, { id: made.id, title: made.title, created: true }, row.options, row.variants, actor);
      }
      await recordAudit(trx, {
        action: "import",
        entity: "product",
        summary: `Imported ${plural(plan.length, "product")} from CSV: ${created} created, ${updated} updated`,
        actor,
      });
    });
  } catch (error) {
    // A slug taken by a product being made at the same moment, or a category deleted meanwhile.
    if (isUniqueViolation(error) || isForeignKeyViolation(error)) throw new AppError(409, IMPORT_RACE);
    throw error;
  }
  return { created, updated };
}
