// Small helpers shared by the browser tests: reading rupee amounts and the contract's money rules,
// and full-page screenshots to look at.
import fs from "node:fs/promises";
import path from "node:path";
import type { Locator, Page, Request, TestInfo } from "@playwright/test";

/** Where the browser tests' screenshots go (looked at by people; nothing compares them). */
export const SHOTS = "/tmp/e2e-shots";

/** A full-page screenshot, `{SHOTS}/{project}-{name}.png`. */
export async function screenshot(page: Page, name: string, project: string): Promise<void> {
  await fs.mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${project}-${name}.png`, fullPage: true });
}

/** "₹1,23,456" → 123456. Throws on anything that is not a whole-rupee amount. */
export function parseRupees(text: string): number {
  const match = /^₹\s?([\d,]+)$/.exec(text.trim());
  if (!match) throw new Error(`not a rupee amount: ${JSON.stringify(text)}`);
  return Number(match[1].replace(/,/g, ""));
}

const inr = new Intl.NumberFormat("en-IN", { style: "currency", currency: "INR", minimumFractionDigits: 0, maximumFractionDigits: 0 });

/** en-IN, no decimals, as the spec asks ("₹85,998"). */
export function rupees(amount: number): string {
  return inr.format(amount);
}

export interface Line {
  price: number;
  quantity: number;
}

/** The shop's money rules (docs/product.md, Money): whole rupees everywhere. */
export function expectedTotals(lines: Line[]) {
  const count = lines.reduce((n, l) => n + l.quantity, 0);
  const subtotal = lines.reduce((n, l) => n + l.price * l.quantity, 0);
  const shipping = subtotal === 0 || subtotal > 25_000 ? 0 : 1;
  const gst = Math.round((subtotal * 18) / 100); // whole-rupee subtotal: x.5 is exact, Math.round rounds it up
  return { count, subtotal, shipping, gst, total: subtotal + shipping + gst };
}

/** The product cards under `scope`. */
export function productCards(scope: Page | Locator): Locator {
  return scope.getByTestId("product-card");
}

/** The price shown on each of `cards` (a product-card locator), in order. */
/**
 * Without JavaScript a link is a full page load that may still be streaming in when the URL
 * has changed: read a list only once the whole document is parsed.
 */
async function wholeDocument(cards: Locator) {
  await cards.page().waitForLoadState("domcontentloaded");
}

export async function cardPrices(cards: Locator): Promise<number[]> {
  await wholeDocument(cards);
  const texts = await cards.getByText(/^₹[\d,]+$/).allTextContents();
  return texts.map(parseRupees);
}

export async function cardTitles(cards: Locator): Promise<string[]> {
  await wholeDocument(cards);
  return (await cards.getByRole("heading", { level: 3 }).allTextContents()).map((t) => t.trim());
}

export const isAscending = (values: number[]) => values.every((v, i) => i === 0 || values[i - 1] <= v);

/**
 * Chromium logs "Failed to load resource: ... status of N" to the console whenever a document or
 * fetch is answered with an error status. Where a test expects that status (a 404 page, a 400
 * form answer), drop exactly those messages; every other console error still fails the test.
 */
export function dropExpectedStatusErrors(errors: string[], status: number) {
  const expected = new RegExp(`^Failed to load resource: the server responded with a status of ${status}\\b`);
  for (let i = errors.length - 1; i >= 0; i--) if (expected.test(errors[i])) errors.splice(i, 1);
}

/**
 * Resolves once `count` posts to URLs matching `pattern`, made from now on, have their answers (or
 * have failed). A test that reloads or leaves a page after an optimistic change waits for it first:
 * the change may not even have left the browser yet, and on several servers (npm run test:cluster)
 * one could read before another has written.
 */
export function postsAnswered(page: Page, pattern: RegExp, count: number): Promise<void> {
  return new Promise((resolve) => {
    let seen = 0;
    const done = (request: Request) => {
      if (request.method() !== "POST" || !pattern.test(request.url())) return;
      seen += 1;
      if (seen < count) return;
      page.off("requestfinished", done);
      page.off("requestfailed", done);
      resolve();
    };
    page.on("requestfinished", done);
    page.on("requestfailed", done);
  });
}

/**
 * Uploads a test deletes on purpose. The two workers share one shop, and its lists show every
 * product: another test's page may have been sent an image a moment before it went, and that
 * browser's request for it then answers 404. A test notes what it deletes before deleting it; the
 * console check forgives a 404 for exactly that upload and its renditions (`/uploads/{base}-{width}.{format}`),
 * and any other failed upload still fails.
 * The note is a file in the run's output folder, which Playwright empties when a run starts.
 */
export async function noteDeletedUpload(testInfo: TestInfo, src: string): Promise<void> {
  await fs.mkdir(testInfo.project.outputDir, { recursive: true });
  await fs.appendFile(deletedUploadsFile(testInfo), `${uploadStem(src)}\n`);
}

/** Removes the console's 404s for uploads some test deleted on purpose (`noteDeletedUpload`). */
export async function dropDeletedUploadErrors(errors: string[], testInfo: TestInfo): Promise<void> {
  const deleted = new Set(
    await fs.readFile(deletedUploadsFile(testInfo), "utf8").then(
      (text) => text.split("\n").filter(Boolean),
      () => [],
    ),
  );
  if (deleted.size === 0) return;
  const notFound = /^Failed to load resource: the server responded with a status of 404\b.* \[(\S+)\]$/;
  for (let i = errors.length - 1; i >= 0; i--) {
    const url = notFound.exec(errors[i])?.[1];
    if (url && deleted.has(uploadStem(url))) errors.splice(i, 1);
  }
}

/** An upload's path without its rendition's width and format: `/uploads/{base}`. */
function uploadStem(src: string): string {
  return new URL(src, "http://shop.test").pathname.replace(/(-\d+)?\.[a-z]+$/, "");
}

function deletedUploadsFile(testInfo: TestInfo): string {
  return path.join(testInfo.project.outputDir, "deleted-uploads.txt");
}
