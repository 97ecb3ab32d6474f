// Newsletter on the home page and the contact form (with the mail it writes to MAIL_DIR).
import fs from "node:fs";
import path from "node:path";
import { MAIL_DIR } from "../../playwright.config";
import { expect, jsEnabled, test } from "../support/e2e/fixtures";
import { dropExpectedStatusErrors } from "../support/e2e/helpers";

const unique = (prefix: string, project: string) => `${prefix}-${project}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  sentAt: string;
}

function readMails(): Mail[] {
  if (!fs.existsSync(MAIL_DIR)) return [];
  return fs
    .readdirSync(MAIL_DIR)
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(fs.readFileSync(path.join(MAIL_DIR, f), "utf8")) as Mail);
}

test("newsletter subscription from the home page", async ({ page }, testInfo) => {
  const email = `${unique("news", testInfo.project.name)}@example.com`;
  await page.goto("/");
  const field = page.getByPlaceholder("Your email address");
  await expect(field).toHaveAttribute("required", "");
  await expect(field).toHaveAttribute("type", "email");
  await field.fill(email);
  await page.getByRole("button", { name: "Subscribe" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Email added Successfully" })).toBeVisible();
  await expect(field).toHaveValue("");
  if (jsEnabled(testInfo.project.name)) await expect(page.getByRole("button", { name: "Subscribe" })).toBeEnabled();
});

test("newsletter refuses an address the server cannot accept", async ({ page, consoleErrors }) => {
  await page.goto("/");
  const field = page.getByPlaceholder("Your email address");
  // 'a@b' passes the browser's type=email check but not the server's rule.
  await field.fill("a@b");
  await page.getByRole("button", { name: "Subscribe" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Please enter a valid email address" })).toBeVisible();
  await expect(field).toHaveValue("a@b");
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("status").filter({ hasText: "Email added Successfully" })).toHaveCount(0);
  dropExpectedStatusErrors(consoleErrors, 400); // the form answer is a 400 with the error text
});

test("contact form: sent, thanked, mailed", async ({ page }, testInfo) => {
  const marker = unique("contact", testInfo.project.name);
  await page.goto("/contact");
  await expect(page.getByText("Our showroom is open Monday through Saturday, 9AM to 8PM")).toBeVisible();
  await expect(page.getByText("We'll respond within 24 hours")).toBeVisible();

  await page.getByRole("textbox", { name: "Name" }).fill("Meera Shah");
  await page.getByRole("textbox", { name: "Email" }).fill(`${marker}@example.com`);
  await page.getByRole("textbox", { name: "Phone" }).fill("+91 98765 43210");
  await page.getByRole("combobox", { name: "Subject" }).selectOption("Product Inquiry");
  await page.getByRole("textbox", { name: "Message" }).fill(`Is the teak diwan available in walnut? ${marker}`);
  await page.getByRole("button", { name: "Send Message" }).click();
  if (jsEnabled(testInfo.project.name)) {
    // "Sending..." stays for 1.5 s before the thank-you panel (spec, Contact)
    await expect(page.getByRole("button", { name: "Sending..." })).toBeDisabled();
  }

  await expect(page.getByRole("status").filter({ hasText: "We'll get back to you shortly" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Thank You!" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Send Message" })).toHaveCount(0);
  await expect(page.getByText("Our showroom is open Monday through Saturday, 9AM to 8PM")).toBeVisible();

  // One mail for this message, its subject naming the chosen subject.
  const mine = () => readMails().filter((m) => m.text.includes(marker));
  await expect.poll(() => mine().length).toBe(1);
  const [mail] = mine();
  expect(mail.subject).toContain("Product Inquiry");
  expect(mail.text).toContain(`${marker}@example.com`);
  expect(mail.text).toContain("Meera Shah");
  expect(mail.to).toMatch(/@/);
});

test("contact form: server-side errors keep what was typed", async ({ page, consoleErrors }, testInfo) => {
  const marker = unique("contact-bad", testInfo.project.name);
  await page.goto("/contact");
  await page.getByRole("textbox", { name: "Name" }).fill("Meera Shah");
  // passes the browser's type=email check, not the server's rule
  await page.getByRole("textbox", { name: "Email" }).fill("a@b");
  await page.getByRole("combobox", { name: "Subject" }).selectOption("Feedback");
  await page.getByRole("textbox", { name: "Message" }).fill(marker);
  await page.getByRole("button", { name: "Send Message" }).click();

  const email = page.getByRole("textbox", { name: "Email" });
  await expect(page.getByText("Please enter a valid email address")).toBeVisible();
  await expect(email).toHaveAttribute("aria-invalid", "true");
  await expect(email).toHaveValue("a@b");
  await expect(page.getByRole("textbox", { name: "Name" })).toHaveValue("Meera Shah");
  await expect(page.getByRole("textbox", { name: "Message" })).toHaveValue(marker);
  await expect(page.getByRole("heading", { name: "Thank You!" })).toHaveCount(0);
  if (jsEnabled(testInfo.project.name)) await expect(email).toBeFocused();
  expect(readMails().filter((m) => m.text.includes(marker))).toHaveLength(0);
  dropExpectedStatusErrors(consoleErrors, 400); // the form answer is a 400 with the error text
});

test("Subscribe and Send Message take plain clicks right after a jump from the footer", async ({ page }, testInfo) => {
  // Once a bug: `scroll-behavior: smooth` on the whole page animated the jump to the top after
  // every route change, so with JavaScript a default click() right after moving between pages
  // chased a button still moving ('element is not stable', then 'outside of the viewport').
  // Plain clicks here: no force, no trial, the browser's own motion settings.
  const marker = unique("jump", testInfo.project.name);
  const quickLinks = page.getByRole("contentinfo").getByRole("navigation", { name: "Quick links" });
  const scrollY = () => page.evaluate(() => window.scrollY);

  await page.goto("/about");
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe("auto");

  // From the footer at the bottom of /about to the home page: it starts at the top at once.
  await quickLinks.getByRole("link", { name: "Home", exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { name: "Stay Updated" })).toBeVisible();
  expect(await scrollY(), "the home page starts at the top, without an animation").toBe(0);
  await page.getByPlaceholder("Your email address").fill(`${marker}@example.com`);
  await page.getByRole("button", { name: "Subscribe" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Email added Successfully" })).toBeVisible();

  // From the footer again, to the contact form
  await quickLinks.getByRole("link", { name: "Contact Us", exact: true }).click();
  await expect(page).toHaveURL(/\/contact$/);
  await expect(page.getByRole("heading", { level: 1, name: "Contact Us" })).toBeVisible();
  expect(await scrollY(), "the contact page starts at the top, without an animation").toBe(0);
  await page.getByRole("textbox", { name: "Name" }).fill("Meera Shah");
  await page.getByRole("textbox", { name: "Email" }).fill(`${marker}@example.com`);
  await page.getByRole("combobox", { name: "Subject" }).selectOption("Feedback");
  await page.getByRole("textbox", { name: "Message" }).fill(`Lovely showroom. ${marker}`);
  await page.getByRole("button", { name: "Send Message" }).click();
  await expect(page.getByRole("heading", { name: "Thank You!" })).toBeVisible();
  await expect.poll(() => readMails().filter((m) => m.text.includes(marker)).length).toBe(1);
});
