// Shared steps of the order browser tests (orders.spec.ts): a signed-in customer of the test's own,
// a product in the cart, the checkout form, and reading the order pages.
import type { Locator, Page, TestInfo } from "@playwright/test";
import { MAIL_DIR } from "../../../playwright.config";
import { mailsTo } from "../outbox";
import type { OutboxMail } from "../outbox";
import { toast } from "./accounts";
import type { Account } from "./customers";
import { signedInCustomer } from "./customers";
import { expect } from "./fixtures";
import { parseRupees } from "./helpers";

/** In-stock seed products with plenty of stock, so the orders of a whole run never sell them out. */
export const PRODUCTS = {
  computerTable: { slug: "engineered-wood-computer-table", title: "Engineered Wood Computer Table" },
  officeChair: { slug: "ergonomic-mesh-office-chair", title: "Ergonomic Mesh Office Chair" },
  singleBed: { slug: "pine-wood-single-bed", title: "Pine Wood Single Bed" },
  loveseat: { slug: "jaipur-fabric-loveseat", title: "Jaipur Fabric 2-Seater Loveseat" },
} as const;

export type ShippingFields = {
  name: string;
  phone: string;
  email: string;
  address: string;
  city: string;
  state: string;
  pincode: string;
};

export const LABELS: Record<keyof ShippingFields, string> = {
  name: "Full Name",
  phone: "Phone Number",
  email: "Email",
  address: "Address",
  city: "City",
  state: "State",
  pincode: "Pincode",
};

export const ONLINE = "Online Payment (Credit/Debit Card, UPI, Net Banking)";

/** A Gujarat address (the seller's state: CGST + SGST on the invoice). */
export function gujaratAddress(account: Account): ShippingFields {
  return {
    name: account.name,
    phone: "9876543210",
    email: account.email,
    address: "14, Sagwan Society, C G Road, Navrangpura",
    city: "Ahmedabad",
    state: "Gujarat",
    pincode: "380009",
  };
}

/**
 * A new customer of this test alone (no orders, no saved address), signed in on `page` without
 * walking the sign-up pages (./customers.ts); the page is still blank.
 */
export async function newCustomer(page: Page, testInfo: TestInfo, tag = "buyer"): Promise<Account> {
  return signedInCustomer(page, testInfo, { tag });
}

/** Add one of a product to the cart from its product page (works with and without JavaScript). */
export async function addToCart(page: Page, product: { slug: string; title: string }, count: number) {
  await page.goto(`/product/${product.slug}`);
  await addThisProduct(page, product.title, count);
}

/** On a product page: Add to Cart, then the toast and the header's count. */
export async function addThisProduct(page: Page, title: string, count: number) {
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(page.getByTestId("stock")).toHaveText("In Stock");
  await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
  await expect(toast(page, `${title} added to cart`)).toBeVisible();
  await expect(page.getByTestId("cart-count")).toHaveText(String(count));
}

export function field(page: Page, name: keyof ShippingFields): Locator {
  return page.getByLabel(LABELS[name], { exact: true });
}

/** Fill the given shipping fields (the others keep what the page shows). */
export async function fillShipping(page: Page, fields: Partial<ShippingFields>) {
  for (const [name, value] of Object.entries(fields) as [keyof ShippingFields, string][]) await field(page, name).fill(value);
}

export async function openCheckout(page: Page) {
  await page.goto("/checkout");
  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page.getByRole("heading", { level: 1, name: "Checkout" })).toBeVisible();
}

/** The checkout summary's amounts, in rupees. */
export async function summary(scope: Page | Locator) {
  const amount = async (id: string) => {
    const text = (await scope.getByTestId(id).textContent())?.trim() ?? "";
    return text === "Free" ? 0 : parseRupees(text);
  };
  return { subtotal: await amount("subtotal"), shipping: await amount("shipping"), gst: await amount("gst"), total: await amount("total") };
}

export function placeOrderButton(page: Page): Locator {
  return page.getByRole("button", { name: "Place Order" });
}

/** Place a COD order from /checkout with these fields; ends on the confirmation, returns the order id. */
export async function placeCodOrder(page: Page, fields: Partial<ShippingFields>): Promise<number> {
  await openCheckout(page);
  await fillShipping(page, fields);
  await expect(page.getByRole("radio", { name: "Cash on Delivery" })).toBeChecked();
  await placeOrderButton(page).click();
  return confirmedOrderId(page);
}

/** On the confirmation page: its order id. */
export async function confirmedOrderId(page: Page): Promise<number> {
  await expect(page).toHaveURL(/\/order-confirmation\/\d+$/);
  await expect(page.getByRole("heading", { level: 1, name: "Order Confirmed!" })).toBeVisible();
  const text = (await page.getByTestId("order-id").textContent()) ?? "";
  expect(text).toMatch(/^#\d+$/);
  const id = Number(text.slice(1));
  expect(page.url()).toMatch(new RegExp(`/order-confirmation/${id}$`));
  return id;
}

/** "22 November 2026": today in India, as the order pages show dates. */
export function todayInIndia(): string {
  return new Intl.DateTimeFormat("en-IN", { year: "numeric", month: "long", day: "numeric", timeZone: "Asia/Kolkata" }).format(new Date());
}

/** The "Fact" value under a label on the confirmation page (Order Date, Estimated Delivery). */
export function fact(page: Page, label: string): Locator {
  return page.locator(`p:text-is("${label}") + p`);
}

/** The order confirmation mail for `orderId` to `email`, once it is written. */
export async function confirmationMail(email: string, orderId: number): Promise<OutboxMail> {
  const find = async () => (await mailsTo(email, MAIL_DIR)).filter((m) => m.subject.includes(`order #${orderId} confirmed`));
  await expect.poll(async () => (await find()).length, { message: `confirmation mail of order #${orderId} to ${email}` }).toBe(1);
  return (await find())[0]!;
}

export function orderCard(page: Page, orderId: number): Locator {
  return page.getByTestId("order-card").filter({ has: page.getByRole("heading", { name: `Order #${orderId}`, exact: true }) });
}

/** The staff ship, then deliver, an order from its admin page (the page must carry the admin flag: loginAsAdmin). */
export async function shipAndDeliver(page: Page, orderId: number) {
  await page.goto(`/admin/orders/${orderId}`);
  const main = page.getByRole("main");
  for (const label of ["Shipped", "Delivered"]) {
    await main.getByRole("combobox", { name: "New status" }).selectOption({ label });
    await main.getByRole("button", { name: "Update Status" }).click();
    await expect(main.getByTestId("status-badge").first()).toHaveText(label);
  }
}
