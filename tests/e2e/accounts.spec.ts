// Customer accounts, with and without JavaScript: sign-up through the emailed OTP, the sign-up
// rules, logging in and out, the profile, the guest cart joining the account's cart, the OTP
// boxes' keyboard and paste handling (JavaScript only), and screenshots of the account pages.
// Every test makes its own customer(s) with a unique email, so tests never share an account
// (and the per-email login limit of 10 tries in 15 minutes is never near). The sign-up tests,
// the OTP boxes and the screenshots walk the real sign-up pages; the others start from a
// customer made through the API (./customers.ts), signed in where the test needs it.
import path from "node:path";
import type { Page } from "@playwright/test";
import { MAIL_DIR } from "../../playwright.config";
import { mailsTo } from "../support/outbox";
import type { Account } from "../support/e2e/accounts";
import {
  banner,
  detail,
  enterOtp,
  fillSignup,
  firstWord,
  logIn,
  logoutFromHeader,
  mailedCode,
  newAccount,
  otpBox,
  signUp,
  submitLogin,
  toast,
} from "../support/e2e/accounts";
import { createCustomer, signedInCustomer } from "../support/e2e/customers";
import { expect, jsEnabled, test } from "../support/e2e/fixtures";
import { dropExpectedStatusErrors } from "../support/e2e/helpers";

const MOBILE_MESSAGE = /valid 10-digit mobile number/;

function personalInformation(page: Page) {
  return page.getByRole("region", { name: "Personal Information" });
}

/** The read view of the Personal Information card shows exactly these values. */
async function expectProfileView(page: Page, account: Pick<Account, "name" | "email" | "mobile">) {
  const card = personalInformation(page);
  await expect(card.getByRole("link", { name: "Edit" })).toBeVisible();
  await expect(card.getByRole("button", { name: "Save Changes" })).toHaveCount(0);
  await expect(detail(card, "Full Name")).toHaveText(account.name);
  await expect(detail(card, "Email Address")).toHaveText(account.email);
  await expect(detail(card, "Mobile Number")).toHaveText(account.mobile ?? "Not provided");
}

