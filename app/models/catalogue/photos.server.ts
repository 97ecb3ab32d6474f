// A product's photos (docs/decisions/0035): added (the files made by app/lib/photos.server.ts before
// the transaction, stored inside it with the row and its audit row), moved up or down, given
// alt text, and deleted (the files removed once the row's deletion has committed). Positions run
// 1..n without gaps; the first photo is the one the product page opens on.
import type { Db } from "~/lib/db.server";
import { db as defaultDb, isPostgres, nowIso } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { whileCurrent } from "~/lib/generation-cache.server";
import type { ImageStore } from "~/lib/image-store.server";
import { imageStore } from "~/lib/image-store.server";
import type { PreparedPhoto } from "~/lib/photos.server";
import type { StoredPhoto } from "~/utils/photos";
import { photoWidths, RENDITION_FORMATS } from "~/utils/photos";
import { recordAudit } from "../audit.server";
import type { Actor } from "../staff/staff.server";
import { dropUnusedUpload } from "./admin-writes.server";
import { variantLabels } from "./variants.server";

export const PRODUCT_NOT_FOUND = "Product Not Found";
export const PHOTO_NOT_FOUND = "That photo is no longer there. Reload the page.";
export const PHOTO_VARIANT_NOT_FOUND = "That variant is not one of this product's. Reload the page.";

/** The product a photos page is about (its id, title and slug), or null. */
export async function photoProduct(itemId: number, db: Db = defaultDb) {
  return (await db.selectFrom("items").select(["id", "title", "slug"]).where("id", "=", itemId).executeTakeFirst()) ?? null;
}

/** A product's photos in order, as pages show them. */
export async function listPhotos(itemId: number, db: Db = defaultDb): Promise<StoredPhoto[]> {
  const rows = await db
    .selectFrom("productPhotos")
    .select(["id", "alt", "width", "height", "renditionBase", "variantId"])
    .where("itemId", "=", itemId)
    .orderBy("position")
    .orderBy("id")
    .execute();
  return rows.map((r) => ({
    id: r.id,
    alt: r.alt,
    width: r.width,
    height: r.height,
    base: r.renditionBase,
    widths: photoWidths(r.width),
    variantId: r.variantId,
  }));
}

/** The product page's photos, kept while the catalogue's data generation is current (as every storefront read). */
export const storefrontPhotos = whileCurrent((itemId: number) => listPhotos(itemId));

/** Every stored name of a photo: its original and each rendition. */
export function photoFileNames(photo: { originalName: string; renditionBase: string; width: number }): string[] {
  const renditions = photoWidths(photo.width).flatMap((w) => RENDITION_FORMATS.map((f) => `${photo.renditionBase}-${w}.${f}`));
  return [photo.originalName, ...renditions];
}

/** The stored names of every photo of a product (read inside a transaction that deletes them). */
export async function productPhotoFiles(trx: Db, itemId: number): Promise<string[]> {
  const rows = await trx
    .selectFrom("productPhotos")
    .select(["originalName", "renditionBase", "width"])
    .where("itemId", "=", itemId)
    .execute();
  return rows.flatMap(photoFileNames);
}

/**
 * After a deletion committed: the files no row shows any more. Each goes through the same check as
 * an upload a product no longer shows (dropUnusedUpload), so a name typed into a product's image
 * field stays; a failure is logged, never the deletion's.
 */
export async function removePhotoFiles(names: readonly string[], db: Db = defaultDb): Promise<void> {
  for (const name of names) await dropUnusedUpload(db, `/uploads/${name}`);
}

/** Inside a photo write: the product, its row locked until the write commits (PostgreSQL; SQLite has one writer). */
async function lockProduct(trx: Db, itemId: number) {
  const query = trx.selectFrom("items").select(["id", "title"]).where("id", "=", itemId);
  const item = await (isPostgres(trx) ? query.forUpdate() : query).executeTakeFirst();
  if (!item) throw new AppError(404, PRODUCT_NOT_FOUND);
  return item;
}

async function photoOf(trx: Db, itemId: number, photoId: number) {
  const photo = await trx.selectFrom("productPhotos").selectAll().where("id", "=", photoId).where("itemId", "=", itemId).executeTakeFirst();
  if (!photo) throw new AppError(404, PHOTO_NOT_FOUND);
  return photo;
}

/** The label of the variant photos are to show ('Velvet, 3-seater'), null for the product as a whole; 400 for another product's variant. */
async function variantOfPhotos(trx: Db, itemId: number, variantId: number | null): Promise<string | null> {
  if (variantId === null) return null;
  const row = await trx
    .selectFrom("productVariants")
    .select("id")
    .where("id", "=", variantId)
    .where("itemId", "=", itemId)
    .executeTakeFirst();
  if (!row) throw new AppError(400, PHOTO_VARIANT_NOT_FOUND);
  return (await variantLabels(trx, [variantId])).get(variantId) || "the product";
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * Inside the caller's transaction: the prepared photos stored (files through `store`, rows after
 * the product's last photo, alt text `alt` or the product's title and number), with one audit row.
 */
