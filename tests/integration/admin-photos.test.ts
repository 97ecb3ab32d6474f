// A product's photos through the staff page /admin/products/:id/photos, in the app's image store
// (the disk on SQLite, the database on PostgreSQL): an upload stores the original and every
// rendition with its row and audit row; a refused upload stores nothing; moving and deleting keep
// the order without gaps, and a deleted photo's files (or a deleted product's) are removed. The
// product page reads them, and /uploads serves a rendition with its type and year-long caching.
import fs from "node:fs";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { DiskImageStore, imageStore, uploadsDir } from "~/lib/image-store.server";
import { PHOTO_WRONG_TYPE } from "~/lib/photos.server";
import { uploadResponse } from "~/lib/uploads.server";
import { photoFileNames } from "~/models/catalogue/photos.server";
import * as photosPage from "~/routes/admin.products_.$id.photos";
import * as productsPage from "~/routes/admin.products";
import * as productPage from "~/routes/product.$slug";
import { seedDemoPhotos } from "../../db/seed-photos.server";
import { createTestItem } from "../support/items";
import { getRequest, multipartRequest } from "../support/requests";
import { asRecord, call } from "../support/route-calls";
import { signedInStaff } from "../support/staff";

let manager = "";
let fulfilment = "";
let itemId = 0;

beforeAll(async () => {
  await ready;
  manager = (await signedInStaff("manager")).cookie;
  fulfilment = (await signedInStaff("fulfilment")).cookie;
  itemId = await createTestItem("photo-bench");
});

const jpeg = (width: number, height: number, colour = "#8b5a2b") =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();
const file = async (width = 1000, height = 750) => new File([await jpeg(width, height)], "photo.jpg", { type: "image/jpeg" });

const path = () => `/admin/products/${itemId}/photos`;
const post = (fields: Record<string, File | File[] | string>, cookie = manager) => multipartRequest(path(), fields, { Cookie: cookie });
const params = () => ({ id: String(itemId) });

/** The names of every image in the app's store. */
async function stored(): Promise<string[]> {
  if (imageStore instanceof DiskImageStore) return fs.existsSync(uploadsDir()) ? fs.readdirSync(uploadsDir()).sort() : [];
  return (await db.selectFrom("uploads").select("name").orderBy("name").execute()).map((row) => row.name);
}

const photoRows = () => db.selectFrom("productPhotos").selectAll().where("itemId", "=", itemId).orderBy("position").execute();
const auditCount = async () =>
  (await db.selectFrom("auditLog").select("id").where("entity", "=", "product").where("entityId", "=", String(itemId)).execute()).length;

