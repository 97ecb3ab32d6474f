// Search (ADR 0014), with JavaScript off (phone) and on (desktop): from the header's
// search form to the results, through their pages and sorts, to a product; the suggestions
// with JavaScript; the empty states; axe on a results page. Like category-pages.spec.ts, this
// file reads a production server of its own (the same build) over `npm run db:seed -- --large
// --total 2000`, so a search has many pages (tests/support/e2e/large-shop.ts: one a worker).
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect } from "../support/e2e/fixtures";
import { test } from "../support/e2e/large-shop";
import { cardPrices, cardTitles, dropExpectedStatusErrors, isAscending, productCards } from "../support/e2e/helpers";

let origin = "";

test.beforeEach(({ largeShop }) => {
  origin = largeShop;
});

const showing = (page: Page) => page.getByTestId("showing");
const pager = (page: Page) => page.getByRole("navigation", { name: "Results pages" });
const totalOf = (text: string | null) => Number(/of ([\d,]+) products/.exec(text ?? "")![1]!.replace(/,/g, ""));

/** The header's search field: on a phone behind the search icon (a details element), on a desktop in the header itself. */
async function headerSearch(page: Page) {
  const header = page.getByRole("banner");
  const opener = header.getByLabel("Open search", { exact: true });
  if (await opener.isVisible()) await opener.click();
  const field = header.getByRole("search").filter({ visible: true }).getByLabel("Search products");
  await expect(field).toBeVisible();
  return field;
}

test("search from the header, page through the results, sort them, open one", async ({ page }, testInfo) => {
  await page.goto(`${origin}/`);
  const field = await headerSearch(page);
  await expect(field).toHaveAttribute("placeholder", "Search sofas, beds, teak…");
  await page.screenshot({ path: testInfo.outputPath("header-search.png") });
  await field.fill("teak bed");
  await field.press("Enter");
  await expect(page).toHaveURL(/\/search\?q=teak\+bed$/);
  await expect(page).toHaveTitle("Search results for “teak bed” | Sagwan Living");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Results for “teak bed”");
  await expect(showing(page)).toHaveText(/^Showing 1 to 24 of [\d,]+ products$/);
  const total = totalOf(await showing(page).textContent());
  expect(total).toBeGreaterThan(48);
  const cards = productCards(page);
  await expect(cards).toHaveCount(24);
  for (const title of await cardTitles(cards)) expect(title.toLowerCase()).toMatch(/bed/);
  // The results page keeps the search in its own box.
  await expect(page.getByRole("main").getByRole("searchbox", { name: "Search" })).toHaveValue("teak bed");
  await page.screenshot({ path: testInfo.outputPath("search-results.png"), fullPage: false });

  const first = await cardTitles(cards);
  await pager(page).getByRole("link", { name: "Page 2", exact: true }).click();
  await expect(page).toHaveURL(/\/search\?q=teak\+bed&page=2$/);
  await expect(showing(page)).toHaveText(`Showing 25 to 48 of ${total.toLocaleString("en-IN")} products`);
  expect(await cardTitles(cards)).not.toEqual(first);

  // A sort starts again at page 1 and keeps the search; the pages keep both.
  await page.getByRole("link", { name: "Price: Low to High" }).click();
  await expect(page).toHaveURL(/\/search\?q=teak\+bed&sort=price-asc$/);
  const firstPrices = await cardPrices(cards);
  expect(isAscending(firstPrices)).toBe(true);
  await pager(page).getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/\/search\?q=teak\+bed&sort=price-asc&page=2$/);
  await expect(showing(page)).toHaveText(`Showing 25 to 48 of ${total.toLocaleString("en-IN")} products`);
  expect(isAscending([...firstPrices, ...(await cardPrices(cards))])).toBe(true);

  // A filter (the GET form) keeps the search and the sort.
  await page.getByText("Filters", { exact: true }).click();
  await page.getByRole("checkbox", { name: "In Stock" }).check();
  await page.getByRole("button", { name: "Apply Filters" }).click();
  await expect(page).toHaveURL(/\/search\?q=teak\+bed&sort=price-asc&availability=in-stock$/);
  expect(totalOf(await showing(page).textContent())).toBeLessThanOrEqual(total);
  await expect(cards.getByText("Out of Stock")).toHaveCount(0);

  // Open a result.
  const title = (await cardTitles(cards))[0]!;
  await cards.first().getByRole("link").first().click();
  await expect(page).toHaveURL(/\/product\//);
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
});

