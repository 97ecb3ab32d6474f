// Uploaded product and category images through the admin forms, in the app's image store (the
// disk on SQLite, the database on PostgreSQL): stored only for a form that validates, replaced and
// deleted images removed once nothing shows them, and kept while a past order's line still does.
import fs from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { grantAdmin } from "~/web/sign-in.server";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { DiskImageStore, imageStore, uploadsDir } from "~/lib/image-store.server";
import * as categoriesPage from "~/routes/admin.categories";
import * as productsPage from "~/routes/admin.products";
import { getRequest, mergeCookies, multipartRequest } from "../support/requests";
import { call } from "../support/route-calls";
import { addToCart, checkoutFields, newCustomer, placeViaApi } from "../support/orders";

// A real 1×1 PNG.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");
const png = () => new File([PNG], "photo.png", { type: "image/png" });

let adminCookie = "";
let categoryId = 0;

beforeAll(async () => {
  await ready;
  adminCookie = mergeCookies([await grantAdmin(getRequest("/"))]);
  categoryId = (await db.selectFrom("categories").select("id").where("slug", "=", "outdoor").executeTakeFirstOrThrow()).id;
});

/** A multipart POST from the admin's browser. */
const post = (pathname: string, fields: Record<string, File | string>) => multipartRequest(pathname, fields, { Cookie: adminCookie });

/** The names of every image in the app's store. */
async function stored(): Promise<string[]> {
  if (imageStore instanceof DiskImageStore) return fs.existsSync(uploadsDir()) ? fs.readdirSync(uploadsDir()).sort() : [];
  return (await db.selectFrom("uploads").select("name").orderBy("name").execute()).map((row) => row.name);
}
/** The bytes of the image at a public path (/uploads/…), or null once it is gone. */
const imageAt = async (publicPath: string) => (await imageStore.get(publicPath.slice("/uploads/".length)))?.bytes ?? null;
const exists = async (publicPath: string) => (await imageAt(publicPath)) !== null;

function productFields(title: string, extra: Record<string, File | string> = {}) {
  return {
    intent: "create",
    title,
    categoryId: String(categoryId),
    price: "12999",
    imgPath: "",
    description: "A bench for the upload tests.",
    inStock: "on",
    stock: "5",
    ...extra,
  };
}

async function productByTitle(title: string) {
  return db.selectFrom("items").selectAll().where("title", "=", title).executeTakeFirstOrThrow();
}

