// Out-of-stock products: the product page and the category card refuse to add them,
// and so does the server when asked directly.
import { request } from "@playwright/test";
import { baseURL, categoryId, loginAsAdmin, postAdminForm, productId, uniqueTag } from "../support/e2e/admin";
import { newAccount, postHeaders, registerThroughApi } from "../support/e2e/customers";
import { expect, jsEnabled, test } from "../support/e2e/fixtures";
import { postsAnswered, productCards } from "../support/e2e/helpers";

const OUT_OF_STOCK = [
  { slug: "chesterfield-velvet-2-seater-sofa", title: "Chesterfield Velvet 2-Seater Sofa", category: "living-room" },
  { slug: "sheesham-study-desk-with-drawers", title: "Sheesham Study Desk with Drawers", category: "office" },
];

for (const product of OUT_OF_STOCK) {
  test(`out of stock: ${product.slug}`, async ({ page }) => {
    const response = await page.goto(`/product/${product.slug}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(product.title);
    await expect(page.getByTestId("stock")).toHaveText("Out of Stock");
    const add = page.getByRole("button", { name: "Out of Stock", exact: true });
    await expect(add).toBeVisible();
    await expect(add).toBeDisabled();
    await expect(page.getByRole("button", { name: "Add to Cart", exact: true })).toHaveCount(0);
    await expect(page.getByRole("spinbutton", { name: "Quantity", exact: true })).toBeDisabled();

    // Related Products come from the living room, never the product itself (spec, Product detail)
    const livingRoom = await page.request.get("/api/category/items?slug=living-room");
    const livingRoomTitles = ((await livingRoom.json()) as { items: { title: string }[] }).items.map((i) => i.title);
    const related = page.locator("section").filter({ has: page.getByRole("heading", { name: "Related Products" }) });
    const relatedTitles = await related.getByTestId("product-card").getByRole("heading", { level: 3 }).allTextContents();
    expect(relatedTitles.length).toBeGreaterThan(0);
    for (const title of relatedTitles) expect(livingRoomTitles).toContain(title.trim());
    expect(relatedTitles.map((t) => t.trim())).not.toContain(product.title);

    // Its card in the category grid
    await page.goto(`/category/${product.category}`);
    const card = productCards(page).filter({ has: page.getByRole("heading", { name: product.title, exact: true }) });
    await expect(card).toHaveCount(1);
    await expect(card.getByText("Out of Stock", { exact: true })).toBeVisible();
    await expect(card.getByRole("button", { name: `Add ${product.title} to cart` })).toBeDisabled();
    // In-stock cards next to it stay enabled.
    const inStock = productCards(page).filter({ hasNotText: "Out of Stock" }).first();
    await expect(inStock.getByRole("button", { name: /^Add .+ to cart$/ })).toBeEnabled();

    // The server refuses it too (contract: out-of-stock items cannot be added, 409).
    const detail = await page.request.get(`/api/item/detailBySlug?slug=${product.slug}`);
    expect(detail.status()).toBe(200);
    const item = (await detail.json()) as { id: number; inStock: boolean; stock: number };
    expect(item.inStock).toBe(false);
    expect(item.stock).toBe(0);
    const add409 = await page.request.post("/api/cart/add", { data: { itemId: item.id, quantity: 1 } });
    expect(add409.status()).toBe(409);
    const cart = await page.request.get("/api/cart/get");
    expect((await cart.json()).count).toBe(0);
    await page.reload();
    await expect(page.getByTestId("cart-count")).toHaveCount(0);
  });
}

// Stock held while a customer pays (ADR 0023): another customer's payment order holds 2 of a new
// product's 3 units, so this visitor's product page and cart say 'Only 1 left', and the server
// refuses a second unit.
test("units held by a customer who is paying: 'Only 1 left' on the product page and in the cart", async ({ page }, testInfo) => {
  const tag = uniqueTag(testInfo);
  await loginAsAdmin(page, testInfo);
  const title = `Held Stool ${tag}`;
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  await postAdminForm(page, testInfo, "/admin/products", {
    intent: "create",
    title,
    categoryId: String(await categoryId(page, "outdoor")),
    price: "3500",
    imgPath: "/images/products/wrought-iron-bistro-set.svg",
    description: "A stool another customer is paying for.",
    inStock: "on",
    stock: "3",
  });
  const itemId = await productId(page, slug);

  const api = await request.newContext({ baseURL: baseURL(testInfo) });
  try {
    const token = await registerThroughApi(api, newAccount(testInfo, { tag: "holder" }), testInfo);
    const auth = { Authorization: `Bearer ${token}` };
    expect((await api.post("/api/cart/add", { data: { itemId, quantity: 2 }, headers: auth })).status()).toBe(200);
    const created = await api.post("/rzp/create-order", { data: {}, headers: auth });
    expect(created.status()).toBe(200);
    expect(Date.parse(((await created.json()) as { reservedUntil: string }).reservedUntil)).toBeGreaterThan(Date.now());
  } finally {
    await api.dispose();
  }

  await page.goto(`/product/${slug}`);
  await expect(page.getByTestId("stock")).toHaveText("In Stock");
  await expect(page.getByTestId("stock-left")).toHaveText("Only 1 left");
  // The badge rises before the server answers (JavaScript on): the cart page waits for the answer,
  // as on several servers (npm run test:cluster) another could read the cart before it is written.
  const added = jsEnabled(testInfo.project.name) ? postsAnswered(page, /./, 1) : Promise.resolve();
  await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
  await expect(page.getByTestId("cart-count")).toHaveText("1");
  await added;

  await page.goto("/cart");
  const line = page.getByTestId("cart-line").filter({ hasText: title });
  await expect(line.getByTestId("stock-left")).toHaveText("Only 1 left");
  // The held units are nobody else's: a second one is refused (contract: 409).
  const more = await page.request.post("/api/cart/add", { data: { itemId, quantity: 1 }, headers: postHeaders(testInfo) });
  expect(more.status()).toBe(409);
  expect(((await more.json()) as { message: string }).message).toBe(`Only 1 of ${title} left in stock`);
});
