// The visitor's whole path: home → categories → a category (sort, filters) → a product →
// cart (totals by the contract's money rules, quantity change, remove, clear).
import type { Locator, Page } from "@playwright/test";
import { expect, jsEnabled, test } from "../support/e2e/fixtures";
import {
  cardPrices,
  cardTitles,
  expectedTotals,
  isAscending,
  parseRupees,
  postsAnswered,
  productCards,
  rupees,
} from "../support/e2e/helpers";
import type { Line } from "../support/e2e/helpers";

const OUT_OF_STOCK_LIVING_ROOM = "Chesterfield Velvet 2-Seater Sofa";

function sectionWithHeading(page: Page, name: string): Locator {
  return page.locator("section").filter({ has: page.getByRole("heading", { name, exact: true }) });
}

/** The Order Summary, read by its labels, must equal the contract's totals for `lines`. */
async function expectSummary(page: Page, lines: Line[]) {
  const t = expectedTotals(lines);
  const summary = page.getByRole("complementary", { name: "Order Summary" });
  const value = (label: string) => summary.locator(`dt:text-is("${label}") + dd`);
  await expect(page.getByRole("heading", { name: `Cart Items (${t.count})` })).toBeVisible();
  await expect(value("Subtotal")).toHaveText(rupees(t.subtotal));
  await expect(value("Shipping")).toHaveText(t.shipping === 0 ? "Free" : rupees(t.shipping));
  await expect(value("Tax (GST 18%)")).toHaveText(rupees(t.gst));
  await expect(value("Total")).toHaveText(rupees(t.total));
  await expect(page.getByTestId("cart-count")).toHaveText(String(t.count));
}

