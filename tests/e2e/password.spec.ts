// Passwords, with and without JavaScript: changing it on the profile, and the emailed
// single-use reset link from 'Forgot password'. Each test makes its own customer (through the
// API: the sign-up pages are the accounts spec's).
import { MAIL_DIR } from "../../playwright.config";
import { mailsTo } from "../support/outbox";
import { banner, logoutFromHeader, mailedResetLink, submitLogin, toast, uniqueEmail } from "../support/e2e/accounts";
import { createCustomer, signedInCustomer } from "../support/e2e/customers";
import { expect, jsEnabled, test } from "../support/e2e/fixtures";
import { dropExpectedStatusErrors } from "../support/e2e/helpers";

test("change the password on the profile; the old one stops working", async ({ page, consoleErrors }, testInfo) => {
  test.slow(); // several sign-ups, logins and page posts: more than the default 30 s on a busy machine
  const js = jsEnabled(testInfo.project.name);
  const account = await signedInCustomer(page, testInfo);
  const newPassword = "Sheesham-new-77";
  await page.goto("/profile");

  const security = page.getByRole("region", { name: "Account Security" });
  await expect(security).toContainText("strong, unique password");
  await security.getByRole("link", { name: "Change Password" }).click();
  const current = security.getByLabel("Current Password", { exact: true });
  const fresh = security.getByLabel("New Password", { exact: true });
  const confirm = security.getByLabel("Confirm New Password", { exact: true });
  const update = security.getByRole("button", { name: "Update Password" });

  // A wrong current password
  await current.fill("not-my-password");
  await fresh.fill(newPassword);
  await confirm.fill(newPassword);
  await update.click();
  await expect(banner(page)).toHaveText("Your current password is incorrect");
  await expect(current).toHaveAccessibleDescription("Your current password is incorrect");

  // The right one
  await current.fill(account.password);
  await fresh.fill(newPassword);
  await confirm.fill(newPassword);
  await update.click();
  await expect(toast(page, "Password changed successfully")).toBeVisible();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(security.getByRole("link", { name: "Change Password" })).toBeVisible();
  // still signed in here
  await expect(page.getByRole("heading", { level: 1, name: "My Account" })).toBeVisible();

  await logoutFromHeader(page, js, account.name);
  await page.goto("/login");
  await submitLogin(page, account.email, account.password);
  await expect(banner(page)).toHaveText("Invalid email or password");
  await submitLogin(page, account.email, newPassword);
  await expect(page).toHaveURL(/\/profile$/);
  await expect(toast(page, "Login successfully")).toBeVisible();

  dropExpectedStatusErrors(consoleErrors, 400); // the wrong current password
  dropExpectedStatusErrors(consoleErrors, 401); // the old password at login
});

test("forgot password: the emailed link sets a new password once", async ({ page, consoleErrors }, testInfo) => {
  test.slow(); // several sign-ups, logins and page posts: more than the default 30 s on a busy machine
  const account = await createCustomer(testInfo);
  const newPassword = "Rosewood-reset-31";

  // An unknown email gets the same answer as a customer's, and no mail.
  const unknown = uniqueEmail(testInfo, "nobody");
  await page.goto("/forgot-password");
  await page.getByLabel("Email Address", { exact: true }).fill(unknown);
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Check Your Email" })).toBeVisible();

  // The customer's request, from the login page
  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot password", exact: true }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByRole("heading", { level: 1, name: "Forgot Your Password?" })).toBeVisible();
  await page.getByLabel("Email Address", { exact: true }).fill(account.email);
  await page.getByRole("button", { name: "Send Reset Link" }).click();
  await expect(page).toHaveURL(/\/forgot-password\?sent=1$/);
  await expect(page.getByRole("heading", { level: 1, name: "Check Your Email" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back to Log In" })).toHaveAttribute("href", "/login");

  // The mailed link points at this shop
  const link = await mailedResetLink(account.email);
  // (asked for earlier, the unknown address would have had its mail by now)
  expect(await mailsTo(unknown, MAIL_DIR)).toEqual([]);
  expect(new URL(link).origin).toBe(new URL(testInfo.project.use.baseURL ?? "").origin);
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1, name: "Choose a New Password" })).toBeVisible();
  await page.getByLabel("New Password", { exact: true }).fill(newPassword);
  await page.getByLabel("Confirm New Password", { exact: true }).fill(newPassword);
  // Without JavaScript this post is the page's own form post: it must work as well as the fetch.
  await page.getByRole("button", { name: "Set New Password" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(toast(page, /Your password has been reset/)).toBeVisible();

  // The old password no longer works, the new one does.
  await submitLogin(page, account.email, account.password);
  await expect(banner(page)).toHaveText("Invalid email or password");
  await submitLogin(page, account.email, newPassword);
  await expect(page).toHaveURL(/\/profile$/);
  await expect(toast(page, "Login successfully")).toBeVisible();

  // The link works once
  await page.goto(link);
  await expect(page.getByRole("heading", { level: 1, name: "Link Expired" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Request a New Link" })).toHaveAttribute("href", "/forgot-password");

  dropExpectedStatusErrors(consoleErrors, 401); // the old password at login
});
