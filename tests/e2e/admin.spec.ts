// The admin area in the browser, with and without JavaScript: the hidden Admin Access dialog
// (five logo clicks; without JavaScript /?admin-access), the guard that sends everyone else
// to /, each list's search and pagination with its state in the URL, a product's whole life
// (add with a validation message first, made to order, edit, delete) as the storefront shows it, an order's
// status change as its customer sees it, the category delete refusal, users added and
// edited, and Logout. Each test logs in once (logins are rate-limited) and names the
// rows it makes uniquely, since tests run in parallel against one database. Nothing here adds
// or changes a category, a featured product or a seed product's stock: other files count them.
import type { Page, TestInfo } from "@playwright/test";
import { request } from "@playwright/test";
import { toast } from "../support/e2e/accounts";
import {
  ADMIN_PASSWORD,
  adminDialog,
  categoryId,
  expectCurrentPage,
  expectEdges,
  expectFieldError,
  expectSection,
  loginAsAdmin,
  openAdmin,
  pager,
  postAdminForm,
  postHeaders,
  productId,
  readShowing,
  searchList,
  shot,
  showing,
  uniqueTag,
  uniqueWord,
} from "../support/e2e/admin";
import { expect, test } from "../support/e2e/fixtures";
import { dropExpectedStatusErrors, rupees } from "../support/e2e/helpers";
import { newAccount, registerThroughApi } from "../support/e2e/customers";
import {
  addToCart,
  confirmedOrderId,
  fillShipping,
  gujaratAddress,
  newCustomer,
  ONLINE,
  openCheckout,
  orderCard,
  placeCodOrder,
  placeOrderButton,
  PRODUCTS,
} from "../support/e2e/orders";

/** The seed's image of a product (an illustration the app draws), so new rows load a real image. */
const IMAGE = "/images/products/wrought-iron-bistro-set.svg";

async function expectDashboard(page: Page) {
  await expect(page).toHaveURL(/\/admin$/);
  await expectSection(page, "Dashboard");
  const cards = page.getByRole("list", { name: "Shop figures" }).getByRole("listitem");
  await expect(cards).toHaveCount(4);
  for (const [i, label] of ["Total Revenue", "Total Orders", "Total Products", "Total Customers"].entries()) {
    await expect(cards.nth(i)).toContainText(label);
    await expect(cards.nth(i).getByTestId("stat-change")).toHaveText(
      /^([+-]?\d+\.\d% from last month|New this month|No change from last month)$/,
    );
  }
  await expect(cards.nth(0).getByTestId("stat-value")).toHaveText(/^₹[\d,]+$/);
  await expect(page.getByRole("heading", { name: "Order Status Overview" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Quick Stats" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Recent Orders" })).toBeVisible();
}

test.describe("Admin Access with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "clicks are counted by a script");

  test("five logo clicks open the dialog; a wrong password is refused, the right one opens the dashboard", async ({
    page,
    consoleErrors,
  }, testInfo) => {
    await page.goto("/");
    const logo = page.getByRole("banner").getByRole("link", { name: "Sagwan Living home" });
    const dialog = page.getByRole("dialog", { name: "Admin Access" });

    for (let i = 0; i < 4; i++) await logo.click();
    await expect(page).toHaveURL(/\/$/);
    await expect(dialog).toHaveCount(0);
    await logo.click();
    await expect(dialog).toBeVisible();
    const password = dialog.getByPlaceholder("Enter admin password");
    // The first field, the staff email, takes the focus (left empty: the built-in owner's password).
    await expect(dialog.getByLabel("Email")).toBeFocused();

    // Cancel closes it; the count started again when it opened, so 4 more clicks do nothing.
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toHaveCount(0);
    for (let i = 0; i < 4; i++) await logo.click();
    await expect(dialog).toHaveCount(0);
    await logo.click();
    await expect(dialog).toBeVisible();

    await password.fill("not-the-password");
    await dialog.getByRole("button", { name: "Login" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("Invalid password");
    await expect(password).toHaveAttribute("aria-invalid", "true");
    await expect(page).toHaveURL(/\/$/);
    dropExpectedStatusErrors(consoleErrors, 401);

    await password.fill(ADMIN_PASSWORD);
    await expect(dialog.getByRole("alert")).toHaveCount(0); // the message goes as the field is edited
    await dialog.getByRole("button", { name: "Login" }).click();
    await expectDashboard(page);
    await shot(page, testInfo, "dashboard");
  });
});

test.describe("Admin Access without JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled, "the no-script path (with JavaScript the clicks test covers it)");

  test("/?admin-access shows the dialog; a wrong password is refused, the right one opens the dashboard", async ({
    page,
    consoleErrors,
  }, testInfo) => {
    await page.goto("/?admin-access");
    const dialog = page.getByRole("dialog", { name: "Admin Access" });
    await expect(dialog).toBeVisible();
    await dialog.getByPlaceholder("Enter admin password").fill("not-the-password");
    await dialog.getByRole("button", { name: "Login" }).click();

    // The answer is a page of its own: the form again, with the message, status 401.
    await expect(page).toHaveURL(/\/admin\/login$/);
    await expect(page.getByRole("heading", { level: 1, name: "Admin Access" })).toBeVisible();
    await expect(page.getByRole("main").getByRole("alert")).toHaveText("Invalid password");
    dropExpectedStatusErrors(consoleErrors, 401);

    await page.getByPlaceholder("Enter admin password").fill(ADMIN_PASSWORD);
    await page.getByRole("button", { name: "Login" }).click();
    await expectDashboard(page);
    await shot(page, testInfo, "dashboard");
  });
});