for (const withMobile of [true, false]) {
  test(`sign-up through the emailed OTP lands on the profile (${withMobile ? "with" : "without"} a mobile number)`, async ({
    page,
  }, testInfo) => {
    const js = jsEnabled(testInfo.project.name);
    const account = newAccount(testInfo, { name: "Meera Krishnan Iyer", mobile: withMobile ? "9876543210" : undefined });

    await page.goto("/signup");
    await expect(page.getByRole("heading", { level: 1, name: "Create an Account" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Log In", exact: true })).toHaveAttribute("href", "/login");
    await expect(page.getByRole("link", { name: "Terms and Conditions" })).toHaveAttribute("href", "/t&c");
    await fillSignup(page, account);
    await page.getByRole("button", { name: "Register" }).click();

    // The OTP step
    await expect(page).toHaveURL(/\/verify-otp\?email=/);
    expect(new URL(page.url()).searchParams.get("email")).toBe(account.email);
    await expect(toast(page, "OTP sent successfully")).toBeVisible();
    const otp = page.getByRole("group", { name: "Enter the 4-digit OTP" });
    await expect(otp).toBeVisible();
    await expect(otp.getByRole("textbox")).toHaveCount(4);
    // the details typed on the first step are kept
    const details = page.getByLabel("Your details");
    await expect(detail(details, "Name")).toHaveText(account.name);
    await expect(detail(details, "Email")).toHaveText(account.email);
    await expect(detail(details, "Mobile")).toHaveText(account.mobile ?? "Not provided");

    const code = await mailedCode(account.email);
    await enterOtp(page, code);
    for (const [i, digit] of [...code].entries()) await expect(otpBox(page, i)).toHaveValue(digit);
    await page.getByRole("button", { name: "Verify OTP" }).click();

    // Signed in, on the profile
    await expect(page).toHaveURL(/\/profile$/);
    await expect(toast(page, "OTP verified successfully")).toBeVisible();
    await expect(page.getByRole("heading", { level: 1, name: "My Account" })).toBeVisible();
    await expectProfileView(page, account);

    // The header names the customer by the first word of the name, in the user menu.
    const header = page.getByRole("banner");
    const first = firstWord(account.name);
    await expect(header).not.toContainText(account.name);
    if (js) {
      const nameButton = header.getByRole("button", { name: first, exact: true });
      await expect(nameButton).toBeVisible();
      await expect(nameButton).toHaveText(first);
      await expect(header.getByRole("link", { name: "Login", exact: true })).toHaveCount(0);
      await nameButton.hover();
    } else {
      // On a phone the user menu lives in the 'Menu' drawer (the name button is for wider screens).
      await expect(header.getByRole("button", { name: first, exact: true, includeHidden: true })).toHaveText(first);
      await header.getByLabel("Menu", { exact: true }).click();
    }
    await expect(header.getByRole("link", { name: "My Profile" })).toHaveAttribute("href", "/profile");
    await expect(header.getByRole("link", { name: "Order History" })).toHaveAttribute("href", "/orders");
    await expect(header.getByRole("button", { name: "Logout" })).toBeVisible();
  });
}

test("sign-up messages come in the spec's order, and a registered email is refused", async ({ page, consoleErrors }, testInfo) => {
  test.slow(); // several sign-ups, logins and page posts: more than the default 30 s on a busy machine
  const js = jsEnabled(testInfo.project.name);
  const account = newAccount(testInfo, { mobile: undefined });
  const register = page.getByRole("button", { name: "Register" });
  const valid = { name: account.name, email: account.email, password: account.password };

  await page.goto("/signup");
  const steps = [
    // 1. a required field empty (whatever else is wrong)
    { fields: { ...valid, name: "", password: "abc", confirm: "xyz", terms: false }, message: "Please fill in all required fields" },
    // 2. the confirmation differs (the password is also too short: this comes first)
    { fields: { ...valid, password: "abcde", confirm: "abcdf", terms: false }, message: "Passwords do not match" },
    // 3. too short
    { fields: { ...valid, password: "abcde", confirm: "abcde", terms: false }, message: "Password must be at least 6 characters long" },
    // then the terms, then the mobile number
    { fields: { ...valid, terms: false }, message: "Please agree to the Terms and Conditions" },
    { fields: { ...valid, mobile: "12345", terms: true }, message: MOBILE_MESSAGE },
  ];
  for (const step of steps) {
    await fillSignup(page, step.fields);
    await register.click();
    await expect(banner(page)).toHaveText(step.message);
    await expect(page).toHaveURL(/\/signup$/);
  }
  // the mobile message is also the field's own
  await expect(page.getByLabel("Mobile Number", { exact: true })).toHaveAccessibleDescription(MOBILE_MESSAGE);
  // nothing was registered, so no code was mailed
  expect(await mailsTo(account.email, MAIL_DIR)).toEqual([]);

  // A valid sign-up, verified; then the same email again
  await signUp(page, account);
  await logoutFromHeader(page, js, account.name);
  await page.goto("/signup");
  await fillSignup(page, { ...valid, name: "Someone Else" });
  await register.click();
  await expect(banner(page)).toContainText(/already exists/);
  await expect(banner(page).getByRole("link", { name: "Go to Log In" })).toHaveAttribute("href", "/login");
  await expect(page).toHaveURL(/\/signup$/);
  // only the first sign-up's code was ever mailed
  expect((await mailsTo(account.email, MAIL_DIR)).filter((m) => /verification code/i.test(m.subject))).toHaveLength(1);

  dropExpectedStatusErrors(consoleErrors, 400); // the refused forms answer 400
  dropExpectedStatusErrors(consoleErrors, 409); // and the taken email 409
});

test("log out from the header, log in again, redirects to and from /login, the profile's Logout", async ({
  page,
  consoleErrors,
}, testInfo) => {
  test.slow(); // several sign-ups, logins and page posts: more than the default 30 s on a busy machine
  const js = jsEnabled(testInfo.project.name);
  const account = await signedInCustomer(page, testInfo);
  const header = page.getByRole("banner");
  await page.goto("/profile");

  await logoutFromHeader(page, js, account.name);
  await expect(header.getByRole("button", { name: firstWord(account.name), exact: true, includeHidden: true })).toHaveCount(0);

  // The profile needs a customer: to /login, and back to the profile after logging in.
  await page.goto("/profile");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fprofile$/);
  await expect(page.getByRole("heading", { level: 1, name: "Log In to Your Account" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign up" })).toHaveAttribute("href", "/signup");

  // empty fields
  await page.getByRole("button", { name: "Log In", exact: true }).click();
  await expect(banner(page)).toHaveText("Please enter both email and password");
  // a wrong password
  await submitLogin(page, account.email, "not-the-password");
  await expect(banner(page)).toHaveText("Invalid email or password");
  await expect(page).toHaveURL(/\/login/);
  // the right one
  await submitLogin(page, account.email, account.password);
  await expect(page).toHaveURL(/\/profile$/);
  await expect(toast(page, "Login successfully")).toBeVisible();
  await expectProfileView(page, account);

  // The profile's own Logout (left menu) goes to /login.
  await page.getByRole("navigation", { name: "Account" }).getByRole("button", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(toast(page, "You have been logged out")).toBeVisible();
  await expect(page.getByRole("heading", { level: 1, name: "Log In to Your Account" })).toBeVisible();

  // redirectTo is followed after a login
  await page.goto("/login?redirectTo=/wishlist");
  await submitLogin(page, account.email, account.password);
  await expect(page).toHaveURL(/\/wishlist$/);
  await expect(page.getByRole("heading", { name: "Your Wishlist" })).toBeVisible();
  await expect(toast(page, "Login successfully")).toBeVisible();

  // Signed out, the header offers the login page (on a phone inside the 'Menu' drawer).
  await logoutFromHeader(page, js, account.name);
  if (js) {
    await header.getByRole("link", { name: "Login", exact: true }).click();
  } else {
    await header.getByLabel("Menu", { exact: true }).click();
    await header.getByRole("link", { name: "Login / Register" }).click();
  }
  await expect(page).toHaveURL(/\/login$/);
  await submitLogin(page, account.email, account.password);
  await expect(page).toHaveURL(/\/profile$/);
  await expect(toast(page, "Login successfully")).toBeVisible();

  dropExpectedStatusErrors(consoleErrors, 400); // empty fields
  dropExpectedStatusErrors(consoleErrors, 401); // wrong password
});

test("profile: edit and save, cancel, a bad mobile number, another customer's email", async ({ page, consoleErrors }, testInfo) => {
  test.slow(); // several sign-ups, logins and page posts: more than the default 30 s on a busy machine
  const js = jsEnabled(testInfo.project.name);
  const other = await createCustomer(testInfo, { tag: "other", name: "Kabir Singh" });
  const account = await signedInCustomer(page, testInfo, { name: "Ananya Das", mobile: "9876543210" });
  await page.goto("/profile");
  const card = personalInformation(page);
  const name = card.getByLabel("Full Name", { exact: true });
  const email = card.getByLabel("Email Address", { exact: true });
  const mobile = card.getByLabel("Mobile Number", { exact: true });
  const save = card.getByRole("button", { name: "Save Changes" });

  // Edit shows the form with the current values; Cancel goes back without saving.
  await card.getByRole("link", { name: "Edit" }).click();
  await expect(name).toHaveValue(account.name);
  await expect(email).toHaveValue(account.email);
  await expect(mobile).toHaveValue(account.mobile ?? "");
  await name.fill("Not Saved");
  await card.getByRole("link", { name: "Cancel" }).first().click();
  await expectProfileView(page, account);
  await page.reload();
  await expectProfileView(page, account);

  // Change the name and the mobile number
  const changed = { ...account, name: "Ananya Roy Das", mobile: "9123456780" };
  await card.getByRole("link", { name: "Edit" }).click();
  await name.fill(changed.name);
  await mobile.fill(changed.mobile);
  await save.click();
  await expect(toast(page, "Profile updated successfully!")).toBeVisible();
  await expect(page).toHaveURL(/\/profile$/);
  await expectProfileView(page, changed);
  await page.reload();
  await expectProfileView(page, changed);
  if (js) await expect(page.getByRole("banner").getByRole("button", { name: "Ananya", exact: true })).toBeVisible();

  // A bad mobile number
  await card.getByRole("link", { name: "Edit" }).click();
  await mobile.fill("12345");
  await save.click();
  await expect(mobile).toHaveAccessibleDescription(MOBILE_MESSAGE);
  await expect(banner(page)).toHaveText("Failed to update profile. Please try again.");
  await expect(mobile).toHaveAttribute("aria-invalid", "true");

  // Another customer's email (a new email takes the current password: email-change.spec.ts)
  await name.fill(changed.name);
  await email.fill(other.email);
  await mobile.fill(changed.mobile);
  await card.getByLabel("Current Password", { exact: true }).fill(account.password);
  await save.click();
  await expect(email).toHaveAccessibleDescription(/already used/);
  await expect(banner(page)).toHaveText("Failed to update profile. Please try again.");

  // Nothing of the failed saves was kept
  await card.getByRole("link", { name: "Cancel" }).first().click();
  await expectProfileView(page, changed);

  dropExpectedStatusErrors(consoleErrors, 400); // the bad mobile number
  dropExpectedStatusErrors(consoleErrors, 409); // the email in use
});

test("the guest's cart joins the account's cart at login", async ({ page }, testInfo) => {
  test.slow(); // several sign-ups, logins and page posts: more than the default 30 s on a busy machine
  const js = jsEnabled(testInfo.project.name);
  const badge = page.getByTestId("cart-count");
  const addToCart = async (slug: string, title: string, count: string) => {
    await page.goto(`/product/${slug}`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(title);
    await page.getByRole("button", { name: "Add to Cart", exact: true }).click();
    await expect(toast(page, `${title} added to cart`)).toBeVisible();
    await expect(badge).toHaveText(count);
  };

  // The account's cart holds product B
  const account = await signedInCustomer(page, testInfo);
  await page.goto("/profile");
  await expect(badge).toHaveCount(0);
  await addToCart("sheesham-wood-3-seater-sofa", "Sheesham Wood 3-Seater Sofa", "1");
  await logoutFromHeader(page, js, account.name);
  await expect(badge).toHaveCount(0);

  // A guest adds product A
  await addToCart("teak-wood-diwan-with-bolsters", "Teak Wood Diwan with Bolsters", "1");

  await logIn(page, account.email, account.password);
  await expect(badge).toHaveText("2");
  await page.goto("/cart");
  const lines = page.getByTestId("cart-line");
  await expect(lines).toHaveCount(2);
  await expect(lines.filter({ hasText: "Sheesham Wood 3-Seater Sofa" })).toHaveCount(1);
  await expect(lines.filter({ hasText: "Teak Wood Diwan with Bolsters" })).toHaveCount(1);
  await expect(page.getByRole("heading", { name: "Cart Items (2)" })).toBeVisible();
});

test("OTP boxes: focus moves on and back, a paste fills them, 'Creating Account...' while busy", async ({ page }, testInfo) => {
  test.skip(!jsEnabled(testInfo.project.name), "the OTP boxes' focus and paste handling need JavaScript");
  const account = newAccount(testInfo);

  // While the sign-up request runs the button says so (the request is held until checked).
  await page.goto("/signup");
  await fillSignup(page, account);
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.pathname.startsWith("/signup"),
    async (route) => {
      if (route.request().method() !== "POST") return route.fallback();
      await held;
      await route.continue();
    },
  );
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page.getByRole("button", { name: "Creating Account..." })).toBeDisabled();
  release();
  await expect(page).toHaveURL(/\/verify-otp\?email=/);
  await page.unrouteAll();

  const boxes = [0, 1, 2, 3].map((i) => otpBox(page, i));
  const expectBoxes = async (values: string[]) => {
    for (const [i, value] of values.entries()) await expect(boxes[i]).toHaveValue(value);
  };
  const paste = (text: string) =>
    boxes[0].evaluate((box, data) => {
      const clipboardData = new DataTransfer();
      clipboardData.setData("text/plain", data);
      box.dispatchEvent(new ClipboardEvent("paste", { clipboardData, bubbles: true, cancelable: true }));
    }, text);
  const clear = async () => {
    for (const box of boxes) await box.fill("");
  };

  // A digit moves the focus to the next box; a letter is not taken.
  await boxes[0].click();
  await page.keyboard.type("7");
  await expect(boxes[0]).toHaveValue("7");
  await expect(boxes[1]).toBeFocused();
  await page.keyboard.type("x");
  await expect(boxes[1]).toHaveValue("");
  await expect(boxes[1]).toBeFocused();
  // Backspace in an empty box goes back
  await page.keyboard.press("Backspace");
  await expect(boxes[0]).toBeFocused();
  await expect(boxes[0]).toHaveValue("7");

  // Pasting 4 digits fills every box; the first 4 of a longer run of digits are taken.
  await clear();
  await paste("1234");
  await expectBoxes(["1", "2", "3", "4"]);
  await expect(boxes[3]).toBeFocused();
  await clear();
  await paste("56789");
  await expectBoxes(["5", "6", "7", "8"]);
  // Anything but digits fills nothing
  await clear();
  await paste("ab12");
  await expectBoxes(["", "", "", ""]);

  // Typing the mailed code from the first box runs through all four, and it verifies.
  const code = await mailedCode(account.email);
  await boxes[0].click();
  await page.keyboard.type(code);
  await expectBoxes([...code]);
  await page.getByRole("button", { name: "Verify OTP" }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(toast(page, "OTP verified successfully")).toBeVisible();
});

test("screenshots of the account pages", async ({ page }, testInfo) => {
  test.slow(); // six pages, a sign-up and full-page shots
  // Phone size without JavaScript (no-js), desktop with it (js). Nothing is compared.
  const size = jsEnabled(testInfo.project.name) ? "desktop" : "phone";
  const shoot = (name: string) =>
    page.screenshot({ path: path.join("test-results", "screens-accounts", `${size}-${name}.png`), fullPage: true, animations: "disabled" });
  const heading = (name: string) => expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

  await page.goto("/signup");
  await heading("Create an Account");
  await shoot("signup");
  await page.goto("/login");
  await heading("Log In to Your Account");
  await shoot("login");
  await page.goto("/forgot-password");
  await heading("Forgot Your Password?");
  await shoot("forgot-password");

  const account = newAccount(testInfo);
  await page.goto("/signup");
  await fillSignup(page, account);
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page).toHaveURL(/\/verify-otp\?email=/);
  await heading("Verify Your Email");
  await shoot("verify-otp");
  await enterOtp(page, await mailedCode(account.email));
  await page.getByRole("button", { name: "Verify OTP" }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await heading("My Account");
  await shoot("profile");
  await personalInformation(page).getByRole("link", { name: "Edit" }).click();
  await expect(page.getByRole("button", { name: "Save Changes" })).toBeVisible();
  await shoot("profile-edit");
});
