// Pieces sold in variants, with and without JavaScript, on a phone and a desktop: the product page
// chooses a fabric (a GET form: in place with JavaScript, 'Show this choice' without), shows that
// variant's price and photo, adds two fabrics of one sofa as two cart lines, and the order's
// confirmation and tax invoice name both, with their SKUs.
import fs from "node:fs/promises";
import type { Page } from "@playwright/test";
import { toast } from "../support/e2e/accounts";
import { expect, jsEnabled, test } from "../support/e2e/fixtures";
import { rupees } from "../support/e2e/helpers";
import { gujaratAddress, newCustomer, placeCodOrder } from "../support/e2e/orders";

const SOFA = { slug: "convertible-sofa-cum-bed", title: "Convertible Sofa Cum Bed" };

/** Choose a value of an option: its pill, then (without JavaScript) the form's own button. */
async function choose(page: Page, option: string, value: string, js: boolean) {
  const group = page.getByRole("group", { name: new RegExp(`^${option}`) });
  await group.locator("label").filter({ hasText: value }).click();
  if (!js) await page.getByRole("button", { name: "Show this choice" }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]${option.toLowerCase()}=${value.toLowerCase().replace(/ /g, "-")}`));
  await expect(group.getByRole("radio", { name: value })).toBeChecked();
}

test("a sofa in two fabrics: chosen on its page, two cart lines, one order, both on the invoice", async ({ page }, testInfo) => {
  test.slow(); // two choices, two adds, the checkout, the invoice
  const js = jsEnabled(testInfo.project.name);
  const account = await newCustomer(page, testInfo, "variants");

  await page.goto(`/product/${SOFA.slug}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(SOFA.title);
  // The first fabric on sale is chosen to begin with, at the product's own price.
  await expect(page.getByRole("group", { name: /^Fabric/ }).getByRole("radio", { name: "Jute Blend" })).toBeChecked();
  await expect(page.getByTestId("product-price")).toHaveText(rupees(27999));
  await expect(page.getByText("+ 18% GST, added at checkout")).toBeVisible();
  // Each fabric has its own photo (the demo's, drawn in that fabric's colour).
  const photo = page.locator("main picture img").first();
  await expect(photo).toHaveAttribute("alt", `${SOFA.title} in Jute Blend`);

  await choose(page, "Fabric", "Velvet", js);
  await expect(page.getByTestId("product-price")).toHaveText(rupees(32499));
  await expect(photo).toHaveAttribute("alt", `${SOFA.title} in Velvet`);
  await expect.poll(() => photo.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
  await expect(page.getByTestId("stock")).toHaveText("In Stock");
  await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
  await expect(toast(page, `${SOFA.title} — Velvet added to cart`)).toBeVisible();
  await expect(page.getByTestId("cart-count")).toHaveText("1");

  await choose(page, "Fabric", "Suede", js);
  await expect(page.getByTestId("product-price")).toHaveText(rupees(30499));
  await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
  await expect(toast(page, `${SOFA.title} — Suede added to cart`)).toBeVisible();
  await expect(page.getByTestId("cart-count")).toHaveText("2");
  await fs.mkdir("/tmp/e2e-shots", { recursive: true });
  await page.screenshot({ path: `/tmp/e2e-shots/${testInfo.project.name}-variant-product.png`, fullPage: true });

  // The cart: one line per fabric, each at its own price.
  await page.goto("/cart");
  const lines = page.getByTestId("cart-line");
  await expect(lines).toHaveCount(2);
  await expect(lines.nth(0).getByTestId("cart-line-variant")).toHaveText("Velvet");
  await expect(lines.nth(0)).toContainText(`${rupees(32499)} each`);
  await expect(lines.nth(1).getByTestId("cart-line-variant")).toHaveText("Suede");
  await expect(lines.nth(1)).toContainText(`${rupees(30499)} each`);

  const orderId = await placeCodOrder(page, gujaratAddress(account));
  const main = page.getByRole("main");
  await expect(main.getByText(`${SOFA.title} — Velvet`).first()).toBeVisible();
  await expect(main.getByText(`${SOFA.title} — Suede`).first()).toBeVisible();

  await page.goto(`/orders/${orderId}/invoice`);
  // Phones see one block per line; wider screens the table.
  const invoice =
    (page.viewportSize()?.width ?? 1024) < 640 ? page.getByRole("list", { name: "Invoice lines" }) : page.getByTestId("invoice-line");
  await expect(invoice.getByText(`${SOFA.title} — Velvet`)).toBeVisible();
  await expect(invoice.getByText(`${SOFA.title} — Suede`)).toBeVisible();
  await expect(invoice.getByText(/^SKU CONVERTIBLE-SOFA-CUM-3$/)).toBeVisible();
  await expect(invoice.getByText(/^SKU CONVERTIBLE-SOFA-CUM-2$/)).toBeVisible();
});

test("a combination that is not sold says so and cannot be added", async ({ page }, testInfo) => {
  const js = jsEnabled(testInfo.project.name);
  // 8-seater in Green Udaipur marble is not made (db/seed-variants.ts).
  await page.goto("/product/marble-top-6-seater-dining-set?size=8-seater&marble=green-udaipur");
  await expect(page.getByTestId("variant-problem")).toHaveText("This combination is not made. Please choose another.");
  await expect(page.getByRole("button", { name: "Choose Your Piece" })).toBeDisabled();
  await choose(page, "Marble", "White Makrana", js);
  await expect(page.getByTestId("variant-problem")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Add to Cart", exact: true })).toBeEnabled();
});
