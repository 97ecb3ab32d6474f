// Unknown category, product and page: friendly 404s inside the shop layout; the paths above a
// product's and a category's page: the catalogue; and an empty filter result.
import { expect, test } from "../support/e2e/fixtures";
import { dropExpectedStatusErrors } from "../support/e2e/helpers";

// These pages answer 404 on purpose; Chromium logs that status as a console error.
test.afterEach(({ consoleErrors }) => dropExpectedStatusErrors(consoleErrors, 404));

test("unknown category", async ({ page }) => {
  const response = await page.goto("/category/nope");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Category Not Found" })).toBeVisible();
  await expect(page.getByText("The category you're looking for doesn't exist.")).toBeVisible();
  const link = page.getByRole("link", { name: "View All Categories" });
  await expect(link).toHaveAttribute("href", "/categories");
  await expect(page.getByRole("banner")).toBeVisible();
  await link.click();
  await expect(page.getByRole("heading", { level: 1, name: "Furniture Categories" })).toBeVisible();
});

test("unknown product", async ({ page }) => {
  const response = await page.goto("/product/nope");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Product Not Found" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Browse Categories" })).toHaveAttribute("href", "/categories");
  await expect(page.getByRole("contentinfo")).toBeVisible();
});

test("the paths above a product's and a category's page lead to the catalogue", async ({ page }) => {
  for (const path of ["/product", "/category", "/product/", "/category/"]) {
    const response = await page.request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(301);
    expect(response.headers()["location"], path).toBe("/categories");
  }
});

test("unknown page is a 404 inside the layout", async ({ page }) => {
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Page Not Found" })).toBeVisible();
  await expect(page.getByText("We couldn't find the page you're looking for.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to Home" })).toHaveAttribute("href", "/");
  // the shared layout: header with the logo and the cart, footer with the copyright
  await expect(page.getByRole("banner").getByRole("link", { name: "Sagwan Living home" })).toBeVisible();
  await expect(page.getByRole("banner").getByRole("link", { name: /^Cart, / })).toBeVisible();
  await expect(page.getByRole("contentinfo")).toContainText("Sagwan Living. All rights reserved.");
  await expect(page.getByText(/stack|Error:/)).toHaveCount(0);
});

test("office filters with no match show the empty state", async ({ page }) => {
  await page.goto("/category/office");
  await expect(page.getByRole("heading", { level: 1, name: "Office" })).toBeVisible();
  await page.locator("summary").filter({ hasText: "Filters" }).click();
  await page.getByRole("checkbox", { name: "Out of Stock", exact: true }).check();
  await page.getByRole("checkbox", { name: "Featured Items" }).check();
  await page.getByRole("button", { name: "Apply Filters" }).click();
  await expect(page).toHaveURL(/[?&]availability=out-of-stock(&|$)/);
  await expect(page).toHaveURL(/[?&]featured=1(&|$)/);
  await expect(page.getByText("No products found in this category.")).toBeVisible();
  await expect(page.getByTestId("product-card")).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Browse Other Categories" })).toHaveAttribute("href", "/categories");
  // the filters stay open and ticked so the visitor can change them
  await expect(page.getByRole("checkbox", { name: "Out of Stock", exact: true })).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "Featured Items" })).toBeChecked();
});