describe("the product photos page", () => {
  it("uploads several photos: the original and every rendition stored, rows in order, one audit row", async () => {
    const audits = await auditCount();
    const answer = await call(
      photosPage.action,
      await post({ intent: "upload", alt: "", photos: [await file(), await file(500, 400)] }),
      params(),
    );
    expect(answer.status).toBe(302);
    const rows = await photoRows();
    expect(rows.map((r) => [r.position, r.width, r.height, r.alt])).toEqual([
      [1, 1000, 750, "Test photo-bench, photo 1"],
      [2, 500, 400, "Test photo-bench, photo 2"],
    ]);
    const names = await stored();
    for (const row of rows) for (const name of photoFileNames(row)) expect(names).toContain(name);
    expect(photoFileNames(rows[0]!)).toHaveLength(1 + 5 * 2);
    expect(photoFileNames(rows[1]!)).toHaveLength(1 + 3 * 2);
    expect(await auditCount()).toBe(audits + 1);

    // Served with its type, a year's caching and an ETag.
    const served = await uploadResponse(getRequest(`/uploads/${rows[0]!.renditionBase}-640.avif`), `${rows[0]!.renditionBase}-640.avif`);
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/avif");
    expect(served.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
    expect(served.headers.get("ETag")).toMatch(/^"/);
  });

  it("a refused upload (one bad file among good ones) writes no row and no file", async () => {
    const [rows, names, audits] = [await photoRows(), await stored(), await auditCount()];
    const bad = new File(["just some text"], "notes.jpg", { type: "image/jpeg" });
    const answer = await call(photosPage.action, await post({ intent: "upload", photos: [await file(), bad] }), params());
    expect(answer.status).toBe(415);
    expect(asRecord(answer.body).fieldErrors).toEqual({ photos: PHOTO_WRONG_TYPE });
    const broken = new File([Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(300, 1)])], "cut.jpg");
    expect((await call(photosPage.action, await post({ intent: "upload", photos: [broken] }), params())).status).toBe(400);
    const none = new File([], "", { type: "application/octet-stream" });
    expect((await call(photosPage.action, await post({ intent: "upload", photos: none }), params())).status).toBe(400);
    expect(await photoRows()).toEqual(rows);
    expect(await stored()).toEqual(names);
    expect(await auditCount()).toBe(audits);
  });

  it("moves a photo down and up, and saves its alt text", async () => {
    const [first, second] = await photoRows();
    expect((await call(photosPage.action, await post({ intent: "down", photoId: String(first!.id) }), params())).status).toBe(302);
    expect((await photoRows()).map((r) => r.id)).toEqual([second!.id, first!.id]);
    // At the end already: nothing moves.
    await call(photosPage.action, await post({ intent: "down", photoId: String(first!.id) }), params());
    expect((await photoRows()).map((r) => r.id)).toEqual([second!.id, first!.id]);
    await call(photosPage.action, await post({ intent: "up", photoId: String(first!.id) }), params());
    expect((await photoRows()).map((r) => r.id)).toEqual([first!.id, second!.id]);

    expect((await call(photosPage.action, await post({ intent: "alt", photoId: String(first!.id), alt: "  " }), params())).status).toBe(
      400,
    );
    await call(photosPage.action, await post({ intent: "alt", photoId: String(first!.id), alt: "Bench, side view" }), params());
    expect((await photoRows())[0]!.alt).toBe("Bench, side view");
  });

  it("the product page reads the photos in order", async () => {
    const slug = (await db.selectFrom("items").select("slug").where("id", "=", itemId).executeTakeFirstOrThrow()).slug;
    const page = await call(productPage.loader, getRequest(`/product/${slug}`), { slug });
    const photos = asRecord(page.body).photos as { alt: string; avif: string; webp: string }[];
    // Each format's srcset lists every rendition's width.
    const widths = (srcset: string) => srcset.split(", ").map((entry) => Number(entry.split(" ")[1]!.slice(0, -1)));
    for (const p of photos) expect(widths(p.avif)).toEqual(widths(p.webp));
    expect(photos.map((p) => [p.alt, widths(p.webp)])).toEqual([
      ["Bench, side view", [160, 320, 640, 960, 1000]],
      ["Test photo-bench, photo 2", [160, 320, 500]],
    ]);
  });

  it("deleting a photo removes its files and closes the gap", async () => {
    const [first, second] = await photoRows();
    expect((await call(photosPage.action, await post({ intent: "delete", photoId: String(first!.id) }), params())).status).toBe(302);
    const rows = await photoRows();
    expect(rows.map((r) => [r.id, r.position])).toEqual([[second!.id, 1]]);
    const names = await stored();
    for (const name of photoFileNames(first!)) expect(names).not.toContain(name);
    for (const name of photoFileNames(second!)) expect(names).toContain(name);
    // Another product's photo cannot be deleted through this one's page.
    const other = await createTestItem("photo-other");
    expect(
      (await call(photosPage.action, await post({ intent: "delete", photoId: String(second!.id) }), { id: String(other) })).status,
    ).toBe(404);
  });

  it("deleting the product removes its photos' files", async () => {
    const [photo] = await photoRows();
    const answer = await call(
      productsPage.action,
      await multipartRequest(`/admin/products?delete=${itemId}`, { intent: "delete", id: String(itemId) }, { Cookie: manager }),
    );
    expect(answer.status).toBe(302);
    expect(await photoRows()).toEqual([]);
    const names = await stored();
    for (const name of photoFileNames(photo!)) expect(names).not.toContain(name);
  });

  it("refuses staff without the catalogue permission (403) and changes nothing", async () => {
    const id = await createTestItem("photo-guarded");
    const names = await stored();
    const loaded = await call(photosPage.loader, getRequest(`/admin/products/${id}/photos`, { Cookie: fulfilment }), { id: String(id) });
    expect(loaded.status).toBe(403);
    const upload = await multipartRequest(
      `/admin/products/${id}/photos`,
      { intent: "upload", photos: [await file()] },
      { Cookie: fulfilment },
    );
    expect((await call(photosPage.action, upload, { id: String(id) })).status).toBe(403);
    expect(await db.selectFrom("productPhotos").select("id").where("itemId", "=", id).execute()).toEqual([]);
    expect(await stored()).toEqual(names);
  });

  it("an unknown product is a 404", async () => {
    const loaded = await call(photosPage.loader, getRequest("/admin/products/99999999/photos", { Cookie: manager }), { id: "99999999" });
    expect(loaded.status).toBe(404);
  });

  // Eighteen photos through the whole pipeline: seconds of one core, more on a busy machine.
  it("the demo photos: three views of each of two products, one per variant of four, stored through the same pipeline, once", async () => {
    expect(await seedDemoPhotos(db)).toBe(6 + 4 * 3);
    expect(await seedDemoPhotos(db)).toBe(0);
    // The walnut desk shows walnut: each variant's photo is its own.
    const desk = await db
      .selectFrom("productPhotos")
      .innerJoin("items", "items.id", "productPhotos.itemId")
      .innerJoin("productVariants", "productVariants.id", "productPhotos.variantId")
      .select(["productPhotos.alt", "productVariants.sku"])
      .where("items.slug", "=", "executive-l-shaped-office-desk")
      .orderBy("productPhotos.position")
      .execute();
    expect(desk.map((p) => p.alt)).toEqual([
      "Executive L-Shaped Office Desk in Wenge",
      "Executive L-Shaped Office Desk in Walnut",
      "Executive L-Shaped Office Desk in Frosty White",
    ]);
    expect(new Set(desk.map((p) => p.sku)).size).toBe(3);
    const sofa = await db
      .selectFrom("productPhotos")
      .innerJoin("items", "items.id", "productPhotos.itemId")
      .select(["productPhotos.position", "productPhotos.width", "productPhotos.height", "productPhotos.originalName"])
      .where("items.slug", "=", "sheesham-wood-3-seater-sofa")
      .orderBy("productPhotos.position")
      .execute();
    expect(sofa.map((p) => [p.position, p.width, p.height])).toEqual([
      [1, 800, 600],
      [2, 800, 600],
      [3, 800, 600],
    ]);
    expect(await imageStore.get(sofa[0]!.originalName)).not.toBeNull();
  }, 90_000);
});
