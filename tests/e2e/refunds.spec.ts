// Refunds (ADR 0024), with JavaScript off and on: a customer pays online on the offline
// test gateway, cancels the order, and reads the refund on /orders and on the order's page (and in
// a mail); the staff find it in /admin/refunds and on the admin order page.
import { mailsTo } from "../support/outbox";
import { MAIL_DIR } from "../../playwright.config";
import { toast } from "../support/e2e/accounts";
import { loginAsAdmin } from "../support/e2e/admin";
import { expect, jsEnabled, test } from "../support/e2e/fixtures";
import { rupees } from "../support/e2e/helpers";
import {
  addToCart,
  confirmedOrderId,
  fillShipping,
  gujaratAddress,
  newCustomer,
  ONLINE,
  openCheckout,
  orderCard,
  placeOrderButton,
  PRODUCTS,
  summary,
  todayInIndia,
} from "../support/e2e/orders";

test("cancel an order paid online: the customer sees the refund, gets its mail, and the staff see it in the queue", async ({
  page,
}, testInfo) => {
  test.slow(); // a payment, a cancellation, the admin pages
  const js = jsEnabled(testInfo.project.name);
  const account = await newCustomer(page, testInfo, "refund");
  await addToCart(page, PRODUCTS.computerTable, 1);
  await openCheckout(page);
  const { total } = await summary(page);
  await fillShipping(page, gujaratAddress(account));
  await page.getByRole("radio", { name: ONLINE }).check();
  await placeOrderButton(page).click();

  // Pay on the test gateway.
  await expect(page).toHaveURL(/\/pay\/order_[A-Za-z0-9]+$/);
  await page.getByRole("button", { name: `Pay ${rupees(total)}` }).click();
  await expect(page).toHaveURL(/\/test-gateway\/order_[A-Za-z0-9]+$/);
  await page.getByRole("button", { name: `Pay ${rupees(total)}` }).click();
  const orderId = await confirmedOrderId(page);
  await expect(page.getByTestId("refunds")).toHaveCount(0);

  // Cancel it from /orders.
  await page.goto("/orders");
  const card = orderCard(page, orderId);
  await card.getByRole("link", { name: "Cancel Order", exact: true }).click();
  if (!js) await expect(page).toHaveURL(new RegExp(`/orders\\?cancel=${orderId}$`));
  const dialog = page.getByRole("dialog", { name: `Cancel Order #${orderId}` });
  await dialog.getByRole("button", { name: "Yes, Cancel Order" }).click();
  await expect(toast(page, "Status Change Successfully")).toBeVisible();
  await expect(card.getByTestId("status-badge")).toHaveText("Cancelled");

  // The refund, on the list and on the order's page: a test payment is refunded by the test gateway at once.
  const sentence = `Refund of ${rupees(total)}: refunded on ${todayInIndia()}`;
  const refund = card.getByTestId("refund");
  await expect(refund).toHaveCount(1);
  await expect(refund).toContainText("Refunded");
  await expect(refund).toContainText(sentence);
  await expect(refund).toContainText("Order cancelled");
  await card.getByRole("link", { name: "View Details" }).click();
  await expect(page).toHaveURL(new RegExp(`/order-confirmation/${orderId}$`));
  await expect(page.getByTestId("refund")).toContainText(sentence);

  // The mail.
  await expect
    .poll(
      async () => (await mailsTo(account.email, MAIL_DIR)).filter((m) => m.subject.includes(`refund of ${rupees(total)} processed`)).length,
    )
    .toBe(1);
  const [mail] = (await mailsTo(account.email, MAIL_DIR)).filter((m) => m.subject.includes("refund of"));
  expect(mail!.text).toContain(`We refunded ${rupees(total)} for your cancelled order (order #${orderId})`);

  // The staff: the queue (all refunds) and the order's admin page.
  await loginAsAdmin(page, testInfo);
  await page.goto("/admin/refunds?status=all");
  await expect(page.getByRole("heading", { level: 1, name: "Refunds" })).toBeVisible();
  const row = page.getByTestId("refund-row").filter({ has: page.getByRole("link", { name: `Order #${orderId}`, exact: true }) });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(rupees(total));
  await expect(row).toContainText("Refunded");
  await expect(row).toContainText(/rfnd_TEST[A-Za-z0-9]{10}/);
  await expect(row.getByRole("button")).toHaveCount(0);
  await row.getByRole("link", { name: `Order #${orderId}`, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/orders/${orderId}$`));
  await expect(page.getByTestId("refund")).toContainText(sentence);
  // Processed refunds are not in the default view (pending and failed).
  await page.goto("/admin/refunds");
  await expect(
    page.getByTestId("refund-row").filter({ has: page.getByRole("link", { name: `Order #${orderId}`, exact: true }) }),
  ).toHaveCount(0);
});
