// Shipment details, with JavaScript on and off: the staff ship an order with
// its carrier and tracking number (markup is refused beside the field), and the customer sees
// them on /orders and on the order's page.
import { toast } from "../support/e2e/accounts";
import { expectFieldError, loginAsAdmin } from "../support/e2e/admin";
import { expect, test } from "../support/e2e/fixtures";
import { dropExpectedStatusErrors } from "../support/e2e/helpers";
import { addToCart, gujaratAddress, newCustomer, orderCard, placeCodOrder, PRODUCTS } from "../support/e2e/orders";

test("the staff record the carrier and tracking number when shipping; the customer sees them on /orders", async ({
  page,
  consoleErrors,
}, testInfo) => {
  test.slow(); // an order, then two admin posts
  const account = await newCustomer(page, testInfo, "shipment");
  await addToCart(page, PRODUCTS.officeChair, 1);
  const orderId = await placeCodOrder(page, gujaratAddress(account));

  await loginAsAdmin(page, testInfo);
  await page.goto(`/admin/orders/${orderId}`);
  const main = page.getByRole("main");
  const status = main.getByRole("combobox", { name: "New status" });

  // Markup in the tracking number: refused beside the field, still Processing.
  await status.selectOption({ label: "Shipped" });
  await main.getByLabel("Carrier", { exact: true }).fill("Delhivery");
  await main.getByLabel("Tracking number", { exact: true }).fill("<b>DL1</b>");
  await main.getByRole("button", { name: "Update Status" }).click();
  await expectFieldError(main, "Tracking number", "Tracking number may contain only letters, digits, spaces and dashes");
  dropExpectedStatusErrors(consoleErrors, 400);
  await expect(main.getByTestId("status-badge").first()).toHaveText("Processing");

  // Valid details: shipped, and shown on the admin page.
  await status.selectOption({ label: "Shipped" });
  await main.getByLabel("Carrier", { exact: true }).fill("Delhivery");
  await main.getByLabel("Tracking number", { exact: true }).fill("DL-4455 6677");
  await main.getByRole("button", { name: "Update Status" }).click();
  await expect(toast(page, "Status Change Successfully")).toBeVisible();
  await expect(main.getByTestId("status-badge").first()).toHaveText("Shipped");
  await expect(main.getByTestId("tracking-number")).toHaveText("DL-4455 6677");

  // The customer's orders page.
  await page.goto("/orders");
  const card = orderCard(page, orderId);
  await expect(card.getByTestId("carrier")).toHaveText("Delhivery");
  await expect(card.getByTestId("tracking-number")).toHaveText("DL-4455 6677");
  // And the order's own page.
  await card.getByRole("link", { name: "View Details" }).click();
  await expect(page).toHaveURL(new RegExp(`/order-confirmation/${orderId}$`));
  await expect(page.getByTestId("carrier")).toHaveText("Delhivery");
  await expect(page.getByTestId("tracking-number")).toHaveText("DL-4455 6677");
});