test.describe("Admin guard", () => {
  test("without the admin flag every admin page goes to / and every admin post answers 403", async ({ page }, testInfo) => {
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("navigation", { name: "Admin" })).toHaveCount(0);
    // The other pages by request (the same guard; a browser would land on the home page each time)
    for (const path of [
      "/admin/products",
      "/admin/products?new=1",
      "/admin/categories?q=a",
      "/admin/users",
      "/admin/orders?status=shipped",
      "/admin/orders/1",
      "/admin/login",
    ]) {
      const response = await page.request.get(path, { maxRedirects: 0 });
      expect(response.status(), path).toBe(302);
      expect(response.headers()["location"], path).toBe("/");
    }
    for (const path of ["/admin/products", "/admin/categories", "/admin/users", "/admin/orders/1"]) {
      const post = await page.request.post(path, { form: { intent: "delete", id: "1" }, headers: postHeaders(testInfo), maxRedirects: 0 });
      expect(post.status(), `POST ${path}`).toBe(403);
    }
  });

  test("Logout clears the flag: back to / and /admin sends you to / again", async ({ page }, testInfo) => {
    await openAdmin(page, testInfo, "/admin", "Dashboard");
    // One Logout is in the sidebar (desktop), one in the header (phone): the visible one.
    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("link", { name: "Sagwan Living home" }).first()).toBeVisible();
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/$/);
    const post = await page.request.post("/admin/users", {
      form: { intent: "delete", id: "1" },
      headers: postHeaders(testInfo),
      maxRedirects: 0,
    });
    expect(post.status()).toBe(403);
  });
});