test("an empty search, a search for nothing, and no hits each say so", async ({ page }) => {
  await page.goto(`${origin}/search`);
  await expect(page.getByRole("heading", { name: "What are you looking for?" })).toBeVisible();
  await page.goto(`${origin}/search?q=${encodeURIComponent("* ( ) -")}`);
  await expect(page.getByRole("heading", { name: "Type a little more" })).toBeVisible();
  await page.goto(`${origin}/search?q=xylophone`);
  await expect(page.getByRole("heading", { name: "No products match “xylophone”" })).toBeVisible();
  await expect(showing(page)).toHaveText("0 products");
  await page.getByRole("link", { name: "Browse Categories" }).click();
  await expect(page).toHaveURL(/\/categories$/);
});

test("a page past the last is a 404 with the way back to the first page", async ({ page, consoleErrors }) => {
  const response = await page.goto(`${origin}/search?q=teak&page=999`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Page Not Found" })).toBeVisible();
  await page.getByRole("link", { name: "Back to the First Page" }).click();
  await expect(page).toHaveURL(/\/search\?q=teak$/);
  await expect(showing(page)).toHaveText(/^Showing 1 to 24 of/);
  dropExpectedStatusErrors(consoleErrors, 404);
});

test("suggestions appear as the shopper types, and the keyboard opens one", async ({ page, javaScriptEnabled }, testInfo) => {
  test.skip(!javaScriptEnabled, "suggestions need JavaScript; without it the header's form submits to /search (the first test)");
  await page.goto(`${origin}/category/office`);
  const field = await headerSearch(page);
  await field.pressSequentially("king shee", { delay: 30 });
  const list = page.getByRole("listbox", { name: "Suggestions" });
  await expect(list).toBeVisible();
  const options = list.getByRole("option");
  await expect(options.first()).toContainText(/King Size Bed/i);
  const count = await options.count();
  expect(count).toBeGreaterThan(1);
  expect(count).toBeLessThanOrEqual(7);
  await expect(options.last()).toHaveText(/^See all [\d,]+ results$/);
  await expect(field).toHaveAttribute("aria-expanded", "true");
  await page.screenshot({ path: testInfo.outputPath("suggestions.png") });

  await field.press("ArrowDown");
  await expect(options.first()).toHaveAttribute("aria-selected", "true");
  await expect(field).toHaveAttribute("aria-activedescendant", (await options.first().getAttribute("id"))!);
  const chosen = (await options.first().textContent())!;
  await field.press("Enter");
  await expect(page).toHaveURL(/\/product\/[a-z0-9-]*king-size-bed/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("King Size Bed");
  expect(chosen).toContain((await page.getByRole("heading", { level: 1 }).textContent())!);

  // Escape closes the list; 'See all' opens the results page.
  const again = await headerSearch(page);
  await again.fill("recliner");
  await expect(list).toBeVisible();
  await again.press("Escape");
  await expect(list).toBeHidden();
  await again.press("ArrowUp");
  await expect(list).toBeVisible();
  await list.getByRole("option", { name: /See all/ }).click();
  await expect(page).toHaveURL(/\/search\?q=recliner$/);
  await expect(showing(page)).toHaveText(/^Showing 1 to 24 of/);

  // A word no product has: the box says so instead of listing anything.
  const third = await headerSearch(page);
  await third.fill("xylophone");
  await expect(page.getByRole("status").filter({ hasText: "No products match “xylophone”." })).toBeVisible();
});

test("a results page passes axe (WCAG 2 A/AA)", async ({ page, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "axe runs inside the page, so it needs JavaScript");
  await page.goto(`${origin}/search?q=sheesham&sort=price-desc&page=2`);
  await expect(showing(page)).toContainText("Showing 25 to 48 of");
  const field = await headerSearch(page);
  await field.fill("teak");
  await expect(page.getByRole("listbox", { name: "Suggestions" })).toBeVisible();
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
});

test("a slow search shows 'Searching...' and a skeleton, then the results", async ({ page, javaScriptEnabled }) => {
  test.skip(!javaScriptEnabled, "pending UI exists only with JavaScript");
  await page.goto(`${origin}/about`);
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/search\.data/, async (route) => {
    await released;
    await route.continue();
  });
  const field = await headerSearch(page);
  await field.fill("sheesham");
  await field.press("Enter");
  await expect(page.getByRole("status").filter({ hasText: "Searching..." })).toBeVisible();
  await expect(page.getByTestId("product-skeleton")).toBeVisible();
  release();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Results for “sheesham”");
  await expect(page.getByText("Searching...")).toHaveCount(0);
});
