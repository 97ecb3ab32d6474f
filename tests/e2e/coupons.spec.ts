// Coupons in the browser, with and without JavaScript (docs/product.md, Coupons): the staff make a
// code at /admin/coupons (a refused field keeps its message beside it), a customer applies it in
// the cart in lower case (an unknown code is refused beside the field first), sees the discount as
// its own line with GST and shipping after it, orders at the checkout, and finds the discount on
// the confirmation and the tax invoice; the staff's list then counts the use.
import type { Page } from "@playwright/test";
import { toast } from "../support/e2e/accounts";
import { loginAsAdmin, uniqueWord } from "../support/e2e/admin";
import { expect, test } from "../support/e2e/fixtures";
import { dropExpectedStatusErrors, parseRupees, rupees, screenshot } from "../support/e2e/helpers";
import {
  addToCart,
  confirmedOrderId,
  fillShipping,
  gujaratAddress,
  newCustomer,
  ONLINE,
  openCheckout,
  placeOrderButton,
  PRODUCTS,
} from "../support/e2e/orders";

const shot = (page: Page, name: string, project: string) => screenshot(page, `coupons-${name}`, project);

async function amount(page: Page, testId: string): Promise<number> {
  const text = ((await page.getByTestId(testId).first().textContent()) ?? "").trim();
  return text === "Free" ? 0 : parseRupees(text.replace("−", ""));
}

test("staff make a coupon; a customer applies it in the cart, orders with it, and sees it on the confirmation and invoice", async ({
  page,
  consoleErrors,
}, testInfo) => {
  test.slow(); // the staff's form, the cart, the checkout, the invoice
  const account = await newCustomer(page, testInfo, "coupon");
  await loginAsAdmin(page, testInfo); // the same browser: the customer stays signed in
  const code = `SAVE${uniqueWord().toUpperCase()}`;

  // 1. The staff's form: a refused value is explained beside it, then the coupon is added.
  await page.goto("/admin/coupons?new=1");
  await expect(page.getByRole("heading", { name: "Add Coupon" })).toBeVisible();
  await page.getByLabel("Code", { exact: true }).fill(code);
  await page.getByLabel("Value (% or ₹)").fill("150");
  await page.getByLabel("Maximum discount (₹)").fill("2000");
  await page.getByLabel("Minimum subtotal (₹)").fill("5000");
  await page.getByLabel("Total uses").fill("50");
  await page.getByRole("button", { name: "Add Coupon" }).click();
  const value = page.getByLabel("Value (% or ₹)");
  await expect(value).toHaveAccessibleDescription("A percentage must be a whole number from 1 to 100");
  await expect(page.getByLabel("Code", { exact: true })).toHaveValue(code);
  await shot(page, "admin-form", testInfo.project.name);
  await value.fill("10");
  await page.getByRole("button", { name: "Add Coupon" }).click();
  await expect(toast(page, "Coupon added")).toBeVisible();
  const row = page.getByTestId("coupon-row").filter({ hasText: code });
  await expect(row).toContainText("10% off (at most ₹2,000)");
  await expect(row).toContainText("Active");
  await expect(row.getByTestId("coupon-uses")).toHaveText("0 of 50");
  await shot(page, "admin-list", testInfo.project.name);

  // 2. The cart: an unknown code is refused beside the field; the code in lower case applies.
  await addToCart(page, PRODUCTS.singleBed, 1); // ₹9,999
  await page.goto("/cart");
  const box = page.getByLabel("Coupon code");
  await box.fill("NOPE-12345");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page.getByLabel("Coupon code")).toHaveAccessibleDescription(
    "We don't recognise the code NOPE-12345. Please check it and try again.",
  );
  await expect(page.getByTestId("discount")).toHaveCount(0);
  await page.getByLabel("Coupon code").fill(code.toLowerCase());
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(toast(page, `Coupon ${code} applied`)).toBeVisible();
  await expect(page.getByTestId("applied-coupon")).toContainText(`${code} applied: 10% off (at most ₹2,000)`);
  // 10% of ₹9,999 is ₹999 (rounded down); GST on ₹9,000 is ₹1,620; shipping ₹1.
  await expect(page.getByText(`Discount (${code})`)).toBeVisible();
  await expect(page.getByTestId("discount")).toHaveText(`−${rupees(999)}`);
  await expect(page.getByTestId("subtotal")).toHaveText(rupees(9999));
  await expect(page.getByTestId("gst")).toHaveText(rupees(1620));
  await expect(page.getByTestId("total")).toHaveText(rupees(9000 + 1 + 1620));
  await shot(page, "cart", testInfo.project.name);

  // 3. The checkout shows the same, and the order keeps it.
  await openCheckout(page);
  await expect(page.getByTestId("applied-coupon")).toContainText(`${code} applied`);
  await expect(page.getByTestId("discount")).toHaveText(`−${rupees(999)}`);
  await expect(page.getByTestId("total")).toHaveText(rupees(10621));
  await shot(page, "checkout", testInfo.project.name);
  await fillShipping(page, gujaratAddress(account));
  await placeOrderButton(page).click();
  const orderId = await confirmedOrderId(page);
  await expect(page.getByText(`Discount (${code})`)).toBeVisible();
  expect(await amount(page, "discount")).toBe(999);
  expect(await amount(page, "total")).toBe(10621);

  // 4. The invoice: the line's discount, the value of the goods, the discount, the taxable value.
  await page.goto(`/orders/${orderId}/invoice`);
  await expect(page.getByRole("heading", { level: 1, name: "Tax Invoice" })).toBeVisible();
  await expect(page.getByTestId("invoice-discount")).toHaveText(`−${rupees(999)}`);
  await expect(page.getByText(`Discount (${code})`)).toBeVisible();
  await expect(page.getByText("Value of goods", { exact: true })).toBeVisible();
  await expect(page.getByText("Taxable value", { exact: true })).toBeVisible();
  // The line's own share: the table's Discount column (wider screens), or the line's block (phones).
  const phone = (page.viewportSize()?.width ?? 0) < 640;
  const line = phone ? page.getByRole("list", { name: "Invoice lines" }) : page.getByTestId("invoice-line");
  await expect(line).toContainText(`−${rupees(999)}`);
  await expect(line).toContainText(rupees(9000));
  expect(
    parseRupees((await page.getByTestId("cgst").textContent()) ?? "") + parseRupees((await page.getByTestId("sgst").textContent()) ?? ""),
  ).toBe(1620);
  await expect(page.getByTestId("invoice-total")).toHaveText(rupees(10621));
  await shot(page, "invoice", testInfo.project.name);

  // 5. The cart is empty and the code gone with it; the staff's list counts the use.
  await page.goto(`/admin/coupons?q=${code}`);
  await expect(page.getByTestId("coupon-row").filter({ hasText: code }).getByTestId("coupon-uses")).toHaveText("1 of 50");
  // Pausing it is one button; the list says so in words.
  await page.getByRole("button", { name: `Pause ${code}` }).click();
  await expect(toast(page, `Coupon ${code} paused`)).toBeVisible();
  await expect(page.getByTestId("coupon-row").filter({ hasText: code })).toContainText("Paused");
  dropExpectedStatusErrors(consoleErrors, 400); // the refused value
  dropExpectedStatusErrors(consoleErrors, 404); // the unknown code
});