test.describe("Admin lists", () => {
  test("products: pages of 10 with Previous/Next, search, category filter, all in the URL", async ({ page }, testInfo) => {
    await openAdmin(page, testInfo, "/admin/products", "Products");
    const rows = page.getByTestId("product-row");
    const nav = pager(page, "Products");

    // Page 1 (other tests add and remove their own products meanwhile, so Z is read, not fixed)
    const first = await readShowing(page);
    expect(first).toMatchObject({ from: 1, to: 10 });
    expect(first.total).toBeGreaterThanOrEqual(25);
    await expect(rows).toHaveCount(10);
    await expectCurrentPage(nav, 1);
    await expectEdges(nav, { previous: false, next: true });
    await shot(page, testInfo, "products");

    // Page 2 by its number
    await nav.getByRole("link", { name: "Page 2", exact: true }).click();
    await expect(page).toHaveURL(/\/admin\/products\?page=2$/);
    await expectCurrentPage(nav, 2);
    expect(await readShowing(page)).toMatchObject({ from: 11, to: 20 });
    await expect(rows).toHaveCount(10);
    await expectEdges(nav, { previous: true, next: true });

    // Next to the last page (the page numbers are read from the page: other tests' products
    // may come and go meanwhile, so the last page is the one whose Next is disabled)
    for (let guard = 0; guard < 10; guard++) {
      await page.waitForLoadState("domcontentloaded");
      const next = nav.getByRole("link", { name: "Next" });
      if (!(await next.isVisible())) break;
      const before = page.url();
      const here = Number(await nav.locator('[aria-current="page"]').textContent());
      await next.click();
      await expect(page).not.toHaveURL(before);
      // With JavaScript the address changes just before the new page renders: wait for the page
      // itself, or the next round reads the old pager (once a flake: a Next link then gone).
      await expectCurrentPage(nav, here + 1);
    }
    await page.waitForLoadState("domcontentloaded");
    const current = Number(await nav.locator('[aria-current="page"]').textContent());
    expect(current).toBeGreaterThanOrEqual(3);
    const last = await readShowing(page);
    expect(last.from).toBe((current - 1) * 10 + 1);
    expect(last.to).toBe(last.total);
    expect(current).toBe(Math.ceil(last.total / 10));
    await expect(rows).toHaveCount(last.to - last.from + 1);
    await expectEdges(nav, { previous: true, next: false });

    // Previous goes back one page
    await nav.getByRole("link", { name: "Previous" }).click();
    await expectCurrentPage(nav, current - 1);

    // Search: case-insensitive, from page 1 again, pagination hidden for one page
    await searchList(page, "SOFA");
    await expect(page).toHaveURL(/\/admin\/products\?q=SOFA&category=all(&|$)/);
    const seededSofas = [
      "Sheesham Wood 3-Seater Sofa",
      "Chesterfield Velvet 2-Seater Sofa",
      "Mango Wood L-Shaped Sectional Sofa",
      "Convertible Sofa Cum Bed",
      "Wicker 4-Seater Patio Sofa Set",
    ];
    for (const title of seededSofas) await expect(rows.filter({ hasText: title })).toHaveCount(1);
    await expect(rows).toHaveCount(seededSofas.length);
    await expect(showing(page)).toHaveCount(0);
    await expect(page.getByRole("search").getByRole("searchbox", { name: "Search" })).toHaveValue("SOFA");

    // ... and the category filter on top of it
    await searchList(page, "sofa", { Category: "Living Room" });
    await expect(page).toHaveURL(/\/admin\/products\?q=sofa&category=\d+(&|$)/);
    await expect(rows).toHaveCount(4);
    for (const row of await rows.all()) {
      await expect(row).toContainText(/sofa/i);
      await expect(row.locator("td").nth(2)).toHaveText("Living Room");
    }
    await expect(page.getByRole("search").getByRole("combobox", { name: "Category" })).toHaveValue(/^\d+$/);

    // The URL alone brings the same list back (a reload, a shared link)
    await page.reload();
    await expect(rows).toHaveCount(4);

    // Nothing matches
    await searchList(page, "no such furniture");
    await expect(page.getByText("No products match this search.")).toBeVisible();
    await expect(rows).toHaveCount(0);

    // Clear goes back to the whole list
    await page.getByRole("search").getByRole("link", { name: "Clear" }).click();
    await expect(page).toHaveURL(/\/admin\/products$/);
    await expect(rows).toHaveCount(10);
  });

  test("categories: search; a category with products cannot be deleted; the form's messages", async ({ page, consoleErrors }, testInfo) => {
    await openAdmin(page, testInfo, "/admin/categories", "Categories");
    const rows = page.getByTestId("category-row");
    await expect(rows).toHaveCount(5);
    await expect(showing(page)).toHaveCount(0); // one page: no pagination

    await searchList(page, "DINING");
    await expect(page).toHaveURL(/\/admin\/categories\?q=DINING$/);
    await expect(rows).toHaveCount(1);
    await expect(rows.locator("td").nth(1)).toHaveText("Dining Room");
    await expect(rows.locator("td").nth(2)).toHaveText("dining-room");

    await searchList(page, "zzz-nothing");
    await expect(page.getByText('No categories match "zzz-nothing".')).toBeVisible();

    // Office still has products: the delete is refused, with the reason, in the dialog
    await searchList(page, "office");
    await expect(rows).toHaveCount(1);
    await rows.getByRole("link", { name: "Delete Office" }).click();
    await expect(page).toHaveURL(/\/admin\/categories\?q=office&delete=\d+$/);
    const confirm = adminDialog(page, "Delete category");
    await expect(confirm).toContainText("Are you sure you want to delete this category?");
    await expect(confirm).toContainText("Office");
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expect(confirm.getByRole("alert")).toHaveText(
      /^This category still has \d+ products?\. Move or delete (it|them) first, then delete the category\.$/,
    );
    dropExpectedStatusErrors(consoleErrors, 409);
    await confirm.getByRole("link", { name: "Cancel" }).click();
    await expect(confirm).toHaveCount(0);
    await expect(page).toHaveURL(/\/admin\/categories\?q=office$/);
    await expect(rows).toHaveCount(1);

    // Add Category: the required fields and the image URL's shape (nothing is saved)
    await page.getByRole("link", { name: "Add Category" }).click();
    const form = adminDialog(page, "Add Category");
    await form.getByRole("button", { name: "Add Category" }).click();
    await expectFieldError(form, "Title", "Title is required");
    await expectFieldError(form, "Description", "Description is required");
    await expectFieldError(form, "Image URL", "Image URL is required");
    await form.getByLabel("Title", { exact: true }).fill("Never saved");
    await form.getByLabel("Description", { exact: true }).fill("A category this test does not save.");
    await form.getByLabel("Image URL", { exact: true }).fill("javascript:alert(1)");
    await form.getByRole("button", { name: "Add Category" }).click();
    await expectFieldError(form, "Image URL", "Please enter a valid image URL (https://… or /images/…)");
    // A refused address is never previewed (the CSP would block it and log an error).
    await expect(form.locator("fieldset img")).toHaveCount(0);
    await expect(form.getByLabel("Title", { exact: true })).toHaveValue("Never saved");
    dropExpectedStatusErrors(consoleErrors, 400);
    await form.getByRole("link", { name: "Cancel" }).click();
    await expect(form).toHaveCount(0);
    await expect(page).toHaveURL(/\/admin\/categories\?q=office$/);
    await expect(rows).toHaveCount(1);
  });

  test("users: add (mobile N/A), search, pages, edit, delete", async ({ page }, testInfo) => {
    await loginAsAdmin(page, testInfo);
    const tag = uniqueTag(testInfo);
    // Eleven users through the admin's own form (setup), the twelfth through the dialog.
    for (let i = 1; i <= 11; i++) {
      await postAdminForm(page, testInfo, "/admin/users", {
        intent: "create",
        name: `Listed ${tag} ${i}`,
        email: `${tag}-${i}@example.com`,
        mobile: `98765${String(100000 + i).slice(1)}`,
      });
    }
    await page.goto("/admin/users");
    await expectSection(page, "Users");
    const rows = page.getByTestId("user-row");

    await page.getByRole("link", { name: "Add User" }).click();
    await expect(page).toHaveURL(/\/admin\/users\?new=1$/);
    const add = adminDialog(page, "Add User");
    const name = `Added ${tag}`;
    const email = `${tag}-added@example.com`;
    await add.getByLabel("Name", { exact: true }).fill(name);
    await add.getByLabel("Email", { exact: true }).fill(email);
    await add.getByRole("button", { name: "Add User" }).click();
    await expect(toast(page, "User added")).toBeVisible();
    await expect(add).toHaveCount(0);
    await expect(page).toHaveURL(/\/admin\/users$/);

    // Search by the tag: 12 rows, newest first, in two pages
    await searchList(page, tag.toUpperCase());
    const nav = pager(page, "Users");
    expect(await readShowing(page)).toEqual({ from: 1, to: 10, total: 12 });
    await expect(rows).toHaveCount(10);
    const added = rows.filter({ hasText: email });
    await expect(added.locator("td").nth(0)).toHaveText(name);
    await expect(added.locator("td").nth(2)).toHaveText("N/A");
    await expect(added.locator("td").nth(3)).toHaveText("0");
    await expectEdges(nav, { previous: false, next: true });
    await nav.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/\/admin\/users\?q=[^&]+&page=2$/);
    expect(await readShowing(page)).toEqual({ from: 11, to: 12, total: 12 });
    await expect(rows).toHaveCount(2);
    await expectEdges(nav, { previous: true, next: false });
    await expect(rows.filter({ hasText: `${tag}-1@example.com` })).toHaveCount(1);

    // Search by email and mobile too
    await searchList(page, `${tag}-7@example`);
    await expect(rows).toHaveCount(1);
    await expect(rows.locator("td").nth(2)).toHaveText("9876500007");

    // Edit the one added through the dialog
    await searchList(page, email);
    await expect(rows).toHaveCount(1);
    await rows.getByRole("link", { name: `Edit ${name}` }).click();
    const edit = adminDialog(page, "Edit User");
    await expect(edit.getByLabel("Name", { exact: true })).toHaveValue(name);
    await expect(edit.getByLabel("Email", { exact: true })).toHaveValue(email);
    await expect(edit.getByLabel("Mobile", { exact: true })).toHaveValue("");
    const renamed = `Renamed ${tag}`;
    await edit.getByLabel("Name", { exact: true }).fill(renamed);
    await edit.getByLabel("Mobile", { exact: true }).fill("+91 98765 43210");
    await edit.getByRole("button", { name: "Save Changes" }).click();
    await expect(toast(page, "User updated")).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/users\?q=[^&]+$/); // back to the list as it was
    await expect(rows.locator("td").nth(0)).toHaveText(renamed);
    await expect(rows.locator("td").nth(2)).toHaveText("9876543210");

    // Delete it
    await rows.getByRole("link", { name: `Delete ${renamed}` }).click();
    const confirm = adminDialog(page, "Delete user");
    await expect(confirm).toContainText("Are you sure you want to delete this user?");
    await expect(confirm).toContainText(`${renamed} (${email})`);
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expect(toast(page, "User deleted")).toBeVisible();
    await expect(page.getByText(`No users match "${email}".`)).toBeVisible();
  });
});

