// Automated accessibility check (axe, WCAG 2 A/AA) of every visitor page.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import {
  addToCart,
  fillShipping,
  gujaratAddress,
  newCustomer,
  ONLINE,
  openCheckout,
  placeCodOrder,
  placeOrderButton,
  PRODUCTS,
} from "../support/e2e/orders";
import { expect, test } from "../support/e2e/fixtures";
import { dropExpectedStatusErrors } from "../support/e2e/helpers";

const PAGES = [
  "/",
  "/categories",
  "/category/living-room?sort=price-asc",
  "/product/sheesham-wood-3-seater-sofa",
  "/product/sheesham-wood-3-seater-sofa?tab=specifications",
  "/product/sheesham-wood-3-seater-sofa?pincode=380009",
  "/product/sheesham-wood-3-seater-sofa?pincode=682555",
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

  // One test a page: each scan has its own time, and the two workers share the pages.
  for (const path of PAGES) {
    test(`visitor page ${path} has no WCAG 2 A/AA violations`, async ({ page }) => {
      if (path === "/cart") {
        // A cart with a line, so the cart page shows its full layout (and the header its count).
        await page.goto("/product/sheesham-wood-3-seater-sofa");
        await page.getByRole("button", { name: "Add to Cart" }).click();
        await expect(page.getByTestId("cart-count")).toHaveText("1");
        // The badge moves at once; the post and the page data it reloads are done once the button
        // is back. Leaving before then cuts Remix's request, which it logs as a console error.
        await expect(page.getByRole("button", { name: "Add to Cart" })).toBeEnabled();
      }
      await expectNoViolations(page, path);
    });
  }

  test("account pages have no WCAG 2 A/AA violations", async ({ page, customer: _ }) => {
    test.slow();
    for (const path of ACCOUNT_PAGES) await expectNoViolations(page, path);
  });

  test("checkout, payment and order pages have no WCAG 2 A/AA violations", async ({ page, consoleErrors }, testInfo) => {
    test.slow();
    const account = await newCustomer(page, testInfo, "a11y-orders");
    await addToCart(page, PRODUCTS.officeChair, 1);
    await expectNoViolations(page, "/checkout");
    // The checkout with its field messages showing.
    await page.getByLabel("Pincode", { exact: true }).fill("12");
    await placeOrderButton(page).click();
    await page.getByText("Please enter a valid 6-digit pincode").waitFor();
    const scan = async (label: string) => {
      const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
      expect(
        results.violations.map((v) => v.id),
        `axe violations on ${label}`,
      ).toEqual([]);
    };
    await scan("the checkout with errors");
    const id = await placeCodOrder(page, gujaratAddress(account));
    for (const path of [`/order-confirmation/${id}`, "/orders", `/orders/${id}/invoice`, "/order-confirmation/999999"])
      await expectNoViolations(page, path);
    await page.goto("/orders");
    await page.getByRole("link", { name: "Cancel Order" }).click();
    await page.getByText("Are you sure you want to cancel this order?").waitFor();
    await scan("the cancel dialog");
    // The test gateway's page.
    await addToCart(page, PRODUCTS.officeChair, 1);
    await openCheckout(page);
    await fillShipping(page, gujaratAddress(account));
    await page.getByRole("radio", { name: ONLINE }).check();
    await placeOrderButton(page).click();
    await page.waitForURL(/\/pay\//);
    await scan("the test payment page");
    await page.getByRole("button", { name: /^Pay ₹/ }).click();
    await page.waitForURL(/\/test-gateway\//);
    await scan("the test gateway's own page");
    dropExpectedStatusErrors(consoleErrors, 400); // the checkout's answer with field messages
    dropExpectedStatusErrors(consoleErrors, 404); // 'Order Not Found'
  });
});

test.describe("admin accessibility", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "axe runs inside the page, so it needs JavaScript");

  /** The admin login, posted as the no-JS form does (page.request does not carry the page's
   * X-Forwarded-For, so it names an address of its own for the per-address login limit). */
  async function adminLogin(page: Page, baseURL: string) {
    const login = await page.request.post("/admin/login", {
      form: { password: "e2e-admin-password" },
      headers: { Origin: baseURL, "X-Forwarded-For": "172.31.250.1" },
      maxRedirects: 0,
    });
    expect(login.status()).toBe(303);
  }

  // One test a page, as for the visitor's pages: the two workers share the scans.
  const ADMIN_PAGES = [
    "/admin",
    "/admin/categories",
    "/admin/categories?new=1",
    "/admin/categories?edit=1",
    "/admin/products",
    "/admin/products?q=sofa&page=1",
    "/admin/products?new=1",
    "/admin/products?edit=1",
    "/admin/products?delete=1",
    "/admin/products/1/variants",
    "/admin/users",
    "/admin/users?new=1",
    "/admin/orders",
    "/admin/coupons",
    "/admin/coupons?new=1",
    "/admin/delivery",
    "/admin/delivery?new=1",
    "/admin/mail",
  ];
  for (const path of ADMIN_PAGES) {
    test(`admin page ${path} has no WCAG 2 A/AA violations`, async ({ page, baseURL }) => {
      await adminLogin(page, baseURL!);
      await expectNoViolations(page, path);
    });
  }

  test("an order's admin page has no WCAG 2 A/AA violations", async ({ page, baseURL }, testInfo) => {
    test.slow();
    // An order of a customer of its own, so an order's admin page is there to check.
    const account = await newCustomer(page, testInfo, "a11y-admin");
    await addToCart(page, PRODUCTS.officeChair, 1);
    const orderId = await placeCodOrder(page, gujaratAddress(account));
    await adminLogin(page, baseURL!);
    await expectNoViolations(page, `/admin/orders/${orderId}`);
  });
});