test("a second online payment with a once-per-customer code is refused beside the coupon while the first payment holds it", async ({
  page,
  consoleErrors,
}, testInfo) => {
  const account = await newCustomer(page, testInfo, "coupon-hold");
  await loginAsAdmin(page, testInfo);
  const code = `ONCE${uniqueWord().toUpperCase()}`;
  await page.goto("/admin/coupons?new=1");
  await page.getByLabel("Code", { exact: true }).fill(code);
  await page.getByLabel("Value (% or ₹)").fill("5");
  await page.getByLabel("Uses per customer").fill("1");
  await page.getByRole("button", { name: "Add Coupon" }).click();
  await expect(toast(page, "Coupon added")).toBeVisible();

  await addToCart(page, PRODUCTS.singleBed, 1);
  await page.goto("/cart");
  await page.getByLabel("Coupon code").fill(code);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(toast(page, `Coupon ${code} applied`)).toBeVisible();
  // The first online start: a payment order that holds the code's use.
  await openCheckout(page);
  await fillShipping(page, gujaratAddress(account));
  await page.getByRole("radio", { name: ONLINE }).check();
  await placeOrderButton(page).click();
  await expect(page).toHaveURL(/\/pay\/order_[A-Za-z0-9]+$/);
  // Back to the checkout for a second one: refused, the reason beside the coupon, nothing made.
  await openCheckout(page);
  await fillShipping(page, gujaratAddress(account));
  await page.getByRole("radio", { name: ONLINE }).check();
  await placeOrderButton(page).click();
  await expect(page).toHaveURL(/\/checkout$/);
  const held = new RegExp(
    `^A payment you started holds the code ${code} until .+\\. Please pay it on its payment page, or use the code again after then\\.`,
  );
  await expect(page.getByLabel("Another coupon code")).toHaveAccessibleDescription(held);
  await expect(page.getByTestId("applied-coupon")).toContainText(`A payment you started holds the code ${code}`);
  await shot(page, "held", testInfo.project.name);
  dropExpectedStatusErrors(consoleErrors, 409); // the refused second payment
});
