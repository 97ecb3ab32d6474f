// Returns (ADR 0025), with JavaScript on and off: the customer asks to return a damaged
// piece of a delivered order on the order's page; the staff approve it and mark it returned when
// the goods arrive; the customer sees each step and the refund's amount.
import { toast } from "../support/e2e/accounts";
import { loginAsAdmin } from "../support/e2e/admin";
import { expect, test } from "../support/e2e/fixtures";
import { addToCart, gujaratAddress, newCustomer, placeCodOrder, PRODUCTS, shipAndDeliver } from "../support/e2e/orders";

test("request a return of a delivered piece; the staff approve it and mark it returned", async ({ page }, testInfo) => {
  test.slow(); // an order, four admin posts, a request
  const account = await newCustomer(page, testInfo, "returns");
  await addToCart(page, PRODUCTS.officeChair, 1);
  const orderId = await placeCodOrder(page, gujaratAddress(account));

  await loginAsAdmin(page, testInfo);
  const adminPage = `/admin/orders/${orderId}`;
  await shipAndDeliver(page, orderId);

  // The customer's order page: the form, within 48 hours of delivery.
  await page.goto(`/order-confirmation/${orderId}`);
  const returns = page.getByRole("region", { name: "Returns" });
  await expect(returns.getByText(/can be returned until/)).toBeVisible();
  await returns.getByRole("combobox", { name: new RegExp(PRODUCTS.officeChair.title) }).selectOption("1");
  await returns.getByRole("radio", { name: "Arrived damaged" }).check();
  await returns.getByLabel("What is wrong").fill("The backrest arrived with a crack in the frame.");
  await returns.getByRole("button", { name: "Request a return" }).click();
  await expect(toast(page, "Return requested")).toBeVisible();
  await expect(returns.getByTestId("return-status")).toHaveText("Return requested");
  // Nothing left to return: the form is gone.
  await expect(returns.getByRole("button", { name: "Request a return" })).toHaveCount(0);

  // The staff find it in their returns queue, then approve it and receive the goods.
  await page.goto("/admin/returns");
  const row = page.getByTestId("return-row").filter({ hasText: `#${orderId}` });
  await expect(row.getByText("Return requested")).toBeVisible();
  await row.getByRole("link", { name: /^Open order/ }).click();
  await expect(page).toHaveURL(new RegExp(`${adminPage}$`));
  const adminReturns = page.getByRole("region", { name: "Returns" });
  await adminReturns.getByRole("button", { name: "Approve return" }).click();
  await expect(adminReturns.getByTestId("return-status")).toHaveText("Return approved");
  await adminReturns.getByRole("button", { name: "Mark returned (goods received)" }).click();
  await expect(adminReturns.getByTestId("return-status")).toHaveText("Returned");

  await page.goto(`/order-confirmation/${orderId}`);
  await expect(returns.getByTestId("return-status")).toHaveText("Returned");
  await expect(returns.getByText(/^Refund: ₹[\d,]+$/)).toBeVisible();
});
