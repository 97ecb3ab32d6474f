// The shop's links (components/Link: drawn by the server itself, hydrated as Remix's): every link
// works without JavaScript; with it, a click moves through the router without loading a document,
// the Back button returns, a link to the page shown replaces it in the history, a link opened in a
// new tab leaves the page alone, and resting on a product link asks for its page ahead of the click.
import type { Page } from "@playwright/test";
import { expect, test } from "../support/e2e/fixtures";

/** The documents the browser loads from now on (a router move loads none). */
function documentLoads(page: Page) {
  const loads: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "document") loads.push(new URL(request.url()).pathname);
  });
  return loads;
}

test("a product card's link opens the product page, and Back returns to the list", async ({ page, javaScriptEnabled }) => {
  await page.goto("/category/living-room");
  const loads = documentLoads(page);
  const card = page.getByTestId("product-card").first();
  const title = (await card.getByRole("heading", { level: 3 }).textContent())!;
  await card.getByRole("link", { name: title }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
  await expect(page).toHaveURL(/\/product\/[a-z0-9-]+$/);
  expect(loads).toHaveLength(javaScriptEnabled ? 0 : 1);
  await page.goBack();
  await expect(page.getByRole("heading", { level: 1, name: "Living Room" })).toBeVisible();
});

test("the main menu marks the page shown", async ({ page, javaScriptEnabled }) => {
  // The menu is in every page (shown on wide screens, the phone menu beside it); its links carry the mark either way.
  const menu = page.getByRole("navigation", { name: "Main", includeHidden: true });
  const link = (name: string) => menu.getByRole("link", { name, includeHidden: true });
  await page.goto("/categories");
  await expect(link("Categories")).toHaveAttribute("aria-current", "page");
  await expect(link("Home")).not.toHaveAttribute("aria-current", /.*/);
  // With JavaScript (a wide screen) the router moves to the next page; without, the browser loads it.
  if (javaScriptEnabled) await link("About Us").click();
  else await page.goto("/about");
  await expect(page.getByRole("heading", { level: 1, name: "About Sagwan Living" })).toBeVisible();
  await expect(link("About Us")).toHaveAttribute("aria-current", "page");
  await expect(link("Categories")).not.toHaveAttribute("aria-current", /.*/);
});

test.describe("with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the router's moves and prefetches need JavaScript");

  test("a link to the page shown replaces it in the history; a new page adds an entry", async ({ page }) => {
    await page.goto("/about");
    const quickLinks = page.getByRole("contentinfo").getByRole("navigation", { name: "Quick links" });
    const entries = () => page.evaluate(() => window.history.length);
    const before = await entries();
    await quickLinks.getByRole("link", { name: "About Us", exact: true }).click();
    await expect(page).toHaveURL(/\/about$/);
    expect(await entries()).toBe(before);
    await quickLinks.getByRole("link", { name: "Contact Us", exact: true }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Contact Us" })).toBeVisible();
    expect(await entries()).toBe(before + 1);
  });

  test("a link opened in a new tab is the browser's: the page stays", async ({ page, context }) => {
    await page.goto("/about");
    const loads = documentLoads(page);
    const quickLinks = page.getByRole("contentinfo").getByRole("navigation", { name: "Quick links" });
    const opened = context.waitForEvent("page");
    await quickLinks.getByRole("link", { name: "Contact Us", exact: true }).click({ modifiers: ["ControlOrMeta"] });
    const tab = await opened;
    await expect(tab).toHaveURL(/\/contact$/);
    await expect(page).toHaveURL(/\/about$/);
    expect(loads).toHaveLength(0);
    await tab.close();
  });

  test("resting on a product link asks for that page's data and modules before the click", async ({ page }) => {
    await page.goto("/category/living-room");
    const link = page.getByTestId("product-card").first().getByRole("link").first();
    const path = (await link.getAttribute("href"))!;
    const dataAsked = page.waitForRequest((request) => new URL(request.url()).pathname === `${path}.data`);
    await expect(page.locator(`link[rel="prefetch"][href^="${path}.data"]`)).toHaveCount(0);
    await link.hover();
    await dataAsked;
    await expect(page.locator(`link[rel="prefetch"][href^="${path}.data"]`)).toHaveCount(1);
    expect(await page.locator('link[rel="modulepreload"]').count()).toBeGreaterThan(0);
  });
});
