// Delivery by pincode (ADR 0017), with and without JavaScript: the product page's Check delivery
// (a GET form; the pincode remembered for the visit), and the checkout refusing a pincode the
// shop does not serve, beside the field, then ordering to a served one with the zone's promise.
import type { Page } from "@playwright/test";
import { formatLongDate } from "../../app/utils/dates";
import { dateAtNoonInIndia, deliveryWindow } from "../../app/utils/delivery-dates";
import { banner } from "../support/e2e/accounts";
import { adminDialog, expectFieldError, openAdmin, SHOTS, shot } from "../support/e2e/admin";
import { expect, jsEnabled, test } from "../support/e2e/fixtures";
import { dropExpectedStatusErrors } from "../support/e2e/helpers";
import {
  addToCart,
  confirmedOrderId,
  fact,
  field,
  fillShipping,
  gujaratAddress,
  newCustomer,
  openCheckout,
  placeOrderButton,
  PRODUCTS,
} from "../support/e2e/orders";

const SOFA = "/product/sheesham-wood-3-seater-sofa";

/** 'Delivery by 4 December 2026' for an order placed now that takes these business days. */
const deliveryBy = (min: number, max: number) =>
  `Delivery by ${formatLongDate(dateAtNoonInIndia(deliveryWindow(new Date(), { min, max }).latest))}`;

async function check(page: Page, pincode: string) {
  const form = page.getByTestId("delivery-check");
  await form.getByLabel("Pincode").fill(pincode);
  await form.getByRole("button", { name: "Check" }).click();
  await expect(page).toHaveURL(new RegExp(`pincode=${pincode}`));
}

test("Check delivery on a product page: by when, cash on delivery, not served; remembered for the visit", async ({ page }, testInfo) => {
  await page.goto(SOFA);
  const section = page.getByTestId("delivery-check");
  await expect(section.getByRole("heading", { name: "Check delivery" })).toBeVisible();
  await expect(page.getByTestId("delivery-answer")).toHaveCount(0);

  await check(page, "380009");
  const answer = page.getByTestId("delivery-answer");
  await expect(answer).toContainText(deliveryBy(5, 7));
  await expect(answer).toContainText("5-7 business days to Ahmedabad, Gujarat (380009)");
  await expect(answer).toContainText("Cash on delivery available");
  await shot(page, testInfo, "delivery-check");
  await page.getByTestId("delivery-check").screenshot({ path: `${SHOTS}/${testInfo.project.name}-delivery-check-card.png` });

  // The same visit: another product page answers for the same pincode without asking again.
  await page.goto("/product/teak-wood-diwan-with-bolsters");
  await expect(page.getByTestId("delivery-answer")).toContainText(deliveryBy(5, 7));
  await expect(page.getByTestId("delivery-check").getByLabel("Pincode")).toHaveValue("380009");

  await check(page, "194101");
  await expect(answer).toContainText(deliveryBy(7, 10));
  await expect(answer).toContainText("Cash on delivery is not available here: pay online");

  await check(page, "682555");
  await expect(answer).toContainText("We do not deliver to 682555 yet");
  await expect(answer).not.toContainText("Delivery by");
});

test("the checkout refuses a pincode the shop does not serve, beside the field; a served one orders with its zone's promise", async ({
  page,
  consoleErrors,
}, testInfo) => {
  const account = await newCustomer(page, testInfo, "delivery");
  await addToCart(page, PRODUCTS.loveseat, 1);
  await openCheckout(page);
  const address = gujaratAddress(account);
  await fillShipping(page, { ...address, state: "Lakshadweep", pincode: "682555" });
  if (jsEnabled(testInfo.project.name)) {
    // With JavaScript the pincode fills the city and state and says so before the order is placed.
    await expect(page.getByTestId("pincode-note")).toHaveText("We do not deliver to 682555 yet.");
    await expect(field(page, "city")).toHaveValue("Lakshadweep");
  }
  await placeOrderButton(page).click();
  await expect(banner(page)).toHaveText("Please check the highlighted fields.");
  await expect(page.locator("#checkout-pincode-error")).toHaveText("We do not deliver to 682555 yet.");
  await expect(field(page, "pincode")).toHaveAttribute("aria-invalid", "true");
  await shot(page, testInfo, "checkout-unserved");
  dropExpectedStatusErrors(consoleErrors, 400);

  await fillShipping(page, { city: address.city, state: address.state, pincode: address.pincode });
  await placeOrderButton(page).click();
  await confirmedOrderId(page);
  const { latest } = deliveryWindow(new Date(), { min: 5, max: 7 });
  await expect(fact(page, "Estimated Delivery")).toHaveText(formatLongDate(dateAtNoonInIndia(latest)));
  await expect(page.getByRole("region", { name: "Delivery Method" })).toContainText("Delivered within 5-7 business days");
});

test("staff add a delivery zone at /admin/delivery (a wrong one is refused beside its field), then delete it", async ({
  page,
  consoleErrors,
}, testInfo) => {
  // Zones are the whole shop's: each project adds its own district, and deletes it again.
  const district = jsEnabled(testInfo.project.name) ? "South Goa" : "North Goa";
  await openAdmin(page, testInfo, "/admin/delivery", "Delivery");
  const table = page.getByRole("table", { name: "Delivery zones" });
  await expect(table.getByRole("row", { name: /Everywhere else/ })).toContainText("7-10");
  await expect(table.getByRole("row", { name: /Ahmedabad, Gujarat/ })).toContainText("5-7");

  await page.getByRole("link", { name: "Add Zone" }).click();
  const dialog = adminDialog(page, "Add Zone");
  await dialog.getByLabel("Covers").selectOption("district");
  await dialog.getByLabel("State").selectOption("Goa");
  await dialog.getByLabel("District").fill(district.toLowerCase());
  await dialog.getByLabel("Minimum business days").fill("6");
  await dialog.getByLabel("Maximum business days").fill("4");
  await dialog.getByLabel("Label").fill("Goa coast");
  await dialog.getByLabel("Cash on delivery allowed").uncheck();
  await dialog.getByRole("button", { name: "Add Zone" }).click();
  await expectFieldError(adminDialog(page, "Add Zone"), "Maximum business days", "Maximum days must be at least the minimum");
  dropExpectedStatusErrors(consoleErrors, 400);
  await shot(page, testInfo, "admin-delivery-refused");

  await adminDialog(page, "Add Zone").getByLabel("Maximum business days").fill("8");
  await adminDialog(page, "Add Zone").getByRole("button", { name: "Add Zone" }).click();
  const row = table.getByRole("row", { name: new RegExp(`${district}, Goa`) });
  await expect(row).toContainText("6-8");
  await expect(row).toContainText("Goa coast");
  await expect(row.locator("td").nth(3)).toHaveText("No"); // cash on delivery
  await shot(page, testInfo, "admin-delivery");

  await row.getByRole("link", { name: `Delete ${district}, Goa` }).click();
  await adminDialog(page, "Delete delivery zone").getByRole("button", { name: "Delete" }).click();
  await expect(table.getByRole("row", { name: new RegExp(`${district}, Goa`) })).toHaveCount(0);
});
