// Full-page screenshots for humans to look at (test-results/screens/*.png), JavaScript project only.
// They assert only that each page loaded.
import path from "node:path";
import type { Page } from "@playwright/test";
import { expect, jsEnabled, test } from "../support/e2e/fixtures";
import { postsAnswered } from "../support/e2e/helpers";

const SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 900 },
] as const;

const PAGES = [
  { name: "home", url: "/", heading: "Explore Categories" },
  { name: "categories", url: "/categories", heading: "Furniture Categories" },
  { name: "living-room", url: "/category/living-room", heading: "Living Room" },
  { name: "product", url: "/product/sheesham-wood-3-seater-sofa", heading: "Sheesham Wood 3-Seater Sofa" },
  { name: "contact", url: "/contact", heading: "Contact Us" },
] as const;

const JS_ONLY = "screenshots are taken in the js project only";
const SCREENS_DIR = path.join("test-results", "screens");

/** Load every lazy image now, and wait until all images have finished, so the shot is complete. */
async function settle(page: Page) {
  await page.evaluate(() => document.querySelectorAll<HTMLImageElement>('img[loading="lazy"]').forEach((img) => (img.loading = "eager")));
  await page.waitForFunction(() => Array.from(document.images).every((img) => img.complete));
  await page.evaluate(() => document.fonts.ready);
}

async function shoot(page: Page, size: string, name: string) {
  await settle(page);
  await page.screenshot({ path: path.join(SCREENS_DIR, `${size}-${name}.png`), fullPage: true, animations: "disabled" });
}

for (const size of SIZES) {
  test.describe(`screens at ${size.name} size`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });
    test("pages", async ({ page }, testInfo) => {
      test.skip(!jsEnabled(testInfo.project.name), JS_ONLY);
      for (const p of PAGES) {
        const response = await page.goto(p.url);
        expect(response?.status(), p.url).toBe(200);
        await expect(page.getByRole("heading", { name: p.heading, exact: true }).first()).toBeVisible();
        await shoot(page, size.name, p.name);
      }
    });

    test("cart with 2 items", async ({ page }, testInfo) => {
      test.skip(!jsEnabled(testInfo.project.name), JS_ONLY);
      await page.goto("/category/living-room");
      // Pieces sold as one, added from their cards (one sold in variants is chosen on its page).
      const titles = await page
        .getByTestId("product-card")
        .filter({ hasNotText: "Out of Stock" })
        .filter({ has: page.getByRole("button", { name: /^Add .+ to cart$/ }) })
        .getByRole("heading", { level: 3 })
        .allTextContents();
      for (const [i, title] of titles.slice(0, 2).entries()) {
        // The badge moves before the post is answered: the page is left only once it is.
        const added = postsAnswered(page, /./, 1);
        await page.getByRole("button", { name: `Add ${title.trim()} to cart` }).click();
        await expect(page.getByTestId("cart-count")).toHaveText(String(i + 1));
        await added;
      }
      const response = await page.goto("/cart");
      expect(response?.status()).toBe(200);
      await expect(page.getByRole("heading", { name: "Cart Items (2)" })).toBeVisible();
      await shoot(page, size.name, "cart");
    });
  });
}
