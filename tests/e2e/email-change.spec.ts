// Changing the account's email on the profile, with and without JavaScript (ADR 0006):
// the current password, then the 4-digit code mailed to the new address; the old address is
// told. Each test makes its own customer (the worker's shared customer keeps its email).
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { MAIL_DIR } from "../../playwright.config";
import { latestEmailChangeCode, mailsTo } from "../support/outbox";
import { banner, detail, enterOtp, logIn, logoutFromHeader, toast, uniqueEmail } from "../support/e2e/accounts";
import { signedInCustomer } from "../support/e2e/customers";
import { expect, jsEnabled, test } from "../support/e2e/fixtures";
import { dropExpectedStatusErrors } from "../support/e2e/helpers";

const personalInformation = (page: Page) => page.getByRole("region", { name: "Personal Information" });
const confirmCard = (page: Page) => page.getByRole("region", { name: "Confirm your new email" });

/** The newest email-change code mailed to `email`, waiting until the mail exists. */
async function mailedEmailChangeCode(email: string): Promise<string> {
  let code = "";
  await expect
    .poll(async () => (code = await latestEmailChangeCode(email, MAIL_DIR).catch(() => "")), { message: `code mailed to ${email}` })
    .toMatch(/^\d{4}$/);
  return code;
}

/** With JavaScript (axe runs inside the page): no WCAG 2 A/AA violations as the page stands. */
async function expectAccessible(page: Page, js: boolean, state: string) {
  if (!js) return;
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  expect(summary, `axe violations: ${state}`).toEqual([]);
}

/** Open the edit form and ask for `newEmail` with `password` (empty: left blank). */
async function askForEmail(page: Page, newEmail: string, password: string, name?: string) {
  const card = personalInformation(page);
  if (await card.getByRole("link", { name: "Edit" }).isVisible()) await card.getByRole("link", { name: "Edit" }).click();
  if (name) await card.getByLabel("Full Name", { exact: true }).fill(name);
  await card.getByLabel("Email Address", { exact: true }).fill(newEmail);
  await card.getByLabel("Current Password", { exact: true }).fill(password);
  await card.getByRole("button", { name: "Save Changes" }).click();
}

test("change the email: the current password, then the code mailed to the new address", async ({ page, consoleErrors }, testInfo) => {
  test.slow(); // a sign-up, logins, password checks and page posts: more than 30 s on a busy machine
  const js = jsEnabled(testInfo.project.name);
  const account = await signedInCustomer(page, testInfo, { name: "Ishaan Kapoor", mobile: "9876543210" });
  const target = uniqueEmail(testInfo, "moved");
  const renamed = "Ishaan K Kapoor";
  await page.goto("/profile");
  const card = personalInformation(page);
  await card.getByRole("link", { name: "Edit" }).click();
  const current = card.getByLabel("Current Password", { exact: true });
  await expect(current).toHaveAccessibleDescription(/Needed only to change your email address/);
  await expect(current).toHaveAttribute("type", "password");

  // A session alone cannot move the account: without the password nothing is saved.
  await askForEmail(page, target, "", renamed);
  await expect(banner(page)).toHaveText("Failed to update profile. Please try again.");
  await expect(current).toHaveAccessibleDescription(/^Please enter your current password to change your email/);
  await expect(current).toHaveAttribute("aria-invalid", "true");
  // What was typed stays (the password never).
  await expect(card.getByLabel("Email Address", { exact: true })).toHaveValue(target);
  await expect(current).toHaveValue("");
  await expectAccessible(page, js, "the edit form refusing a new email without the password");

  // A wrong password: refused the same way.
  await askForEmail(page, target, "not-my-password", renamed);
  await expect(current).toHaveAccessibleDescription(/^Your current password is incorrect/);
  await card.getByRole("link", { name: "Cancel" }).first().click();
  await expect(detail(card, "Full Name")).toHaveText(account.name);
  await expect(detail(card, "Email Address")).toHaveText(account.email);
  expect(await mailsTo(target, MAIL_DIR)).toEqual([]);

  // The right password: the name is saved, the email waits for the code mailed to it.
  await askForEmail(page, target, account.password, renamed);
  await expect(toast(page, "Profile updated successfully!")).toBeVisible();
  await expect(page).toHaveURL(/\/profile$/);
  const confirm = confirmCard(page);
  await expect(confirm).toContainText(`We sent a 4-digit code to ${target}`);
  await expect(detail(card, "Full Name")).toHaveText(renamed);
  await expect(detail(card, "Email Address")).toHaveText(account.email);
  await expectAccessible(page, js, "the 'Confirm your new email' card");
  const code = await mailedEmailChangeCode(target);

  // A wrong code: the message stands beside the boxes; the email stays.
  const wrong = String((Number(code) + 1) % 10_000).padStart(4, "0");
  await enterOtp(page, wrong);
  await confirm.getByRole("button", { name: "Confirm", exact: true }).click();
  const boxes = confirm.getByRole("group", { name: "Enter the 4-digit code" });
  await expect(boxes).toHaveAccessibleDescription("Invalid code. Please check the code and try again.");
  await expect(detail(card, "Email Address")).toHaveText(account.email);
  await expectAccessible(page, js, "the card refusing a wrong code");

  // The right code changes it; the old address is told.
  await enterOtp(page, code);
  await confirm.getByRole("button", { name: "Confirm", exact: true }).click();
  await expect(toast(page, "Email address changed successfully!")).toBeVisible();
  await expect(confirmCard(page)).toHaveCount(0);
  await expect(detail(card, "Email Address")).toHaveText(target);
  await page.reload();
  await expect(detail(card, "Email Address")).toHaveText(target);
  await expect
    .poll(async () => (await mailsTo(account.email, MAIL_DIR)).map((m) => m.subject).join("\n"), { message: "the old address is told" })
    .toMatch(/email address was changed/);

  // The new address logs in.
  await logoutFromHeader(page, js, renamed);
  await logIn(page, target, account.password);
  await expect(detail(personalInformation(page), "Email Address")).toHaveText(target);

  dropExpectedStatusErrors(consoleErrors, 400); // the missing and wrong password, the wrong code
});

test("a waiting email change: resend the code, or cancel the change", async ({ page, consoleErrors }, testInfo) => {
  test.slow();
  const account = await signedInCustomer(page, testInfo, { name: "Zoya Sheikh" });
  const target = uniqueEmail(testInfo, "pending");
  await page.goto("/profile");
  await askForEmail(page, target, account.password);
  const confirm = confirmCard(page);
  await expect(confirm).toContainText(`We sent a 4-digit code to ${target}`);
  await mailedEmailChangeCode(target);

  await confirm.getByRole("button", { name: "Resend code" }).click();
  await expect(toast(page, `A new code has been sent to ${target}`)).toBeVisible();
  await expect.poll(async () => (await mailsTo(target, MAIL_DIR)).length, { message: "a second code" }).toBe(2);

  await confirm.getByRole("button", { name: "Cancel email change" }).click();
  await expect(toast(page, "Email change cancelled")).toBeVisible();
  await expect(confirmCard(page)).toHaveCount(0);
  await expect(detail(personalInformation(page), "Email Address")).toHaveText(account.email);
  expect(consoleErrors).toEqual([]);
});
