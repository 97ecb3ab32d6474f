// What the staff's writes to the catalogue share: a free slug for a title (retried when a
// simultaneous write claims it), the uploaded image's life (deleted when the write that stores it
// fails, or once nothing shows it any more), and a foreign key's refusal as a message.
import type { Db } from "~/lib/db.server";
import { isForeignKeyViolation, isUniqueViolation } from "~/lib/db.server";
import type { AppError } from "~/lib/errors.server";
import type { PendingUpload } from "~/lib/uploads.server";
import { removeUnusedUpload } from "~/lib/uploads.server";
import { firstFreeSlug, slugify } from "~/utils/slug";
import { errorMessage, log } from "~/lib/log.server";

/** A free slug for `title` in `table`, not counting the row `exceptId` (its own). */
export async function uniqueSlug(db: Db, table: "categories" | "items", title: string, exceptId?: number): Promise<string> {
  const base = slugify(title);
  let query = db
    .selectFrom(table)
    .select("slug")
    .where((eb) => eb.or([eb("slug", "=", base), eb("slug", "like", `${base}-%`)]));
  if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
  const taken = new Set((await query.execute()).map((r) => r.slug));
  return firstFreeSlug(base, taken);
}

/** Run a write that claims a slug; a simultaneous claim of the same slug is retried with the next one. */
export async function withSlugRetry<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (attempt < 3 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

/**
 * After a change has committed: the uploaded image a row no longer shows is deleted, unless
 * another category or product, or a past order's line, still shows it (asked under the upload's
 * lock, which every write pointing a row at an upload takes too: holdUpload). A failure here is
 * logged, never the change's.
 */
export async function dropUnusedUpload(db: Db, imgPath: string | undefined, now?: string): Promise<void> {
  if (!imgPath?.startsWith("/uploads/") || imgPath === now) return;
  try {
    await removeUnusedUpload(db, imgPath, async (trx) => {
      for (const table of ["items", "categories", "orderItems"] as const) {
        // Past orders keep showing the picture of what was bought.
        if (await trx.selectFrom(table).select("id").where("imgPath", "=", imgPath).executeTakeFirst()) return true;
      }
      return false;
    });
  } catch (error) {
    log.error(`an unused upload could not be removed: ${errorMessage(error)}`);
  }
}

/** A form's input with the image file it uploads (withImage), stored in the transaction that writes the row. */
export type Uploading = { upload?: PendingUpload | null };

/** A write that stores `upload` in its transaction: when it fails, the upload's file (disk store) is deleted too. */
export async function withUpload<T>(db: Db, upload: PendingUpload | null | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (upload) await dropUnusedUpload(db, upload.path);
    throw error;
  }
}

/** Run `write`; a foreign-key refusal (a row it points at, or a row it deletes, changed meanwhile) becomes `refusal()`. */
export async function onForeignKey<T>(refusal: () => AppError, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isForeignKeyViolation(error)) throw refusal();
    throw error;
  }
}