test("a product added (after a validation message), edited and deleted, as the storefront shows it", async ({
  page,
  consoleErrors,
}, testInfo) => {
  await openAdmin(page, testInfo, "/admin/products", "Products");
  const tag = uniqueTag(testInfo);
  const title = `Admin Test Stool ${tag}`;
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  const rows = page.getByTestId("product-row");

  await page.getByRole("link", { name: "Add Product" }).click();
  await expect(page).toHaveURL(/\/admin\/products\?new=1$/);
  const add = adminDialog(page, "Add Product");
  await expect(add.getByRole("checkbox", { name: "In Stock" })).toBeChecked();
  await expect(add.getByRole("checkbox", { name: "Featured" })).not.toBeChecked();
  await expect(add.getByLabel("Units in stock", { exact: true })).toHaveValue("10");
  const madeToOrder = (dialog: typeof add) => dialog.getByRole("checkbox", { name: "Made to order (14-21 business days)" });
  await expect(madeToOrder(add)).not.toBeChecked();

  // Everything but the title: 'Title is required' beside it, the rest kept
  await add.getByLabel("Category", { exact: true }).selectOption({ label: "Outdoor" });
  await add.getByLabel("Price (₹)", { exact: true }).fill("123456");
  await add.getByLabel("Description", { exact: true }).fill("A low stool for the balcony, made for this test.");
  await add.getByLabel("Image URL", { exact: true }).fill(IMAGE);
  await add.getByLabel("Units in stock", { exact: true }).fill("7");
  await add.getByLabel("Specification 1 name", { exact: true }).fill("Material");
  await add.getByLabel("Specification 1 value", { exact: true }).fill("Weathered acacia");
  await madeToOrder(add).check();
  await add.getByRole("button", { name: "Add Product" }).click();
  await expectFieldError(add, "Title", "Title is required");
  await expect(add.getByLabel("Price (₹)", { exact: true })).toHaveValue("123456");
  await expect(add.getByLabel("Specification 1 value", { exact: true })).toHaveValue("Weathered acacia");
  await expect(madeToOrder(add)).toBeChecked();
  await expect(page).toHaveURL(/\/admin\/products\?new=1$/);
  dropExpectedStatusErrors(consoleErrors, 400);
  await shot(page, testInfo, "product-dialog");

  await add.getByLabel("Title", { exact: true }).fill(title);
  await add.getByRole("button", { name: "Add Product" }).click();
  await expect(toast(page, "Product added")).toBeVisible();
  await expect(add).toHaveCount(0);
  await expect(page).toHaveURL(/\/admin\/products$/);

  await searchList(page, tag);
  await expect(rows).toHaveCount(1);
  await expect(rows.getByRole("link", { name: title, exact: true })).toHaveAttribute("href", `/product/${slug}`);
  await expect(rows.locator("td").nth(2)).toHaveText("Outdoor");
  await expect(rows.locator("td").nth(3)).toHaveText("₹1,23,456");
  await expect(rows.locator("td").nth(4)).toHaveText("7");
  await expect(rows.locator("td").nth(5)).toHaveText("No");

  // The storefront (its Specifications tab, which shows the title, price and stock too); made to
  // order, so Check delivery for Ahmedabad (a metro: 5-7 days) says 14-21 (the pincode is kept for the visit)
  await page.goto(`/product/${slug}?tab=specifications&pincode=380009`);
  await expect(page.getByTestId("made-to-order")).toContainText("Made to order: this piece is made for you once you order it");
  await expect(page.getByTestId("delivery-answer")).toContainText("14-21 business days to Ahmedabad");
  await shot(page, testInfo, "product-made-to-order");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
  await expect(page.locator("h1 + p")).toHaveText(rupees(123456));
  await expect(page.locator("h1 + p")).toHaveText("₹1,23,456");
  await expect(page.getByTestId("stock")).toHaveText("In Stock");
  await expect(page.getByRole("row", { name: "Material Weathered acacia" })).toBeVisible();

  // Edit: new price, out of stock
  await page.goto(`/admin/products?q=${encodeURIComponent(tag)}`);
  await rows.getByRole("link", { name: `Edit ${title}` }).click();
  const edit = adminDialog(page, "Edit Product");
  await expect(edit.getByLabel("Title", { exact: true })).toHaveValue(title);
  await expect(edit.getByLabel("Category", { exact: true })).toHaveValue(String(await categoryId(page, "outdoor")));
  await expect(edit.getByLabel("Price (₹)", { exact: true })).toHaveValue("123456");
  await expect(edit.getByLabel("Specification 1 name", { exact: true })).toHaveValue("Material");
  await edit.getByLabel("Price (₹)", { exact: true }).fill("7499");
  await edit.getByRole("checkbox", { name: "In Stock" }).uncheck();
  await expect(madeToOrder(edit)).toBeChecked();
  await madeToOrder(edit).uncheck();
  await edit.getByRole("button", { name: "Save Changes" }).click();
  await expect(toast(page, "Product updated")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/admin/products\\?q=${tag}$`));
  await expect(rows.locator("td").nth(3)).toHaveText("₹7,499");
  await expect(rows.locator("td").nth(4)).toHaveText("Out of Stock");

  await page.goto(`/product/${slug}`);
  await expect(page.locator("h1 + p")).toHaveText("₹7,499");
  await expect(page.getByTestId("stock")).toHaveText("Out of Stock");
  await expect(page.getByTestId("made-to-order")).toHaveCount(0);
  await expect(page.getByTestId("delivery-answer")).toContainText("5-7 business days to Ahmedabad");

  // Delete
  await page.goto(`/admin/products?q=${encodeURIComponent(tag)}`);
  await rows.getByRole("link", { name: `Delete ${title}` }).click();
  const confirm = adminDialog(page, "Delete product");
  await expect(confirm).toContainText("Are you sure you want to delete this product?");
  await expect(confirm).toContainText(title);
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, "Product deleted")).toBeVisible();
  await expect(page.getByText("No products match this search.")).toBeVisible();

  const gone = await page.goto(`/product/${slug}`);
  expect(gone?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Product Not Found");
  dropExpectedStatusErrors(consoleErrors, 404);
});

/** A product of this test's own (Outdoor, not featured, plenty of stock), made by the admin's form. */
async function ownProduct(page: Page, testInfo: TestInfo, tag: string) {
  const title = `Order Test Bench ${tag}`;
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  await postAdminForm(page, testInfo, "/admin/products", {
    intent: "create",
    title,
    categoryId: String(await categoryId(page, "outdoor")),
    price: "2500",
    imgPath: IMAGE,
    description: "A bench the order test buys eleven times.",
    inStock: "on",
    stock: "100",
  });
  return { title, slug, id: await productId(page, slug) };
}

test("orders: summary cards, search, status filter, pages; Shipped is what the customer then sees", async ({ page }, testInfo) => {
  test.slow(); // a sign-up, a checkout and eleven orders
  const tag = uniqueTag(testInfo);
  const shipName = `Kavya ${uniqueWord()}`;
  const account = await newCustomer(page, testInfo, "admin-orders");
  const shipping = { ...gujaratAddress(account), name: shipName };

  // The same browser is the admin too (the flag joins the customer's session): a product of its own.
  await loginAsAdmin(page, testInfo);
  const product = await ownProduct(page, testInfo, tag);

  // Ten orders by the API: one of this customer's, nine of two more customers shipping to the same
  // name (an account holds at most five open cash-on-delivery orders); then the newest through the checkout page
  const own = { Origin: testInfo.project.use.baseURL! };
  expect((await page.request.post("/api/cart/add", { data: { itemId: product.id, quantity: 1 }, headers: own })).status()).toBe(200);
  expect((await page.request.post("/api/orders/add", { data: { ...shipping, paymentMethod: "cod" }, headers: own })).status()).toBe(201);
  const api = await request.newContext({ baseURL: testInfo.project.use.baseURL });
  try {
    for (const [n, count] of [
      [1, 5],
      [2, 4],
    ]) {
      const token = await registerThroughApi(api, newAccount(testInfo, { tag: `admin-orders-${n}` }), testInfo);
      const headers = { Authorization: `Bearer ${token}` };
      for (let i = 0; i < count!; i++) {
        expect((await api.post("/api/cart/add", { data: { itemId: product.id, quantity: 1 }, headers })).status()).toBe(200);
        expect((await api.post("/api/orders/add", { data: { ...shipping, paymentMethod: "cod" }, headers })).status()).toBe(201);
      }
    }
  } finally {
    await api.dispose();
  }
  await addToCart(page, product, 1);
  const orderId = await placeCodOrder(page, shipping);

  // The list: cards, then search by the shipping name (case-insensitive) in two pages
  await page.goto("/admin/orders");
  await expectSection(page, "Orders");
  const figure = async (key: string) => Number(await page.getByTestId(`orders-${key}`).locator("p").nth(1).textContent());
  await expect(page.getByTestId("orders-total")).toContainText("Total Orders");
  await expect(page.getByTestId("orders-processing")).toContainText("Processing");
  await expect(page.getByTestId("orders-delivered")).toContainText("Delivered");
  await expect(page.getByTestId("orders-cancelled")).toContainText("Cancelled");
  const total = await figure("total");
  expect(total).toBeGreaterThanOrEqual(11);
  expect(await figure("processing")).toBeGreaterThanOrEqual(11);
  expect(total).toBeGreaterThanOrEqual((await figure("processing")) + (await figure("delivered")) + (await figure("cancelled")));
  await expect(page.getByRole("search").getByRole("combobox", { name: "Status" })).toHaveValue("all");

  const rows = page.getByTestId("order-row");
  const nav = pager(page, "Orders");
  await searchList(page, shipName.toLowerCase());
  await expect(page).toHaveURL(/\/admin\/orders\?q=kavya\+[a-z]+&status=all(&|$)/);
  expect(await readShowing(page, "orders")).toEqual({ from: 1, to: 10, total: 11 });
  await expect(rows).toHaveCount(10);
  const newest = rows.first();
  await expect(newest.locator("td").nth(0)).toHaveText(`#${orderId}`);
  await expect(newest.locator("td").nth(1)).toHaveText(shipName);
  await expect(newest.locator("td").nth(2)).toHaveText("1 items");
  await expect(newest.locator("td").nth(3)).toHaveText(/^₹[\d,]+$/);
  await expect(newest.getByTestId("status-badge")).toHaveText("Processing");
  await shot(page, testInfo, "orders");
  await nav.getByRole("link", { name: "Page 2", exact: true }).click();
  await expectCurrentPage(nav, 2);
  expect(await readShowing(page, "orders")).toEqual({ from: 11, to: 11, total: 11 });
  await expectEdges(nav, { previous: true, next: false });

  // Status filter
  await searchList(page, shipName, { Status: "Delivered" });
  await expect(page).toHaveURL(/[?&]status=delivered(&|$)/);
  await expect(page.getByText("No orders match this search.")).toBeVisible();
  await searchList(page, shipName, { Status: "Processing" });
  expect(await readShowing(page, "orders")).toMatchObject({ total: 11 });

  // By the order id ('#' optional), then its page
  // (a substring of the id: #12 also finds #112, so look for its row among them)
  await searchList(page, `#${orderId}`, { Status: "All Status" });
  const details = rows.getByRole("link", { name: `View Details of order #${orderId}`, exact: true });
  await expect(details).toBeVisible();
  await page.waitForLoadState("domcontentloaded");
  for (const id of await rows.locator("td:first-child").allTextContents()) expect(id).toContain(String(orderId));
  await details.click();
  await expect(page).toHaveURL(new RegExp(`/admin/orders/${orderId}$`));
  await expect(page.getByRole("heading", { level: 2, name: `Order #${orderId}` })).toBeVisible();
  const main = page.getByRole("main");
  await expect(main.getByTestId("status-badge").first()).toHaveText("Processing");
  await expect(main).toContainText(product.title);
  await expect(main).toContainText("Ahmedabad, Gujarat - 380009");
  const select = page.getByRole("combobox", { name: "New status" });
  await expect(select.locator("option")).toHaveText(["Shipped", "Cancelled"]);
  await shot(page, testInfo, "order");

  await select.selectOption({ label: "Shipped" });
  await page.getByRole("button", { name: "Update Status" }).click();
  await expect(toast(page, "Status Change Successfully")).toBeVisible();
  await expect(main.getByTestId("status-badge").first()).toHaveText("Shipped");
  await expect(select.locator("option")).toHaveText(["Delivered", "Cancelled"]);

  await page.goto(`/admin/orders?q=${encodeURIComponent(shipName)}&status=shipped`);
  await expect(rows).toHaveCount(1);
  await expect(rows.getByTestId("status-badge")).toHaveText("Shipped");

  // Deleting the product keeps its orders whole (they hold their own copy of it)
  const productRows = page.getByTestId("product-row");
  await page.goto(`/admin/products?q=${encodeURIComponent(tag)}&delete=${product.id}`);
  await adminDialog(page, "Delete product").getByRole("button", { name: "Delete" }).click();
  await expect(toast(page, "Product deleted")).toBeVisible();
  await expect(productRows).toHaveCount(0);
  await page.goto(`/admin/orders/${orderId}`);
  await expect(page.getByRole("main")).toContainText(product.title);

  // The admin logs out; the customer stays signed in and sees Shipped, with no Cancel Order
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto("/orders");
  await expect(page).toHaveURL(/\/orders$/);
  const card = orderCard(page, orderId);
  await expect(card.getByTestId("status-badge")).toHaveText("Shipped");
  await expect(card.getByRole("link", { name: "Cancel Order" })).toHaveCount(0);
  await expect(card).toContainText(product.title);
  const older = page.getByTestId("order-card").nth(1);
  await expect(older.getByTestId("status-badge")).toHaveText("Processing");
  await expect(older.getByRole("link", { name: "Cancel Order" })).toBeVisible();
});

test("an order paid on the test gateway ships only once the staff tick that no money was received", async ({
  page,
  consoleErrors,
}, testInfo) => {
  test.slow(); // a checkout, a payment and two status posts
  const account = await newCustomer(page, testInfo, "admin-test-paid");
  await addToCart(page, PRODUCTS.officeChair, 1);
  await openCheckout(page);
  await fillShipping(page, gujaratAddress(account));
  await page.getByRole("radio", { name: ONLINE }).check();
  await placeOrderButton(page).click();
  await expect(page).toHaveURL(/\/pay\/order_[A-Za-z0-9]+$/);
  await page.getByRole("button", { name: /^Pay ₹/ }).click();
  await expect(page).toHaveURL(/\/test-gateway\/order_[A-Za-z0-9]+$/); // the gateway's own page: pay there
  await page.getByRole("button", { name: /^Pay ₹/ }).click();
  const orderId = await confirmedOrderId(page);

  await loginAsAdmin(page, testInfo);
  await page.goto(`/admin/orders?q=%23${orderId}`);
  const row = page.getByTestId("order-row").filter({ hasText: `#${orderId}` });
  await expect(row.getByTestId("test-payment")).toHaveText("Test payment");
  await row.getByRole("link", { name: `View Details of order #${orderId}`, exact: true }).click();
  const main = page.getByRole("main");
  await expect(main).toContainText("Paid online (test payment: no money was taken)");

  // Shipped without the tick: refused beside the box, still Processing.
  const select = page.getByRole("combobox", { name: "New status" });
  await select.selectOption({ label: "Shipped" });
  await page.getByRole("button", { name: "Update Status" }).click();
  const refusal = "This order was paid on the test gateway: no money was received for it. Confirm that you want to ship it anyway.";
  await expect(page.getByRole("alert").filter({ hasText: refusal })).toBeVisible();
  await expect(page.getByTestId("ship-unpaid")).toContainText("Tick this box to ship it without payment.");
  dropExpectedStatusErrors(consoleErrors, 409);
  await expect(main.getByTestId("status-badge").first()).toHaveText("Processing");
  await shot(page, testInfo, "ship-unpaid");

  // With it: shipped.
  await select.selectOption({ label: "Shipped" });
  await page.getByRole("checkbox", { name: "Ship although no money was received (test payment)" }).check();
  await page.getByRole("button", { name: "Update Status" }).click();
  await expect(toast(page, "Status Change Successfully")).toBeVisible();
  await expect(main.getByTestId("status-badge").first()).toHaveText("Shipped");
});
