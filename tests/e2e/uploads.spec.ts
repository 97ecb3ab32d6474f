// An image uploaded through the admin's product form, with JavaScript off (phone) and on (desktop):
// a file that is not an image is refused beside its field; a PNG is stored (in the image store:
// DATA_DIR/uploads here, on SQLite), the product's list row and storefront page show it, and
// /uploads/… serves it with a year's caching and an ETag that answers 304. The product is deleted
// at the end, and its image with it.
import { adminDialog, expectFieldError, openAdmin, searchList, shot, uniqueTag } from "../support/e2e/admin";
import { toast } from "../support/e2e/accounts";
import { expect, test } from "../support/e2e/fixtures";
import { dropExpectedStatusErrors, noteDeletedUpload } from "../support/e2e/helpers";

// A real 1×1 PNG.
const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=", "base64");

test("an uploaded product image: a non-image refused beside its field, a PNG stored and served with caching and an ETag", async ({
  page,
  consoleErrors,
}, testInfo) => {
  await openAdmin(page, testInfo, "/admin/products", "Products");
  const tag = uniqueTag(testInfo);
  const title = `Upload Test Lamp ${tag}`;
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  const rows = page.getByTestId("product-row");

  await page.getByRole("link", { name: "Add Product" }).click();
  const add = adminDialog(page, "Add Product");
  await add.getByLabel("Title", { exact: true }).fill(title);
  await add.getByLabel("Category", { exact: true }).selectOption({ label: "Outdoor" });
  await add.getByLabel("Price (₹)", { exact: true }).fill("3499");
  await add.getByLabel("Description", { exact: true }).fill("A lantern for the veranda, its photo uploaded by this test.");
  const fileInput = add.getByLabel("Or upload an image", { exact: true });

  // An HTML page named .png: refused by its bytes, beside the file field; nothing is added
  await fileInput.setInputFiles({ name: "lamp.png", mimeType: "image/png", buffer: Buffer.from("<html><script>alert(1)</script></html>") });
  await add.getByRole("button", { name: "Add Product" }).click();
  await expectFieldError(add, "Or upload an image", "Please choose a JPEG, PNG or WebP image");
  await expect(add.getByLabel("Title", { exact: true })).toHaveValue(title);
  dropExpectedStatusErrors(consoleErrors, 415);

  // A real PNG (named .jpg: the bytes decide)
  await add.getByLabel("Or upload an image", { exact: true }).setInputFiles({ name: "lamp.jpg", mimeType: "image/jpeg", buffer: PNG });
  await add.getByRole("button", { name: "Add Product" }).click();
  await expect(toast(page, "Product added")).toBeVisible();
  await expect(add).toHaveCount(0);

  await searchList(page, tag);
  await expect(rows).toHaveCount(1);
  const image = rows.locator("img");
  const src = await image.getAttribute("src");
  expect(src).toMatch(/^\/uploads\/[a-f0-9]{32}\.png$/);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
  await shot(page, testInfo, "uploaded-image-row");

  // The storefront's product page shows the same image
  await page.goto(`/product/${slug}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  const shown = page.locator(`main img[src="${src}"]`).first();
  await expect.poll(() => shown.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);

  // Served as a PNG for a year, with an ETag; asked again with it: 304
  const served = await page.request.get(src!);
  expect(served.status()).toBe(200);
  expect(Buffer.from(await served.body()).equals(PNG)).toBe(true);
  const headers = served.headers();
  expect(headers["content-type"]).toBe("image/png");
  expect(headers["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["etag"]).toMatch(/^"[A-Za-z0-9_-]{43}"$/);
  const again = await page.request.get(src!, { headers: { "If-None-Match": headers["etag"]! } });
  expect(again.status()).toBe(304);
  expect((await page.request.head(src!)).headers()["content-length"]).toBe(String(PNG.byteLength));

  // Deleting the product deletes its image
  await noteDeletedUpload(testInfo, src!);
  await page.goto(`/admin/products?q=${encodeURIComponent(tag)}`);
  await rows.getByRole("link", { name: `Delete ${title}` }).click();
  await adminDialog(page, "Delete product").getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, "Product deleted")).toBeVisible();
  expect((await page.request.get(src!)).status()).toBe(404);
});
