// Photos of one variant (the velvet sofa shows velvet): the staff's photos page uploads a photo for
// a variant or sets which variant a photo shows, refusing another product's variant with nothing
// written; the product page opens on the chosen variant's photos, then the product's, never another
// variant's; the catalogue API gives each variant its `images` in that order.
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { defineVariants } from "~/models/catalogue/variant-writes.server";
import { variantsOf } from "~/models/catalogue/variants.server";
import { BUILTIN_OWNER } from "~/models/staff/staff.server";
import * as detail from "~/routes/api.item.detailBySlug";
import * as photosPage from "~/routes/admin.products_.$id.photos";
import * as productPage from "~/routes/product.$slug";
import { createTestItem } from "../support/items";
import { getRequest, multipartRequest } from "../support/requests";
import { asRecord, call } from "../support/route-calls";
import { signedInStaff } from "../support/staff";

let manager = "";

beforeAll(async () => {
  await ready;
  manager = (await signedInStaff("manager")).cookie;
});

const photo = async (colour: string) =>
  new File(
    [
      await sharp({ create: { width: 800, height: 600, channels: 3, background: colour } })
        .jpeg()
        .toBuffer(),
    ],
    "p.jpg",
    {
      type: "image/jpeg",
    },
  );

/** A sofa sold in Linen and Velvet. */
async function sofa(tag: string) {
  const id = await createTestItem(`vphoto-${tag}`, { price: 30000, stock: 4 });
  await db.transaction().execute((trx) =>
    defineVariants(
      trx,
      id,
      {
        options: [{ name: "Fabric", values: ["Linen", "Velvet"] }],
        variants: [
          { values: ["Linen"], sku: `VPH-${tag}-L`.toUpperCase(), price: 30000, stock: 2 },
          { values: ["Velvet"], sku: `VPH-${tag}-V`.toUpperCase(), price: 34000, stock: 2 },
        ],
      },
      BUILTIN_OWNER,
    ),
  );
  const product = (await variantsOf(db, id))!;
  const slug = (await db.selectFrom("items").select("slug").where("id", "=", id).executeTakeFirstOrThrow()).slug;
  return { id, slug, linen: product.variants[0]!.id, velvet: product.variants[1]!.id };
}

const post = async (itemId: number, fields: Record<string, File | File[] | string>) =>
  call(photosPage.action, await multipartRequest(`/admin/products/${itemId}/photos`, fields, { Cookie: manager }), { id: String(itemId) });
const rows = (itemId: number) =>
  db.selectFrom("productPhotos").select(["id", "alt", "variantId"]).where("itemId", "=", itemId).orderBy("position").execute();
const audits = async (itemId: number) =>
  (await db.selectFrom("auditLog").select("id").where("entity", "=", "product").where("entityId", "=", String(itemId)).execute()).length;

async function pagePhotos(slug: string, query = "") {
  const page = await call(productPage.loader, getRequest(`/product/${slug}${query}`), { slug });
  return (asRecord(page.body).photos as { alt: string }[]).map((p) => p.alt);
}

describe("photos of a variant", () => {
  it("an upload for a variant, and the product page opens on the chosen variant's photos", async () => {
    const s = await sofa("page");
    expect((await post(s.id, { intent: "upload", alt: "Sofa, front", photos: [await photo("#8b5a2b")] })).status).toBe(302);
    const velvetUpload = { intent: "upload", alt: "Velvet sofa", variantId: String(s.velvet), photos: [await photo("#4b1d3f")] };
    expect((await post(s.id, velvetUpload)).status).toBe(302);
    expect((await rows(s.id)).map((r) => [r.alt, r.variantId])).toEqual([
      ["Sofa, front", null],
      ["Velvet sofa", s.velvet],
    ]);
    expect(await pagePhotos(s.slug, "?fabric=velvet")).toEqual(["Velvet sofa", "Sofa, front"]);
    // Linen has none of its own: the product's photos only, never velvet's.
    expect(await pagePhotos(s.slug, "?fabric=linen")).toEqual(["Sofa, front"]);
    expect(await pagePhotos(s.slug)).toEqual(["Sofa, front"]);
  });

  it("sets which variant a photo shows, audited; back to the product as a whole", async () => {
    const s = await sofa("set");
    await post(s.id, { intent: "upload", alt: "Linen sofa", photos: [await photo("#d8c3a5")] });
    const [row] = await rows(s.id);
    const before = await audits(s.id);
    expect((await post(s.id, { intent: "variant", photoId: String(row!.id), variantId: String(s.linen) })).status).toBe(302);
    expect((await rows(s.id))[0]!.variantId).toBe(s.linen);
    expect(await audits(s.id)).toBe(before + 1);
    expect(await pagePhotos(s.slug, "?fabric=velvet")).toEqual([]);
    expect(await pagePhotos(s.slug, "?fabric=linen")).toEqual(["Linen sofa"]);
    expect((await post(s.id, { intent: "variant", photoId: String(row!.id), variantId: "" })).status).toBe(302);
    expect((await rows(s.id))[0]!.variantId).toBeNull();
    expect(await audits(s.id)).toBe(before + 2);
  });

  it("refuses another product's variant, or a variant id that is not a number, with nothing written", async () => {
    const s = await sofa("refused");
    const other = await sofa("other");
    await post(s.id, { intent: "upload", alt: "Sofa", photos: [await photo("#8b5a2b")] });
    const [row] = await rows(s.id);
    const before = await audits(s.id);
    const foreign = await post(s.id, { intent: "variant", photoId: String(row!.id), variantId: String(other.velvet) });
    expect(foreign.status).toBe(400);
    expect(JSON.stringify(foreign.body)).toContain("That variant is not one of this product's");
    expect((await post(s.id, { intent: "variant", photoId: String(row!.id), variantId: "velvet" })).status).toBe(400);
    const upload = await post(s.id, { intent: "upload", alt: "x", variantId: String(other.linen), photos: [await photo("#000000")] });
    expect(upload.status).toBe(400);
    expect(await rows(s.id)).toEqual([{ id: row!.id, alt: "Sofa", variantId: null }]);
    expect(await audits(s.id)).toBe(before);
  });

  it("the catalogue API gives each variant its images: its own first, then the product's; the drawing without photos", async () => {
    const s = await sofa("api");
    const bare = await call(detail.loader, getRequest(`/api/item/detailBySlug?slug=${s.slug}`));
    const imgPath = asRecord(bare.body).imgPath as string;
    const imagesOf = (body: unknown) =>
      (asRecord(body).variants as { sku: string; images: string[] }[]).map((v) => [v.sku.slice(-1), v.images.length, v.images[0]]);
    expect(imagesOf(bare.body)).toEqual([
      ["L", 1, imgPath],
      ["V", 1, imgPath],
    ]);
    await post(s.id, { intent: "upload", alt: "Sofa", photos: [await photo("#8b5a2b")] });
    await post(s.id, { intent: "upload", alt: "Velvet", variantId: String(s.velvet), photos: [await photo("#4b1d3f")] });
    const answer = await call(detail.loader, getRequest(`/api/item/detailBySlug?slug=${s.slug}`));
    const variants = asRecord(answer.body).variants as { sku: string; images: string[] }[];
    const [general, velvet] = (
      await db.selectFrom("productPhotos").select("renditionBase").where("itemId", "=", s.id).orderBy("position").execute()
    ).map((r) => `/uploads/${r.renditionBase}-800.webp`);
    expect(variants.map((v) => v.images)).toEqual([[general], [velvet, general]]);
  });
});
