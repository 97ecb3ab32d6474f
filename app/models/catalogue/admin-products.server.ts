// The staff's changes to products from the product form: create, edit (only from the version
// the form was opened at), delete. Each writes its audit row, and the image its form uploaded
// (app/lib/uploads.server.ts: putUpload), in the same transaction.
import type { Db } from "~/lib/db.server";
import { db as defaultDb } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { putUpload } from "~/lib/uploads.server";
import type { ProductEdit, ProductInput } from "~/utils/admin-schemas";
import { recordAudit } from "../audit.server";
import type { Actor } from "../staff/staff.server";
import type { AdminItem } from "./admin-lists.server";
import type { Uploading } from "./admin-writes.server";
import { dropUnusedUpload, onForeignKey, withSlugRetry, withUpload } from "./admin-writes.server";
import { productPhotoFiles, removePhotoFiles } from "./photos.server";
import { categoryGone, insertProduct, saveProduct } from "./product-writes.server";

export async function createProduct(input: ProductInput & Uploading, actor: Actor, db: Db = defaultDb): Promise<AdminItem> {
  return withUpload(db, input.upload, () =>
    withSlugRetry(() =>
      onForeignKey(categoryGone, () =>
        db.transaction().execute(async (trx) => {
          await putUpload(trx, input.upload);
          return insertProduct(trx, input, actor);
        }),
      ),
    ),
  );
}

export const EDIT_OUT_OF_DATE = "This form is out of date (it does not say which version of the product it shows). Reload and try again.";

/**
 * Saves an edit (the form; any API): the product's fields and its stock change, only if the row
 * is still the version the form was opened at (its version is required). Its slug (and so its
 * storefront address) stays as it was made.
 */
export async function updateProduct(id: number, edit: ProductEdit & Uploading, actor: Actor, db: Db = defaultDb): Promise<AdminItem> {
  const before = await db.selectFrom("items").select("imgPath").where("id", "=", id).executeTakeFirst();
  let saved: AdminItem;
  try {
    if (edit.version === null) throw new AppError(400, EDIT_OUT_OF_DATE);
    saved = await onForeignKey(categoryGone, () =>
      db.transaction().execute(async (trx) => {
        await putUpload(trx, edit.upload);
        return saveProduct(trx, id, edit, actor);
      }),
    );
  } catch (error) {
    // A refused edit's newly uploaded image is shown by nothing.
    if (edit.imgPath !== before?.imgPath) await dropUnusedUpload(db, edit.imgPath);
    throw error;
  }
  await dropUnusedUpload(db, before?.imgPath, saved.imgPath);
  return saved;
}

/** Past orders keep their own copy of title and price; carts and wishlists lose the line. */
export async function deleteProduct(id: number, actor: Actor, db: Db = defaultDb): Promise<void> {
  const { imgPath, photoFiles } = await db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("items").selectAll().where("id", "=", id).executeTakeFirst();
    if (!row) throw new AppError(404, "Product Not Found");
    // Its photos' rows go with it (on delete cascade); their files once this has committed.
    const files = await productPhotoFiles(trx, id);
    await trx.deleteFrom("items").where("id", "=", id).execute();
    await recordAudit(trx, {
      action: "delete",
      entity: "product",
      entityId: id,
      summary: `Deleted product "${row.title}" (${row.slug})`,
      actor,
      details: { price: [row.price, null], stock: [row.stock, null] },
    });
    return { imgPath: row.imgPath, photoFiles: files };
  });
  await dropUnusedUpload(db, imgPath);
  await removePhotoFiles(photoFiles, db);
}