export async function insertPhotos(
  trx: Db,
  itemId: number,
  photos: readonly PreparedPhoto[],
  alt: string,
  actor: Actor | null,
  store: ImageStore = imageStore,
  variantId: number | null = null,
): Promise<number[]> {
  const item = await lockProduct(trx, itemId);
  const variant = await variantOfPhotos(trx, itemId, variantId);
  const last = await trx
    .selectFrom("productPhotos")
    .select((eb) => eb.fn.max("position").as("last"))
    .where("itemId", "=", itemId)
    .executeTakeFirst();
  let position = Number(last?.last ?? 0);
  const ids: number[] = [];
  for (const photo of photos) {
    for (const file of photo.files) await store.put(file.name, file.type, file.bytes, trx);
    position++;
    const row = await trx
      .insertInto("productPhotos")
      .values({
        itemId,
        variantId,
        position,
        alt: alt || `${item.title}, photo ${position}`,
        originalName: photo.originalName,
        width: photo.width,
        height: photo.height,
        renditionBase: photo.base,
        createdAt: nowIso(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    ids.push(row.id);
  }
  if (actor) {
    await recordAudit(trx, {
      action: "update",
      entity: "product",
      entityId: itemId,
      summary:
        `Added ${plural(photos.length, "photo")}${variant ? ` of ${variant}` : ""} to product "${item.title}" ` +
        `(${plural(position, "photo")} now)`,
      actor,
    });
  }
  return ids;
}

/**
 * The staff's upload: the prepared photos stored with their rows and audit row in one transaction.
 * On the disk store the files are written as the transaction runs: a write that fails deletes them.
 */
export async function addPhotos(
  itemId: number,
  photos: readonly PreparedPhoto[],
  alt: string,
  actor: Actor,
  db: Db = defaultDb,
  store: ImageStore = imageStore,
  variantId: number | null = null,
): Promise<number[]> {
  try {
    return await db.transaction().execute((trx) => insertPhotos(trx, itemId, photos, alt, actor, store, variantId));
  } catch (error) {
    for (const photo of photos) for (const file of photo.files) await store.delete(file.name).catch(() => false);
    throw error;
  }
}

/** Move a photo one place earlier ("up") or later ("down"); at either end nothing changes. */
export async function movePhoto(
  itemId: number,
  photoId: number,
  direction: "up" | "down",
  actor: Actor,
  db: Db = defaultDb,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const item = await lockProduct(trx, itemId);
    const photo = await photoOf(trx, itemId, photoId);
    const neighbour = await trx
      .selectFrom("productPhotos")
      .select(["id", "position"])
      .where("itemId", "=", itemId)
      .where("position", direction === "up" ? "<" : ">", photo.position)
      .orderBy("position", direction === "up" ? "desc" : "asc")
      .limit(1)
      .executeTakeFirst();
    if (!neighbour) return;
    await trx.updateTable("productPhotos").set({ position: neighbour.position }).where("id", "=", photo.id).execute();
    await trx.updateTable("productPhotos").set({ position: photo.position }).where("id", "=", neighbour.id).execute();
    await recordAudit(trx, {
      action: "update",
      entity: "product",
      entityId: itemId,
      summary: `Moved photo ${photo.position} of product "${item.title}" to place ${neighbour.position}`,
      actor,
    });
  });
}

/** A photo's alt text (what a screen reader says of it). */
export async function setPhotoAlt(itemId: number, photoId: number, alt: string, actor: Actor, db: Db = defaultDb): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const item = await lockProduct(trx, itemId);
    const photo = await photoOf(trx, itemId, photoId);
    if (photo.alt === alt) return;
    await trx.updateTable("productPhotos").set({ alt }).where("id", "=", photo.id).execute();
    await recordAudit(trx, {
      action: "update",
      entity: "product",
      entityId: itemId,
      summary: `Changed the alt text of photo ${photo.position} of product "${item.title}"`,
      actor,
      details: { alt: [photo.alt, alt] },
    });
  });
}

/** Which variant a photo shows (null: the product as a whole), with its audit row. */
export async function setPhotoVariant(itemId: number, photoId: number, variantId: number | null, actor: Actor, db: Db = defaultDb) {
  await db.transaction().execute(async (trx) => {
    const item = await lockProduct(trx, itemId);
    const photo = await photoOf(trx, itemId, photoId);
    const label = await variantOfPhotos(trx, itemId, variantId);
    if (photo.variantId === variantId) return;
    await trx.updateTable("productPhotos").set({ variantId }).where("id", "=", photo.id).execute();
    await recordAudit(trx, {
      action: "update",
      entity: "product",
      entityId: itemId,
      summary: `Photo ${photo.position} of product "${item.title}" now shows ${label ?? "the product as a whole"}`,
      actor,
      details: { variantId: [photo.variantId, variantId] },
    });
  });
}

/** Delete a photo (the later ones move up a place); its files are removed once that has committed. */
export async function deletePhoto(itemId: number, photoId: number, actor: Actor, db: Db = defaultDb): Promise<void> {
  const names = await db.transaction().execute(async (trx) => {
    const item = await lockProduct(trx, itemId);
    const photo = await photoOf(trx, itemId, photoId);
    await trx.deleteFrom("productPhotos").where("id", "=", photo.id).execute();
    await trx
      .updateTable("productPhotos")
      .set((eb) => ({ position: eb("position", "-", 1) }))
      .where("itemId", "=", itemId)
      .where("position", ">", photo.position)
      .execute();
    await recordAudit(trx, {
      action: "update",
      entity: "product",
      entityId: itemId,
      summary: `Deleted photo ${photo.position} of product "${item.title}"`,
      actor,
    });
    return photoFileNames(photo);
  });
  await removePhotoFiles(names, db);
}
