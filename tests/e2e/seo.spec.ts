// What a crawler reads of the rendered pages (ADR 0015): the JSON-LD parses as printed,
// names the price, and sits beside one canonical link and the Open Graph tags; no CSP complaint.
import { expect, test } from "../support/e2e/fixtures";

test("a product page prints a Product with its price, a BreadcrumbList, a canonical link and Open Graph tags", async ({ page }) => {
  await page.goto("/product/sheesham-wood-3-seater-sofa");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  const objects = blocks.map((text) => JSON.parse(text) as Record<string, unknown>);
  const product = objects.find((o) => o["@type"] === "Product") as { name: string; offers: { price: string; priceCurrency: string } };
  expect(product.offers.priceCurrency).toBe("INR");
  expect(Number(product.offers.price)).toBeGreaterThan(0);
  // The price the page shows is the one the JSON-LD names (₹ with Indian grouping).
  const shown = Number(product.offers.price).toLocaleString("en-IN");
  await expect(page.getByText(`₹${shown}`).first()).toBeVisible();
  expect(objects.some((o) => o["@type"] === "BreadcrumbList")).toBe(true);
  const canonical = page.locator('link[rel="canonical"]');
  await expect(canonical).toHaveCount(1);
  expect(new URL((await canonical.getAttribute("href"))!).pathname).toBe("/product/sheesham-wood-3-seater-sofa");
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute("content", `${product.name} | Sagwan Living`);
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", /^http/);
});

test("a category page's canonical link names the category, whatever sort and filters the visitor chose", async ({ page }) => {
  await page.goto("/category/living-room?sort=price-asc&availability=in-stock");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(new URL((await page.locator('link[rel="canonical"]').getAttribute("href"))!).pathname).toBe("/category/living-room");
  expect(new URL((await page.locator('link[rel="canonical"]').getAttribute("href"))!).search).toBe("");
});

test("pages are never kept by a shared cache (each carries its own CSP nonce); the catalogue API is, with an ETag", async ({
  playwright,
  baseURL,
}) => {
  const client = await playwright.request.newContext({ baseURL });
  try {
    const first = await client.get("/category/living-room");
    expect(first.headers()["cache-control"]).toBe("private, no-cache");
    const nonce = (r: string) => /nonce-([A-Za-z0-9+/=]+)/.exec(r)?.[1];
    const again = await client.get("/category/living-room");
    expect(nonce(first.headers()["content-security-policy"]!)).not.toBe(nonce(again.headers()["content-security-policy"]!));
    const api = await client.get("/api/category/items?slug=living-room");
    expect(api.headers()["cache-control"]).toMatch(/^public, .*stale-while-revalidate=\d+/);
    const etag = api.headers()["etag"]!;
    const notModified = await client.get("/api/category/items?slug=living-room", { headers: { "If-None-Match": etag } });
    expect(notModified.status()).toBe(304);
  } finally {
    await client.dispose();
  }
});
