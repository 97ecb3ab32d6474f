// Uploaded product and category images through the admin forms: stored only for a form that
// validates, replaced and deleted files removed once nothing shows them, and kept while a
// past order's line still does.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { grantAdmin } from "~/web/admin.server";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { uploadsDir } from "~/lib/uploads.server";
import * as categoriesPage from "~/routes/admin.categories";
import * as productsPage from "~/routes/admin.products";
import { getRequest, mergeCookies, multipartRequest } from "../support/requests";
import { call } from "./helpers";
import { addToCart, checkoutFields, newCustomer, placeViaApi } from "./order-helpers";

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

const stored = () => (fs.existsSync(uploadsDir()) ? fs.readdirSync(uploadsDir()).sort() : []);
const fileOf = (publicPath: string) => path.join(uploadsDir(), publicPath.slice("/uploads/".length));

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
    const before = stored();
    const refused = await call(productsPage.action, await post("/admin/products?new=1", productFields("", { imageFile: png() })));
    expect(refused.status).toBe(400);
    expect(stored()).toEqual(before);

    const saved = await call(
      productsPage.action,
      await post("/admin/products?new=1", productFields("Upload Bench One", { imageFile: png() })),
    );
    expect(saved.status).toBe(302);
    const product = await productByTitle("Upload Bench One");
    expect(product.imgPath).toMatch(/^\/uploads\/[a-f0-9]{32}\.png$/);
    expect(fs.readFileSync(fileOf(product.imgPath))).toEqual(PNG);
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
    expect(fs.existsSync(fileOf(first.imgPath))).toBe(false);
    expect(fs.existsSync(fileOf(second.imgPath))).toBe(true);

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
    expect(fs.existsSync(fileOf(second.imgPath))).toBe(false);
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
    expect(fs.existsSync(fileOf(product.imgPath))).toBe(true);

    // A second product pointed at the same file: deleting the first leaves it for the second.
    await call(productsPage.action, await post("/admin/products?new=1", productFields("Upload Bench Twin", { imgPath: product.imgPath })));
    await call(productsPage.action, await post(`/admin/products?delete=${product.id}`, { intent: "delete", id: String(product.id) }));
    expect(fs.existsSync(fileOf(product.imgPath))).toBe(true);
    const twin = await productByTitle("Upload Bench Twin");
    await call(productsPage.action, await post(`/admin/products?delete=${twin.id}`, { intent: "delete", id: String(twin.id) }));
    expect(fs.existsSync(fileOf(product.imgPath))).toBe(false);
  });

  it("an edit refused because the product changed since it was opened keeps no uploaded file", async () => {
    const created = await call(
      productsPage.action,
      await post("/admin/products?new=1", productFields("Upload Bench Stale", { imgPath: "/images/products/upload-bench.svg" })),
    );
    expect(created.status).toBe(302);
    const product = await productByTitle("Upload Bench Stale");
    const before = stored();
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
    expect(stored()).toEqual(before);
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
    expect(fs.existsSync(fileOf(product.imgPath))).toBe(true);
  });

  it("a category's uploaded image goes with the category", async () => {
    const fields = { intent: "create", title: "Upload Category", description: "For the upload tests.", imgPath: "", imageFile: png() };
    expect((await call(categoriesPage.action, await post("/admin/categories?new=1", fields))).status).toBe(302);
    const category = await db.selectFrom("categories").selectAll().where("title", "=", "Upload Category").executeTakeFirstOrThrow();
    expect(fs.existsSync(fileOf(category.imgPath))).toBe(true);
    await call(categoriesPage.action, await post(`/admin/categories?delete=${category.id}`, { intent: "delete", id: String(category.id) }));
    expect(fs.existsSync(fileOf(category.imgPath))).toBe(false);
  });

  it("a file that is not an image is refused beside its field and nothing is stored", async () => {
    const before = stored();
    const html = new File(["<html><script>alert(1)</script></html>"], "photo.png", { type: "image/png" });
    const answer = await call(
      productsPage.action,
      await post("/admin/products?new=1", productFields("Upload Bench Html", { imageFile: html })),
    );
    expect(answer.status).toBe(415);
    expect((answer.body as { fieldErrors: Record<string, string> }).fieldErrors.imageFile).toBe("Please choose a JPEG, PNG or WebP image");
    expect(stored()).toEqual(before);
    expect(await db.selectFrom("items").select("id").where("title", "=", "Upload Bench Html").executeTakeFirst()).toBeUndefined();
  });
});
