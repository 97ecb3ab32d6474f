// Automated accessibility check (axe, WCAG 2 A/AA) of every visitor page.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { newAccount, signUp } from "./accounts-helpers";
import { expect, test } from "./fixtures";

const PAGES = [
  "/",
  "/categories",
  "/category/living-room?sort=price-asc",
  "/product/sheesham-wood-3-seater-sofa",
  "/product/sheesham-wood-3-seater-sofa?tab=specifications",
  "/cart",
  "/wishlist",
  "/about",
  "/contact",
  "/privacy-policy",
  "/t&c",
  "/shipping-policy",
  "/login",
  "/signup",
  "/forgot-password",
  "/verify-otp?email=someone%40example.com",
];

/** Pages a signed-in customer sees (in their edit and change-password states too). */
const ACCOUNT_PAGES = ["/profile", "/profile?edit=1", "/profile?password=1"];

async function expectNoViolations(page: Page, path: string) {
  await page.goto(path);
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(summary, `axe violations on ${path}`).toEqual([]);
}

test.describe("accessibility", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "axe runs inside the page, so it needs JavaScript");

  test("visitor pages have no WCAG 2 A/AA violations", async ({ page }) => {
    test.slow();
    // A cart with a line, so the cart page shows its full layout.
    await page.goto("/product/sheesham-wood-3-seater-sofa");
    await page.getByRole("button", { name: "Add to Cart" }).click();
    await expect(page.getByTestId("cart-count")).toHaveText("1");

    for (const path of PAGES) await expectNoViolations(page, path);
  });

  test("account pages have no WCAG 2 A/AA violations", async ({ page }, testInfo) => {
    test.slow();
    await signUp(page, newAccount(testInfo, { tag: "a11y" }));
    for (const path of ACCOUNT_PAGES) await expectNoViolations(page, path);
  });
});
