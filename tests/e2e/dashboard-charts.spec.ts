// The dashboard's charts (/admin, ADR 0030) with JavaScript off and on, on a phone and a desktop:
// after two orders placed here, each figure is an image named by its title with a table of the
// same figures behind 'Show the figures as a table'; the period links switch 30 and 90 days; with
// JavaScript a column chart shows the value under the pointer; axe finds no violation; and a
// full-page screenshot of each is kept in the test's output folder for people to look at.
import AxeBuilder from "@axe-core/playwright";
import { request } from "@playwright/test";
import type { Page } from "@playwright/test";
import { expectSection, loginAsAdmin, productId } from "../support/e2e/admin";
import { newAccount, registerThroughApi } from "../support/e2e/customers";
import { expect, jsEnabled, test } from "../support/e2e/fixtures";
import { gujaratAddress, PRODUCTS, todayInIndia } from "../support/e2e/orders";

const FIGURES = [
  ["revenue-per-day", "Revenue per day", /^Revenue per day, the last (30|90) days ₹[\d,]+ in all; the best day was .+ with ₹[\d,]+\.$/],
  ["orders-per-day", "Orders per day", /^Orders per day, the last (30|90) days [\d,]+ orders? in all, [\d,]+ on the busiest day\.$/],
  ["orders-by-status", "Orders by status", /^Orders by status, the last (30|90) days Processing: [\d,]+; Shipped/],
  [
    "payment-methods",
    "Payment methods",
    /^Payment methods, the last (30|90) days Paid online: .*; Cash on delivery: [\d,]+ orders?, ₹[\d,]+$/,
  ],
  ["top-products", "Top products by revenue", /^Top \d+ products? by revenue, the last (30|90) days .*₹[\d,]+/],
  ["top-categories", "Categories by revenue", /^Categories by revenue, the last (30|90) days .*: ₹[\d,]+/],
] as const;

/** Two cash-on-delivery orders of a customer of this test's own, by the API. */
async function placeTwoOrders(page: Page, testInfo: Parameters<Parameters<typeof test>[2]>[1]) {
  const api = await request.newContext({ baseURL: testInfo.project.use.baseURL });
  try {
    const account = newAccount(testInfo, { tag: "charts" });
    const headers = { Authorization: `Bearer ${await registerThroughApi(api, account, testInfo)}` };
    const itemId = await productId(page, PRODUCTS.officeChair.slug);
    for (let i = 0; i < 2; i++) {
      expect((await api.post("/api/cart/add", { data: { itemId, quantity: 1 }, headers })).status()).toBe(200);
      expect((await api.post("/api/orders/add", { data: { ...gujaratAddress(account), paymentMethod: "cod" }, headers })).status()).toBe(
        201,
      );
    }
  } finally {
    await api.dispose();
  }
}

async function expectAccessible(page: Page, js: boolean, state: string) {
  // axe runs inside the page: with JavaScript only (the markup is the same without it).
  if (!js) return;
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(summary, `axe violations: ${state}`).toEqual([]);
}

test("the dashboard's charts: named images with their tables, 30 and 90 days, tooltips with JavaScript, no axe violation", async ({
  page,
}, testInfo) => {
  test.slow(); // a sign-up and two orders
  const js = jsEnabled(testInfo.project.name);
  await placeTwoOrders(page, testInfo);
  await loginAsAdmin(page, testInfo);
  await page.goto("/admin");
  await expectSection(page, "Dashboard");
  // The cards and texts the dashboard showed before stay.
  await expect(page.getByRole("list", { name: "Shop figures" }).getByRole("listitem")).toHaveCount(4);
  for (const heading of ["Order Status Overview", "Quick Stats", "Recent Orders"])
    await expect(page.getByRole("heading", { name: heading })).toBeVisible();

  await expect(page.getByRole("heading", { level: 2, name: "Sales in the last 30 days" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Last 30 days" })).toHaveAttribute("aria-current", "page");
  for (const [id, heading, name] of FIGURES) {
    const figure = page.getByRole("region", { name: heading, exact: true });
    await expect(figure, id).toBeVisible();
    const chart = figure.getByRole("img");
    await expect(chart, id).toHaveAccessibleName(name);
    // The drawing fits its card: no sideways scrolling on a phone.
    const [svg, card] = await Promise.all([chart.boundingBox(), figure.boundingBox()]);
    expect(svg!.width, id).toBeLessThanOrEqual(card!.width);
  }

  // Today's row of the table behind revenue per day holds this test's two orders at least.
  const revenue = page.getByRole("region", { name: "Revenue per day", exact: true });
  const table = revenue.getByRole("table", { name: /^Revenue per day, / });
  await expect(table).toBeHidden();
  await revenue.getByText("Show the figures as a table").click();
  await expect(table).toBeVisible();
  await expect(table.getByRole("row")).toHaveCount(31);
  // "29 November 2026" as the table writes it: "29 Nov 2026" (en-IN's short months).
  const [d, month, y] = todayInIndia().split(" ");
  const today = `${d} ${month === "September" ? "Sept" : month!.slice(0, 3)} ${y}`;
  const todayRow = table.getByRole("row", { name: new RegExp(`^${today} `) });
  await expect(todayRow.getByRole("cell").first()).toHaveText(/^₹[\d,]+$/);
  expect(Number((await todayRow.getByRole("cell").nth(1).textContent())!.replace(/,/g, ""))).toBeGreaterThanOrEqual(2);
  await expect(page.getByRole("region", { name: "Low stock", exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: "Returns and refunds", exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: "Coupon use", exact: true })).toBeVisible();

  if (js) {
    // The value under the pointer: the last column is today.
    const chart = revenue.getByRole("img");
    const box = (await chart.boundingBox())!;
    await page.mouse.move(box.x + box.width * (330 / 340), box.y + box.height / 2);
    await expect(revenue.getByTestId("chart-tooltip")).toHaveText(new RegExp(`^${today.split(" ").slice(0, 2).join(" ")}: ₹[\\d,]+$`));
    await page.mouse.move(0, 0);
    await expect(revenue.getByTestId("chart-tooltip")).toHaveCount(0);
  }
  await expectAccessible(page, js, "30 days, a table open");
  // From the top: the admin's sticky header would otherwise be drawn where the page was scrolled to.
  await page.mouse.wheel(0, -100_000);
  await page.screenshot({ path: testInfo.outputPath("dashboard-30-days.png"), fullPage: true });

  await page.getByRole("link", { name: "Last 90 days" }).click();
  await expect(page).toHaveURL(/\/admin\?range=90$/);
  await expect(page.getByRole("heading", { level: 2, name: "Sales in the last 90 days" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Last 90 days" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("region", { name: "Orders per day", exact: true }).getByRole("img")).toHaveAccessibleName(FIGURES[1][2]);
  await expectAccessible(page, js, "90 days");
  await page.screenshot({ path: testInfo.outputPath("dashboard-90-days.png"), fullPage: true });

  // A period that is not one shows the default, 30 days.
  await page.goto("/admin?range=abc");
  await expect(page.getByRole("heading", { level: 2, name: "Sales in the last 30 days" })).toBeVisible();
});
