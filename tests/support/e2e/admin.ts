// Shared steps of the admin browser tests (admin.spec.ts): the admin login (one per test),
// the lists' search form, pagination and dialogs, rows made through the admin's own forms
// by request (setup only), and screenshots.
import fs from "node:fs/promises";
import type { Locator, Page, TestInfo } from "@playwright/test";
import { postHeaders } from "./customers";
import { expect } from "./fixtures";

/** What playwright.config.ts gives the server as ADMIN_PASSWORD. */
export const ADMIN_PASSWORD = "e2e-admin-password";

export const SHOTS = "/tmp/admin-shots";

export function baseURL(testInfo: TestInfo): string {
  const url = testInfo.project.use.baseURL;
  if (!url) throw new Error("no baseURL in the project's config");
  return url;
}

/** A unique lower-case tag for the rows a test makes (tests run in parallel on one database). */
export function uniqueTag(testInfo: TestInfo): string {
  return `${testInfo.project.name}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
}

/** Letters only (a name that never matches an order id or a phone number in a search). */
export function uniqueWord(): string {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  let word = "";
  for (let i = 0; i < 8; i++) word += letters[Math.floor(Math.random() * letters.length)];
  return word[0]!.toUpperCase() + word.slice(1);
}

/**
 * Headers of a same-site form post sent with page.request: page.request shares the page's
 * cookies but not the X-Forwarded-For the fixture gives the page, so each such request gets an
 * address of its own (./customers.ts) and the per-address limits (the admin login's among
 * them) count this test's tries only, as the fixture intends.
 */
export { postHeaders } from "./customers";

/**
 * The admin login as the no-JS path does it: POST /admin/login with the password. The answer's
 * cookie lands in the page's context, so the page is the admin from here on. Logins are
 * rate-limited (per address and shop-wide), so each test logs in once, through this.
 */
export async function loginAsAdmin(page: Page, testInfo: TestInfo) {
  const response = await page.request.post("/admin/login", {
    form: { password: ADMIN_PASSWORD },
    headers: postHeaders(testInfo),
    maxRedirects: 0,
  });
  expect(response.status(), "admin login answer").toBe(303);
  expect(response.headers()["location"]).toBe("/admin");
}

/** Log in and open an admin page; waits for its section heading. */
export async function openAdmin(page: Page, testInfo: TestInfo, path: string, section: string) {
  await loginAsAdmin(page, testInfo);
  await page.goto(path);
  await expectSection(page, section);
}

export async function expectSection(page: Page, section: string) {
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(section);
}

/**
 * The list's GET search form: fill `q` (and the filter selects given by label), then Search;
 * waits until the URL holds them all, so the list read next is the new one (with JavaScript
 * the old list stays on screen until the new one has loaded).
 */
export async function searchList(page: Page, q: string, filters: { Category?: string; Status?: string } = {}) {
  const form = page.getByRole("search");
  await form.getByRole("searchbox", { name: "Search" }).fill(q);
  const expected: Record<string, string> = { q };
  for (const [name, label] of Object.entries(filters)) {
    if (!label) continue;
    const [value] = await form.getByRole("combobox", { name, exact: true }).selectOption({ label });
    expected[name.toLowerCase()] = value!;
  }
  await form.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(
    (url) => Object.entries(expected).every(([k, v]) => url.searchParams.get(k) === v) && !url.searchParams.has("page"),
  );
}

/** The pagination of a list ('Products pages', 'Orders pages', …). */
export function pager(page: Page, label: string): Locator {
  return page.getByRole("navigation", { name: `${label} pages` });
}

/** 'Showing X to Y of Z' (absent when the list has one page). */
export function showing(page: Page): Locator {
  return page.getByTestId("showing");
}

/** Previous/Next: links when there is a page that way, disabled buttons at the ends. */
export async function expectEdges(nav: Locator, edges: { previous: boolean; next: boolean }) {
  for (const [name, enabled] of [
    ["Previous", edges.previous],
    ["Next", edges.next],
  ] as const) {
    if (enabled) {
      await expect(nav.getByRole("link", { name })).toBeVisible();
      await expect(nav.getByRole("button", { name })).toHaveCount(0);
    } else {
      await expect(nav.getByRole("button", { name })).toBeDisabled();
      await expect(nav.getByRole("link", { name })).toHaveCount(0);
    }
  }
}

/** Waits until the page's current page number is `n` (aria-current on its link). */
export async function expectCurrentPage(nav: Locator, n: number) {
  await expect(nav.getByRole("link", { name: `Page ${n}`, exact: true })).toHaveAttribute("aria-current", "page");
}

/** 'Showing X to Y of Z' read into numbers (waits until the text is there). */
export async function readShowing(page: Page, noun = ""): Promise<{ from: number; to: number; total: number }> {
  const pattern = new RegExp(`^Showing (\\d+) to (\\d+) of (\\d+)${noun ? ` ${noun}` : ""}$`);
  await expect(showing(page)).toHaveText(pattern);
  const [, from, to, total] = pattern.exec(((await showing(page).textContent()) ?? "").trim())!;
  return { from: Number(from), to: Number(to), total: Number(total) };
}

/**
 * An add/edit/delete dialog by its title ('Add Product', 'Delete category', …): a modal
 * <dialog> with JavaScript, a page section of its own (role region) without.
 */
export function adminDialog(page: Page, title: string): Locator {
  return page.getByRole("dialog", { name: title }).or(page.getByRole("region", { name: title }));
}

/** The message under a field (tied to it by aria-describedby). */
export async function expectFieldError(scope: Page | Locator, label: string, message: string) {
  const input = scope.getByLabel(label, { exact: true });
  await expect(input).toHaveAttribute("aria-invalid", "true");
  await expect(input).toHaveAccessibleDescription(message);
}

/** Post one of the admin's own forms beside the page (setup: the page's cookies, its own address). */
export async function postAdminForm(page: Page, testInfo: TestInfo, path: string, form: Record<string, string>) {
  const response = await page.request.post(path, { form, headers: postHeaders(testInfo), maxRedirects: 0 });
  expect([302, 303], `${path} ${form.intent ?? ""} answer`).toContain(response.status());
  return response;
}

/** The id of a category by its slug, from the public category list. */
export async function categoryId(page: Page, slug: string): Promise<number> {
  const response = await page.request.get("/api/category/list");
  expect(response.ok()).toBe(true);
  const categories = (await response.json()) as { id: number; slug: string }[];
  const found = categories.find((c) => c.slug === slug);
  if (!found) throw new Error(`no category ${slug}`);
  return found.id;
}

/** A product's id by its slug (the storefront API). */
export async function productId(page: Page, slug: string): Promise<number> {
  const response = await page.request.get(`/api/item/detailBySlug?slug=${slug}`);
  expect(response.status(), `product ${slug}`).toBe(200);
  return ((await response.json()) as { id: number }).id;
}

/** A full-page screenshot into /tmp/admin-shots/{project}-{name}.png. */
export async function shot(page: Page, testInfo: TestInfo, name: string): Promise<string> {
  await fs.mkdir(SHOTS, { recursive: true });
  const file = `${SHOTS}/${testInfo.project.name}-${name}.png`;
  await page.screenshot({ path: file, fullPage: true });
  return file;
}
