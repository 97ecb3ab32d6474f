// The audit trail in the browser, with and without JavaScript: the owner makes changes in the
// back-office, filters /admin/audit by object and day with its plain GET form, sees the rows (and
// pages of them), follows a row to the object it names, and downloads the same rows as CSV; an
// order's page shows its own history; axe finds nothing to fix on the audit page. Each test names
// its rows uniquely (tests run in parallel on one database).
import AxeBuilder from "@axe-core/playwright";
import { adminDialog, expectSection, loginAsAdmin, postAdminForm, uniqueTag } from "../support/e2e/admin";
import { expect, test } from "../support/e2e/fixtures";
import { addToCart, gujaratAddress, newCustomer, placeCodOrder, PRODUCTS } from "../support/e2e/orders";

/** Today in India, as a date input holds it. */
const indianToday = () => new Date(Date.now() + 330 * 60 * 1000).toISOString().slice(0, 10);

test.describe("Audit trail", () => {
  test("the owner filters the trail by object and day, sees the changes, pages them, opens one and exports them", async ({
    page,
  }, testInfo) => {
    await loginAsAdmin(page, testInfo);
    const tag = uniqueTag(testInfo);
    const email = `audited-${tag}@example.com`;
    // A customer added, then edited eleven times, through the admin's own form: twelve rows of one object.
    await postAdminForm(page, testInfo, "/admin/users", { intent: "create", name: `Audited ${tag} v0`, email, mobile: "" });
    await page.goto(`/admin/users?q=${encodeURIComponent(tag)}`);
    const edit = await page.getByRole("link", { name: `Edit Audited ${tag} v0` }).getAttribute("href");
    const id = /[?&]edit=(\d+)/.exec(edit ?? "")?.[1];
    expect(id, "the customer's id").toBeTruthy();
    for (let i = 1; i <= 11; i++)
      await postAdminForm(page, testInfo, "/admin/users", { intent: "update", id: id!, name: `Audited ${tag} v${i}`, email, mobile: "" });

    await page.goto("/admin/audit");
    await expectSection(page, "Audit trail");
    const filters = page.getByRole("form", { name: "Filter the audit trail" });
    await filters.getByRole("combobox", { name: "Object", exact: true }).selectOption({ label: "Customers" });
    await filters.getByRole("textbox", { name: "Object ID", exact: true }).fill(id!);
    await filters.getByRole("textbox", { name: "From", exact: true }).fill(indianToday());
    await filters.getByRole("textbox", { name: "To", exact: true }).fill(indianToday());
    await filters.getByRole("button", { name: "Filter" }).click();
    const query = `entity=user&entityId=${id}&from=${indianToday()}&to=${indianToday()}`;
    await expect(page).toHaveURL(new RegExp(`/admin/audit\\?person=&${query}$`));

    // Newest first: the last edit heads the list, ten a page.
    const rows = page.getByTestId("audit-row");
    await expect(rows).toHaveCount(10);
    await expect(rows.first()).toContainText(`Edited user Audited ${tag} v11`);
    await expect(rows.nth(9)).toContainText(`Edited user Audited ${tag} v2`);
    await expect(page.getByTestId("showing")).toHaveText("Showing 1 to 10 of 12 changes");
    await expect(filters.getByRole("combobox", { name: "Object", exact: true })).toHaveValue("user");

    // The second page keeps the filters and holds the two oldest.
    await page.getByRole("navigation", { name: "Audit trail pages" }).getByRole("link", { name: "Page 2", exact: true }).click();
    await expect(page).toHaveURL(/[?&]page=2(&|$)/);
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText(`Edited user Audited ${tag} v1`);
    await expect(rows.nth(1)).toContainText(`Created user Audited ${tag} v0`);
    await expect(filters.getByRole("textbox", { name: "Object ID", exact: true })).toHaveValue(id!);

    // The export link carries the filters (not the page); its file has all twelve, newest first.
    const exportLink = page.getByRole("link", { name: "Export CSV" });
    await expect(exportLink).toHaveAttribute("href", `/admin/audit/export.csv?${query}`);
    const csv = await page.request.get((await exportLink.getAttribute("href"))!);
    expect(csv.status()).toBe(200);
    expect(csv.headers()["content-type"]).toBe("text/csv; charset=utf-8");
    const records = (await csv.text()).split("\r\n").filter((line) => line.includes(`Audited ${tag} v`));
    expect(records).toHaveLength(12);
    expect(records[0]).toContain(`Audited ${tag} v11`);
    expect(records[11]).toContain(`Created user Audited ${tag} v0`);

    // A row links to the object it names: the customer's edit dialog.
    await rows
      .nth(0)
      .getByRole("link", { name: `Customer ${id}` })
      .click();
    await expect(page).toHaveURL(new RegExp(`/admin/users\\?edit=${id}$`));
    await expect(adminDialog(page, "Edit User")).toBeVisible();
  });

  test("a filter that matches nothing says so; Clear shows everything again", async ({ page }, testInfo) => {
    await loginAsAdmin(page, testInfo);
    await page.goto("/admin/audit?entity=order&entityId=999999999");
    await expectSection(page, "Audit trail");
    await expect(page.getByText("No changes match these filters.")).toBeVisible();
    await page.getByRole("link", { name: "Clear" }).click();
    await expect(page).toHaveURL(/\/admin\/audit$/);
    await expect(
      page.getByRole("form", { name: "Filter the audit trail" }).getByRole("textbox", { name: "Object ID", exact: true }),
    ).toHaveValue("");
  });

  test("an order's page shows its own history: who changed the status, and when", async ({ page }, testInfo) => {
    test.slow(); // a checkout, then a status change
    const account = await newCustomer(page, testInfo, "audit-history");
    await addToCart(page, PRODUCTS.officeChair, 1);
    const orderId = await placeCodOrder(page, gujaratAddress(account));

    await loginAsAdmin(page, testInfo);
    await page.goto(`/admin/orders/${orderId}`);
    const history = page.getByRole("region", { name: "History" });
    await expect(history).toContainText("No changes made in the back-office yet.");
    await page.getByRole("combobox", { name: "New status" }).selectOption({ label: "Shipped" });
    await page.getByRole("button", { name: "Update Status" }).click();
    await expect(page.getByRole("main").getByTestId("status-badge").first()).toHaveText("Shipped");
    const entry = history.getByTestId("order-history-entry");
    await expect(entry).toHaveCount(1);
    await expect(entry).toContainText(`Order #${orderId}: processing → shipped`);
    await expect(entry.locator("time")).toHaveText(/^\d{1,2} [A-Z][a-z]{2,3} \d{4}, \d{1,2}:\d{2} (am|pm)$/);
  });

  test("the audit page has no WCAG 2 A/AA violations", async ({ page, javaScriptEnabled }, testInfo) => {
    test.skip(!javaScriptEnabled, "axe runs inside the page, so it needs JavaScript");
    // Three scans, each its own few seconds on a busy machine.
    test.slow();
    await loginAsAdmin(page, testInfo);
    await postAdminForm(page, testInfo, "/admin/users", {
      intent: "create",
      name: `Scanned ${uniqueTag(testInfo)}`,
      email: `scanned-${uniqueTag(testInfo)}@example.com`,
      mobile: "",
    });
    for (const path of ["/admin/audit", "/admin/audit?entity=user", "/admin/audit?entity=order&entityId=999999999"]) {
      await page.goto(path);
      await expectSection(page, "Audit trail");
      const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
      const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
      expect(summary, `axe violations on ${path}`).toEqual([]);
    }
  });
});