describe("uploaded images in the admin forms", () => {
  it("a form that fails keeps no file; one that passes stores it and points the product at it", async () => {
    const before = await stored();
    const refused = await call(productsPage.action, await post("/admin/products?new=1", productFields("", { imageFile: png() })));
    expect(refused.status).toBe(400);
    expect(await stored()).toEqual(before);

    const saved = await call(
      productsPage.action,
      await post("/admin/products?new=1", productFields("Upload Bench One", { imageFile: png() })),
    );
    expect(saved.status).toBe(302);
    const product = await productByTitle("Upload Bench One");
    expect(product.imgPath).toMatch(/^\/uploads\/[a-f0-9]{32}\.png$/);
    expect(await imageAt(product.imgPath)).toEqual(PNG);
  });

  it("a new upload replaces the old file, which is deleted; a URL instead of an upload deletes it too", async () => {
    await call(productsPage.action, await post("/admin/products?new=1", productFields("Upload Bench Two", { imageFile: png() })));
    const first = await productByTitle("Upload Bench Two");
    await call(
      productsPage.action,
      await post(
        `/admin/products?edit=${first.id}`,
        productFields("Upload Bench Two", { intent: "update", id: String(first.id), version: String(first.version), imageFile: png() }),
      ),
    );
    const second = await productByTitle("Upload Bench Two");
    expect(second.imgPath).not.toBe(first.imgPath);
    expect(await exists(first.imgPath)).toBe(false);
    expect(await exists(second.imgPath)).toBe(true);

    await call(
      productsPage.action,
      await post(
        `/admin/products?edit=${first.id}`,
        productFields("Upload Bench Two", {
          intent: "update",
          id: String(first.id),
          version: String(second.version),
          imgPath: "/images/products/upload-bench.svg",
        }),
      ),
    );
    expect(await exists(second.imgPath)).toBe(false);
  });

  it("an edit that keeps the image keeps its file; an image another product shows is kept", async () => {
    await call(productsPage.action, await post("/admin/products?new=1", productFields("Upload Bench Three", { imageFile: png() })));
    const product = await productByTitle("Upload Bench Three");
    await call(
      productsPage.action,
      await post(
        `/admin/products?edit=${product.id}`,
        productFields("Upload Bench Three", {
          intent: "update",
          id: String(product.id),
          version: String(product.version),
          imgPath: product.imgPath,
          price: "13999",
        }),
      ),
    );
    expect(await exists(product.imgPath)).toBe(true);

    // A second product pointed at the same file: deleting the first leaves it for the second.
    await call(productsPage.action, await post("/admin/products?new=1", productFields("Upload Bench Twin", { imgPath: product.imgPath })));
    await call(productsPage.action, await post(`/admin/products?delete=${product.id}`, { intent: "delete", id: String(product.id) }));
    expect(await exists(product.imgPath)).toBe(true);
    const twin = await productByTitle("Upload Bench Twin");
    await call(productsPage.action, await post(`/admin/products?delete=${twin.id}`, { intent: "delete", id: String(twin.id) }));
    expect(await exists(product.imgPath)).toBe(false);
  });

  it("an edit refused because the product changed since it was opened keeps no uploaded file", async () => {
    const created = await call(
      productsPage.action,
      await post("/admin/products?new=1", productFields("Upload Bench Stale", { imgPath: "/images/products/upload-bench.svg" })),
    );
    expect(created.status).toBe(302);
    const product = await productByTitle("Upload Bench Stale");
    const before = await stored();
    const refused = await call(
      productsPage.action,
      await post(
        `/admin/products?edit=${product.id}`,
        productFields("Upload Bench Stale", {
          intent: "update",
          id: String(product.id),
          version: String(product.version + 1),
          imageFile: png(),
        }),
      ),
    );
    expect(refused.status).toBe(409);
    expect(await stored()).toEqual(before);
    expect(await productByTitle("Upload Bench Stale")).toEqual(product);
  });

  it("a deleted product's file stays while a past order shows it", async () => {
    await call(productsPage.action, await post("/admin/products?new=1", productFields("Upload Bench Ordered", { imageFile: png() })));
    const product = await productByTitle("Upload Bench Ordered");
    const customer = await newCustomer("upload-order");
    await addToCart(customer, product.id, 1);
    expect((await placeViaApi(customer, checkoutFields())).status).toBe(201);

    await call(productsPage.action, await post(`/admin/products?delete=${product.id}`, { intent: "delete", id: String(product.id) }));
    expect(await db.selectFrom("items").select("id").where("id", "=", product.id).executeTakeFirst()).toBeUndefined();
    const line = await db
      .selectFrom("orderItems")
      .select(["imgPath", "itemId"])
      .where("title", "=", "Upload Bench Ordered")
      .executeTakeFirstOrThrow();
    expect(line).toEqual({ imgPath: product.imgPath, itemId: null });
    expect(await exists(product.imgPath)).toBe(true);
  });

  it("a category's uploaded image goes with the category", async () => {
    const fields = { intent: "create", title: "Upload Category", description: "For the upload tests.", imgPath: "", imageFile: png() };
    expect((await call(categoriesPage.action, await post("/admin/categories?new=1", fields))).status).toBe(302);
    const category = await db.selectFrom("categories").selectAll().where("title", "=", "Upload Category").executeTakeFirstOrThrow();
    expect(await exists(category.imgPath)).toBe(true);
    await call(categoriesPage.action, await post(`/admin/categories?delete=${category.id}`, { intent: "delete", id: String(category.id) }));
    expect(await exists(category.imgPath)).toBe(false);
  });

  it("a file that is not an image is refused beside its field and nothing is stored", async () => {
    const before = await stored();
    const html = new File(["<html><script>alert(1)</script></html>"], "photo.png", { type: "image/png" });
    const answer = await call(
      productsPage.action,
      await post("/admin/products?new=1", productFields("Upload Bench Html", { imageFile: html })),
    );
    expect(answer.status).toBe(415);
    expect((answer.body as { fieldErrors: Record<string, string> }).fieldErrors.imageFile).toBe("Please choose a JPEG, PNG or WebP image");
    expect(await stored()).toEqual(before);
    expect(await db.selectFrom("items").select("id").where("title", "=", "Upload Bench Html").executeTakeFirst()).toBeUndefined();
  });
});
