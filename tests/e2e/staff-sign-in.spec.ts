// Staff sign-in in the browser (docs/decisions/0033): the Admin Access dialog takes an email and
// password, then the code from the authenticator app (typed here from the secret the test seeded),
// with JavaScript (five logo clicks; the code form appears in the dialog) and without
// (/?admin-access, then the /admin/login/code page). A wrong code is refused with its message; the
// right one opens the dashboard, and the account page lists this session.
import type { Page } from "@playwright/test";
import { expectSection, uniqueTag } from "../support/e2e/admin";
import { expect, test } from "../support/e2e/fixtures";
import { dropExpectedStatusErrors } from "../support/e2e/helpers";
import { currentCode, ON_CLUSTER, seedStaff } from "../support/e2e/staff";

test.skip(ON_CLUSTER, "seeds its staff account into the SQLite database of npm test's server");

async function expectSignedIn(page: Page) {
  await expect(page).toHaveURL(/\/admin$/);
  await expectSection(page, "Dashboard");
  await page.goto("/admin/account");
  const sessions = page.getByRole("list", { name: "Active sessions" });
  await expect(sessions.getByText("This device")).toBeVisible();
}

test.describe("with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "clicks are counted by a script");

  test("five logo clicks, email and password, then the code in the dialog", async ({ page, consoleErrors }, testInfo) => {
    const staff = await seedStaff("manager", uniqueTag(testInfo), true);
    await page.goto("/");
    const logo = page.getByRole("banner").getByRole("link", { name: "Sagwan Living home" });
    for (let i = 0; i < 5; i++) await logo.click();
    const dialog = page.getByRole("dialog", { name: "Admin Access" });
    await expect(dialog).toBeVisible();
    await dialog.getByLabel("Email").fill(staff.email);
    await dialog.getByPlaceholder("Enter admin password").fill("not-the-password");
    await dialog.getByRole("button", { name: "Login" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("Invalid email or password");
    dropExpectedStatusErrors(consoleErrors, 401);

    await dialog.getByPlaceholder("Enter admin password").fill(staff.password);
    await dialog.getByRole("button", { name: "Login" }).click();
    const code = dialog.getByLabel("Sign-in code");
    await expect(code).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await code.fill("000000" === (await currentCode(staff.totpSecret!)) ? "111111" : "000000");
    await dialog.getByRole("button", { name: "Verify" }).click();
    await expect(dialog.getByRole("alert")).toHaveText("Invalid or expired code");
    dropExpectedStatusErrors(consoleErrors, 400);

    await code.fill(await currentCode(staff.totpSecret!));
    await dialog.getByRole("button", { name: "Verify" }).click();
    await expectSignedIn(page);
  });
});

test.describe("without JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled, "the no-script path (with JavaScript the clicks test covers it)");

  test("/?admin-access, email and password, then the code page", async ({ page, consoleErrors }, testInfo) => {
    const staff = await seedStaff("manager", uniqueTag(testInfo), true);
    await page.goto("/?admin-access");
    const dialog = page.getByRole("dialog", { name: "Admin Access" });
    await dialog.getByLabel("Email").fill(staff.email);
    await dialog.getByPlaceholder("Enter admin password").fill(staff.password);
    await dialog.getByRole("button", { name: "Login" }).click();

    await expect(page).toHaveURL(/\/admin\/login\/code$/);
    const code = page.getByLabel("Sign-in code");
    await code.fill("000000" === (await currentCode(staff.totpSecret!)) ? "111111" : "000000");
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.getByRole("main").getByRole("alert")).toHaveText("Invalid or expired code");
    dropExpectedStatusErrors(consoleErrors, 400);

    await page.getByLabel("Sign-in code").fill(await currentCode(staff.totpSecret!));
    await page.getByRole("button", { name: "Verify" }).click();
    await expectSignedIn(page);
  });
});
