// The staff's changes to categories: create, edit, delete. Each writes its audit row, and the
// image its form uploaded (app/lib/uploads.server.ts: putUpload), in the same transaction.
import type { Db } from "~/lib/db.server";
import { db as defaultDb, nowIso, toCount } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import type { PendingUpload } from "~/lib/uploads.server";
import { holdUpload, putUpload } from "~/lib/uploads.server";
import type { CategoryInput } from "~/utils/admin-schemas";
import type { Category } from "~/utils/catalogue";
import { changed, diffDetails, recordAudit } from "../audit.server";
import type { Actor } from "../staff/staff.server";
import type { Uploading } from "./admin-writes.server";
import { dropUnusedUpload, onForeignKey, uniqueSlug, withSlugRetry, withUpload } from "./admin-writes.server";
import { toCategory } from "./categories.server";

export async function createCategory(input: CategoryInput & Uploading, actor: Actor, db: Db = defaultDb): Promise<Category> {
  const { upload, ...fields } = input;
  return withUpload(db, upload, () => insertCategory(db, fields, upload, actor));
}

function insertCategory(db: Db, input: CategoryInput, upload: PendingUpload | null | undefined, actor: Actor): Promise<Category> {
  return withSlugRetry(() =>
    db.transaction().execute(async (trx) => {
      await putUpload(trx, upload);
      await holdUpload(trx, input.imgPath);
      const slug = await uniqueSlug(trx, "categories", input.title);
      // Two categories made at once may get the same position: only their tie-break order (by id) differs, so accepted.
      const last = await trx
        .selectFrom("categories")
        .select((eb) => eb.fn.max("position").as("p"))
        .executeTakeFirst();
      const now = nowIso();
      const row = await trx
        .insertInto("categories")
        .values({ ...input, slug, position: toCount(last?.p) + 1, createdAt: now, updatedAt: now })
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        action: "create",
        entity: "category",
        entityId: row.id,
        summary: `Created category "${row.title}" (${row.slug})`,
        actor,
      });
      return toCategory(row);
    }),
  );
}

/** The slug stays as it was made: links to /category/{slug} keep working after a rename. */
export async function updateCategory(
  id: number,
  { upload, ...input }: CategoryInput & Uploading,
  actor: Actor,
  db: Db = defaultDb,
): Promise<Category> {
  let previous: string | undefined;
  const saved = await withUpload(db, upload, () =>
    db.transaction().execute(async (trx) => {
      const before = await trx.selectFrom("categories").selectAll().where("id", "=", id).executeTakeFirst();
      if (!before) throw new AppError(404, "Category Not Found");
      await putUpload(trx, upload);
      await holdUpload(trx, input.imgPath);
      const row = await trx
        .updateTable("categories")
        .set({ ...input, updatedAt: nowIso() })
        .where("id", "=", id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        action: "update",
        entity: "category",
        entityId: id,
        summary: `Edited category "${row.title}"${changed(before, row, ["title", "description", "imgPath"])}`,
        actor,
        details: diffDetails(before, row, ["title", "imgPath"]),
      });
      previous = before.imgPath;
      return toCategory(row);
    }),
  );
  await dropUnusedUpload(db, previous, saved.imgPath);
  return saved;
}

export const CATEGORY_IN_USE = (n: number) =>
  `This category still has ${n} product${n === 1 ? "" : "s"}. Move or delete ${n === 1 ? "it" : "them"} first, then delete the category.`;

/** A product joined the category while it was being deleted: the foreign key refused the delete. */
export const CATEGORY_GAINED_PRODUCT =
  "A product was just added to this category, so it was not deleted. Move or delete its products first, then delete the category.";

export async function deleteCategory(id: number, actor: Actor, db: Db = defaultDb): Promise<void> {
  const imgPath = await onForeignKey(
    () => new AppError(409, CATEGORY_GAINED_PRODUCT),
    () => deleteCategoryRow(id, actor, db),
  );
  await dropUnusedUpload(db, imgPath);
}

/** The count below is of committed products; one being saved into the category meanwhile meets the foreign key. */
function deleteCategoryRow(id: number, actor: Actor, db: Db): Promise<string> {
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("categories").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw new AppError(404, "Category Not Found");
    const { n } = await trx
      .selectFrom("items")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("categoryId", "=", id)
      .executeTakeFirstOrThrow();
    if (toCount(n) > 0) throw new AppError(409, CATEGORY_IN_USE(toCount(n)));
    await trx.deleteFrom("categories").where("id", "=", id).execute();
    await recordAudit(trx, {
      action: "delete",
      entity: "category",
      entityId: id,
      summary: `Deleted category "${row.title}" (${row.slug})`,
      actor,
    });
    return row.imgPath;
  });
}