test("a visitor browses, filters, adds to the cart and empties it", async ({ page }, testInfo) => {
  // One long journey (about 100 steps): give it the slow-test budget rather than splitting it.
  test.slow();
  const js = jsEnabled(testInfo.project.name);

  // Home
  const home = await page.goto("/");
  expect(home?.status()).toBe(200);
  await expect(page.locator('section[aria-roledescription="carousel"] h2')).toHaveText([
    "Premium Living Room Collection",
    "Dining Room Essentials",
    "Bedroom Sanctuary",
  ]);
  const explore = sectionWithHeading(page, "Explore Categories");
  await expect(explore.locator("article")).toHaveCount(3);
  await expect(explore.getByRole("link", { name: "View Collection" })).toHaveCount(3);
  const featured = sectionWithHeading(page, "Featured Products");
  await expect(productCards(featured)).toHaveCount(4);
  await expect(productCards(featured).filter({ hasText: "Featured" })).toHaveCount(4);
  await expect(page.getByRole("heading", { name: "Craftsmanship That Lasts" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Learn About Us" })).toHaveAttribute("href", "/about");
  await expect(page.getByRole("heading", { name: "What Our Customers Say" })).toBeVisible();
  await expect(page.getByRole("img", { name: "5 out of 5 stars" })).toHaveCount(3);
  await expect(page.getByRole("heading", { name: "Stay Updated" })).toBeVisible();
  await expect(page.getByTestId("cart-count")).toHaveCount(0);

  // All categories
  await page.getByRole("link", { name: "View All Categories" }).click();
  await expect(page).toHaveURL(/\/categories$/);
  await expect(page.getByRole("heading", { level: 1, name: "Furniture Categories" })).toBeVisible();
  await expect(page.getByRole("link", { name: "View Collection" })).toHaveCount(5);

  // Living Room, default order
  await page
    .locator("article")
    .filter({ has: page.getByRole("heading", { name: "Living Room", exact: true }) })
    .getByRole("link", { name: "View Collection" })
    .click();
  await expect(page).toHaveURL(/\/category\/living-room$/);
  await expect(page.getByRole("heading", { level: 1, name: "Living Room" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to Categories" })).toHaveAttribute("href", "/categories");
  await expect(productCards(page).filter({ hasText: OUT_OF_STOCK_LIVING_ROOM })).toHaveCount(1);
  const all = await cardPrices(productCards(page));
  expect(all.length).toBeGreaterThanOrEqual(5);

  // Sort: Price: Low to High
  const lowToHigh = page.getByRole("link", { name: "Price: Low to High" });
  await lowToHigh.click();
  await expect(page).toHaveURL(/[?&]sort=price-asc(&|$)/);
  await expect(lowToHigh).toHaveAttribute("aria-current", "true");
  const sorted = await cardPrices(productCards(page));
  expect(sorted).toHaveLength(all.length);
  expect(isAscending(sorted), `prices ascending: ${sorted.join(", ")}`).toBe(true);
  expect([...sorted].sort((a, b) => a - b)).toEqual([...all].sort((a, b) => a - b));

  // Filters: In Stock + 30,000-50,000 (the range that holds the out-of-stock sofa)
  await page.locator("summary").filter({ hasText: "Filters" }).click();
  await page.getByRole("checkbox", { name: "In Stock", exact: true }).check();
  await page.getByRole("checkbox", { name: "30,000-50,000" }).check();
  await page.getByRole("button", { name: "Apply Filters" }).click();
  await expect(page).toHaveURL(/[?&]availability=in-stock(&|$)/);
  await expect(page).toHaveURL(/[?&]price=30000-50000(&|$)/);
  await expect(page).toHaveURL(/[?&]sort=price-asc(&|$)/);
  await expect(productCards(page).filter({ hasText: OUT_OF_STOCK_LIVING_ROOM })).toHaveCount(0);
  await expect(page.getByRole("checkbox", { name: "In Stock", exact: true })).toBeChecked();
  await expect(lowToHigh).toHaveAttribute("aria-current", "true");
  const filtered = await cardPrices(productCards(page));
  expect(filtered.length).toBeGreaterThan(0);
  for (const price of filtered) {
    expect(price).toBeGreaterThanOrEqual(30_000);
    expect(price).toBeLessThanOrEqual(50_000);
  }
  expect(isAscending(filtered), `prices ascending: ${filtered.join(", ")}`).toBe(true);
  await expect(productCards(page).filter({ hasText: "Out of Stock" })).toHaveCount(0);

  // Product page
  const [titleA] = await cardTitles(productCards(page));
  const priceA = filtered[0];
  await productCards(page).first().getByRole("heading", { name: titleA }).click();
  await expect(page).toHaveURL(/\/product\/[a-z0-9-]+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(titleA);
  expect(parseRupees(await page.locator("h1 + p").innerText())).toBe(priceA);
  const crumbs = page.getByRole("navigation", { name: "Breadcrumb" });
  await expect(crumbs.getByRole("listitem")).toHaveText(["Home /", "Categories /", "Living Room /", titleA]);
  await expect(crumbs.getByRole("link", { name: "Home" })).toHaveAttribute("href", "/");
  await expect(crumbs.getByRole("link", { name: "Categories" })).toHaveAttribute("href", "/categories");
  await expect(crumbs.getByRole("link", { name: "Living Room" })).toHaveAttribute("href", "/category/living-room");
  await expect(page.getByTestId("stock")).toHaveText("In Stock");

  // Tabs
  const panel = page.getByRole("tabpanel");
  await expect(page.getByRole("tab", { name: "Description" })).toHaveAttribute("aria-selected", "true");
  await expect(panel.getByRole("table")).toHaveCount(0);
  await page.getByRole("tab", { name: "Specifications" }).click();
  await expect(page.getByRole("tab", { name: "Specifications" })).toHaveAttribute("aria-selected", "true");
  await expect(panel.getByRole("table")).toBeVisible();
  for (const key of ["Material", "Dimensions", "Color"]) {
    await expect(panel.getByRole("rowheader", { name: key, exact: true })).toBeVisible();
  }
  await page.getByRole("tab", { name: "Description" }).click();
  await expect(page.getByRole("tab", { name: "Description" })).toHaveAttribute("aria-selected", "true");
  await expect(panel.getByRole("table")).toHaveCount(0);
  await expect(panel.locator("p")).not.toBeEmpty();

  // Quantity 2, Add to Cart
  const quantity = page.getByRole("spinbutton", { name: "Quantity", exact: true });
  await expect(quantity).toHaveValue("1");
  if (js) {
    await page.getByRole("button", { name: "Increase quantity" }).click();
  } else {
    await expect(page.getByRole("button", { name: "Increase quantity" })).toHaveCount(0);
    await quantity.fill("2");
  }
  await expect(quantity).toHaveValue("2");
  await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
  await expect(page.getByTestId("cart-count")).toHaveText("2");
  await expect(page.getByRole("status").filter({ hasText: `${titleA} added to cart` })).toBeVisible();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(titleA);

  // Another product from a card button (Related Products): the cheapest one in stock
  const related = sectionWithHeading(page, "Related Products");
  const inStockCards = productCards(related).filter({ hasNotText: "Out of Stock" });
  const relatedTitles = await cardTitles(inStockCards);
  const relatedPrices = await cardPrices(inStockCards);
  expect(relatedTitles.length).toBeGreaterThan(0);
  expect(relatedTitles).not.toContain(titleA);
  const cheapest = relatedPrices.indexOf(Math.min(...relatedPrices));
  const titleB = relatedTitles[cheapest];
  const priceB = relatedPrices[cheapest];
  await related.getByRole("button", { name: `Add ${titleB} to cart` }).click();
  await expect(page.getByTestId("cart-count")).toHaveText("3");
  await expect(page.getByRole("status").filter({ hasText: `${titleB} added to cart` })).toBeVisible();
  // The card button adds without following the card link.
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(titleA);

  // Cart
  await page.getByRole("link", { name: "Cart, 3 items" }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByRole("heading", { level: 1, name: "Your Shopping Cart" })).toBeVisible();
  const lines = page.getByTestId("cart-line");
  await expect(lines).toHaveCount(2);
  const lineA = lines.filter({ hasText: titleA });
  const lineB = lines.filter({ hasText: titleB });
  const unitPrice = async (line: Locator) => parseRupees((await line.getByText(/ each$/).innerText()).replace(/ each$/, ""));
  expect(await unitPrice(lineA)).toBe(priceA);
  expect(await unitPrice(lineB)).toBe(priceB);
  // the title (and the image) link to the product
  await expect(lineA.getByText(titleA, { exact: true })).toHaveAttribute("href", /^\/product\/[a-z0-9-]+$/);
  await expect(lineA.getByRole("spinbutton")).toHaveValue("2");
  await expect(lineB.getByRole("spinbutton")).toHaveValue("1");
  await expect(lineA.getByTestId("line-total")).toHaveText(rupees(priceA * 2));
  await expect(lineB.getByTestId("line-total")).toHaveText(rupees(priceB));
  await expectSummary(page, [
    { price: priceA, quantity: 2 },
    { price: priceB, quantity: 1 },
  ]);
  await expect(page.getByText("Free shipping on orders over ₹25,000")).toBeVisible();
  await expect(page.getByText("Have a coupon? You'll be able to apply it at checkout.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Proceed to Checkout" })).toHaveAttribute("href", "/checkout");
  await expect(page.getByRole("link", { name: "Continue Shopping" })).toHaveAttribute("href", "/categories");

  // Change a quantity: line A from 2 to 1
  if (js) {
    await lineA.getByRole("button", { name: "Decrease quantity" }).click();
  } else {
    await lineA.getByRole("spinbutton").fill("1");
    await lineA.getByRole("button", { name: "Update" }).click();
  }
  await expect(lineA.getByRole("spinbutton")).toHaveValue("1");
  await expect(lineA.getByTestId("line-total")).toHaveText(rupees(priceA));
  await expectSummary(page, [
    { price: priceA, quantity: 1 },
    { price: priceB, quantity: 1 },
  ]);
  if (js) {
    // and back up with the plus button
    await lineB.getByRole("button", { name: "Increase quantity" }).click();
    await expect(lineB.getByTestId("line-total")).toHaveText(rupees(priceB * 2));
    await expectSummary(page, [
      { price: priceA, quantity: 1 },
      { price: priceB, quantity: 2 },
    ]);
    await lineB.getByRole("button", { name: "Decrease quantity" }).click();
    await expectSummary(page, [
      { price: priceA, quantity: 1 },
      { price: priceB, quantity: 1 },
    ]);
  }

  // Remove line A (with JavaScript the line goes before the server answers: the reload waits for it)
  const removed = js ? postsAnswered(page, /./, 1) : Promise.resolve();
  await lineA.getByRole("button", { name: `Remove ${titleA} from cart` }).click();
  await expect(lines).toHaveCount(1);
  await expect(lineA).toHaveCount(0);
  await expectSummary(page, [{ price: priceB, quantity: 1 }]);

  // The state is the server's, not only the page's
  await removed;
  await page.reload();
  await expect(lines).toHaveCount(1);
  await expectSummary(page, [{ price: priceB, quantity: 1 }]);

  // Clear Cart
  const cleared = js ? postsAnswered(page, /./, 1) : Promise.resolve();
  await page.getByRole("button", { name: "Clear Cart" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Your Cart is Empty" })).toBeVisible();
  await expect(page.getByText("Looks like you haven't added any items to your cart yet.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Browse Categories" })).toHaveAttribute("href", "/categories");
  await expect(page.getByTestId("cart-count")).toHaveCount(0);
  await cleared;
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "Your Cart is Empty" })).toBeVisible();
});

test("sorting high to low, then Default restores the original order", async ({ page }) => {
  await page.goto("/category/bedroom");
  const cards = productCards(page);
  const original = await cardTitles(cards);
  expect(original.length).toBeGreaterThanOrEqual(5);
  // Fewer than 24 products: one page, no page links (tests/e2e/category-pages.spec.ts pages a large one).
  await expect(page.getByTestId("showing")).toHaveText(`Showing 1 to ${original.length} of ${original.length} products`);
  await expect(page.getByRole("navigation", { name: "Products pages" })).toHaveCount(0);

  const highToLow = page.getByRole("link", { name: "Price: High to Low" });
  await highToLow.click();
  await expect(page).toHaveURL(/[?&]sort=price-desc(&|$)/);
  await expect(highToLow).toHaveAttribute("aria-current", "true");
  // Without JavaScript the new page may still be streaming in: wait for every card.
  await expect(cards).toHaveCount(original.length);
  const prices = await cardPrices(cards);
  expect(isAscending([...prices].reverse()), `prices descending: ${prices.join(", ")}`).toBe(true);

  const byDefault = page.getByRole("link", { name: "Default", exact: true });
  await byDefault.click();
  await expect(byDefault).toHaveAttribute("aria-current", "true");
  await expect(page).not.toHaveURL(/sort=/);
  await expect.poll(() => cardTitles(cards)).toEqual(original);
});
