// Shared steps of the customer-account browser tests (accounts.spec.ts, password.spec.ts):
// the sign-up form, the OTP step, logging in and out. Customers made without the pages are
// in ./customers.ts.
import type { Locator, Page } from "@playwright/test";
import { MAIL_DIR } from "../../../playwright.config";
import { latestResetLink } from "../outbox";
import type { Account } from "./customers";
import { mailedCode } from "./customers";
import { expect } from "./fixtures";

export type { Account } from "./customers";
export { mailedCode, newAccount, uniqueEmail } from "./customers";

export const firstWord = (name: string) => name.trim().split(/\s+/)[0];

/**
 * The newest toast (success toasts are role=status) with this text. With JavaScript a toast
 * stays for 5 s, so an earlier one with the same text (a second login) may still be there.
 */
export function toast(page: Page, text: string | RegExp): Locator {
  return page.getByRole("status").filter({ hasText: text }).last();
}

/** The form-level error banner of the page's form (role=alert inside <main>). */
export function banner(page: Page): Locator {
  return page.getByRole("main").getByRole("alert");
}

/** The value next to a label in a <dl> (Personal Information card). */
export function detail(scope: Locator, label: string): Locator {
  return scope.locator(`dt:text-is("${label}") + dd`);
}

export interface SignupFields {
  name: string;
  email: string;
  mobile?: string;
  password: string;
  confirm?: string;
  terms?: boolean;
}

/** Fill every field of 'Create an Account' (all of them, so a no-JS re-render starts clean). */
export async function fillSignup(page: Page, f: SignupFields) {
  await page.getByLabel("Full Name", { exact: true }).fill(f.name);
  await page.getByLabel("Email Address", { exact: true }).fill(f.email);
  await page.getByLabel("Mobile Number", { exact: true }).fill(f.mobile ?? "");
  await page.getByLabel("Password", { exact: true }).fill(f.password);
  await page.getByLabel("Confirm Password", { exact: true }).fill(f.confirm ?? f.password);
  await page.getByRole("checkbox", { name: "I agree to the Terms and Conditions" }).setChecked(f.terms ?? true);
}

/** The newest password-reset link mailed to `email`, waiting until the mail exists. */
export async function mailedResetLink(email: string): Promise<string> {
  let link = "";
  await expect
    .poll(async () => (link = await latestResetLink(email, MAIL_DIR).catch(() => "")), { message: `reset link mailed to ${email}` })
    .toMatch(/\/reset-password\?token=/);
  return link;
}

export function otpBox(page: Page, index: number): Locator {
  return page.getByLabel(`Digit ${index + 1} of 4`, { exact: true });
}

/** Type the code into the four boxes, one digit each (works with and without JavaScript). */
export async function enterOtp(page: Page, code: string) {
  for (const [i, digit] of [...code].entries()) await otpBox(page, i).fill(digit);
}

/** Register and verify through the pages; ends signed in on /profile. */
export async function signUp(page: Page, account: Account) {
  await page.goto("/signup");
  await fillSignup(page, account);
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/verify-otp\?email=/);
  await enterOtp(page, await mailedCode(account.email));
  await page.getByRole("button", { name: "Verify OTP" }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByRole("heading", { level: 1, name: "My Account" })).toBeVisible();
}

/**
 * Log out from the header. With JavaScript (desktop) through the user menu that opens on hover;
 * without it (phone) through the <details> 'Menu', which needs no script.
 */
export async function logoutFromHeader(page: Page, js: boolean, name: string) {
  const header = page.getByRole("banner");
  if (js) {
    await header.getByRole("button", { name: firstWord(name), exact: true }).hover();
  } else {
    await header.getByLabel("Menu", { exact: true }).click();
  }
  await header.getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(toast(page, "You have been logged out")).toBeVisible();
}

/** Fill and send 'Log In to Your Account' (the page must be open). */
export async function submitLogin(page: Page, email: string, password: string) {
  await expect(page.getByRole("heading", { level: 1, name: "Log In to Your Account" })).toBeVisible();
  await page.getByLabel("Email Address", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Log In", exact: true }).click();
}

/** Open /login and log in; waits for the page it lands on. */
export async function logIn(page: Page, email: string, password: string, landing: RegExp = /\/profile$/) {
  await page.goto("/login");
  await submitLogin(page, email, password);
  await expect(page).toHaveURL(landing);
  await expect(toast(page, "Login successfully")).toBeVisible();
}
