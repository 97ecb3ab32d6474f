// Paging through a large category (ADR 0013), with JavaScript off and on. The shared test
// server holds the demo's six products a category, one page each; this file reads a production
// server of its own (the same build) over a database filled by `npm run db:seed -- --large
// --total 2000`: 400 products a category, 17 pages of 24 (tests/support/e2e/large-shop.ts: one a worker).
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect } from "../support/e2e/fixtures";
import { LARGE_TOTAL, test } from "../support/e2e/large-shop";
import { cardPrices, cardTitles, dropExpectedStatusErrors, isAscending, productCards } from "../support/e2e/helpers";

const TOTAL = LARGE_TOTAL;
const PER_CATEGORY = TOTAL / 5;
const PAGES = Math.ceil(PER_CATEGORY / 24);

let origin = "";

test.beforeEach(({ largeShop }) => {
  origin = largeShop;
});

const pager = (page: Page) => page.getByRole("navigation", { name: "Products pages" });
const showing = (page: Page) => page.getByTestId("showing");

test("page through a category with the numbered links, sort and filters kept across pages", async ({ page }, testInfo) => {
  await page.goto(`${origin}/category/office`);
  await expect(showing(page)).toHaveText(`Showing 1 to 24 of ${PER_CATEGORY} products`);
  const cards = productCards(page);
  await expect(cards).toHaveCount(24);
  const first = await cardTitles(cards);
  await expect(pager(page).getByRole("link", { name: "Page 1", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(pager(page).getByRole("button", { name: "Previous" })).toBeDisabled();
  await page.screenshot({ path: testInfo.outputPath("category-page-1.png") });

  await pager(page).getByRole("link", { name: "Page 2", exact: true }).click();
  await expect(page).toHaveURL(/\/category\/office\?page=2$/);
  await expect(showing(page)).toHaveText(`Showing 25 to 48 of ${PER_CATEGORY} products`);
  await expect(cards).toHaveCount(24);
  expect(await cardTitles(cards)).not.toEqual(first);

  // A new sort starts again at page 1; the pages then keep it.
  await page.getByRole("link", { name: "Price: Low to High" }).click();
  await expect(page).toHaveURL(/\/category\/office\?sort=price-asc$/);
  await expect(showing(page)).toHaveText(`Showing 1 to 24 of ${PER_CATEGORY} products`);
  const firstPrices = await cardPrices(cards);
  expect(isAscending(firstPrices)).toBe(true);
  await pager(page).getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/\/category\/office\?sort=price-asc&page=2$/);
  await expect(showing(page)).toHaveText(`Showing 25 to 48 of ${PER_CATEGORY} products`);
  const secondPrices = await cardPrices(cards);
  expect(isAscending([...firstPrices, ...secondPrices])).toBe(true);
  await expect(page.getByRole("link", { name: "Price: Low to High" })).toHaveAttribute("aria-current", "true");
  await pager(page).scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("category-page-2-sorted-pager.png") });

  await pager(page)
    .getByRole("link", { name: `Page ${PAGES}`, exact: true })
    .click();
  await expect(page).toHaveURL(new RegExp(`sort=price-asc&page=${PAGES}$`));
  const lastCount = PER_CATEGORY - (PAGES - 1) * 24;
  await expect(showing(page)).toHaveText(`Showing ${(PAGES - 1) * 24 + 1} to ${PER_CATEGORY} of ${PER_CATEGORY} products`);
  await expect(cards).toHaveCount(lastCount);
  await expect(pager(page).getByRole("button", { name: "Next" })).toBeDisabled();
  expect(Math.min(...(await cardPrices(cards)))).toBeGreaterThanOrEqual(Math.max(...secondPrices));

  // Filters (a GET form) start at page 1 and are kept by the page links, with the filtered total.
  await page.goto(`${origin}/category/office?sort=price-desc&availability=in-stock`);
  const inStock = Number(/of ([\d,]+) products/.exec((await showing(page).textContent()) ?? "")![1]!.replace(/,/g, ""));
  expect(inStock).toBeLessThan(PER_CATEGORY);
  expect(inStock).toBeGreaterThan(24);
  await pager(page).getByRole("link", { name: "Page 2", exact: true }).click();
  await expect(page).toHaveURL(/\?sort=price-desc&availability=in-stock&page=2$/);
  await expect(showing(page)).toHaveText(`Showing 25 to 48 of ${inStock.toLocaleString("en-IN")} products`);
  await expect(page.getByRole("checkbox", { name: "In Stock" })).toBeChecked();
  await expect(cards.getByText("Out of Stock")).toHaveCount(0);
});

test("a page past the last is a 404 with the way back to the first page", async ({ page, consoleErrors }) => {
  const response = await page.goto(`${origin}/category/office?page=${PAGES + 1}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Page Not Found" })).toBeVisible();
  await page.getByRole("link", { name: "Back to the First Page" }).click();
  await expect(page).toHaveURL(/\/category\/office$/);
  await expect(showing(page)).toHaveText(`Showing 1 to 24 of ${PER_CATEGORY} products`);
  dropExpectedStatusErrors(consoleErrors, 404);
});

test("a middle page of a sorted, filtered category passes axe (WCAG 2 A/AA)", async ({ page, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "axe runs inside the page, so it needs JavaScript");
  await page.goto(`${origin}/category/bedroom?sort=price-desc&availability=in-stock&page=5`);
  await expect(showing(page)).toContainText("Showing 97 to 120 of");
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
});
