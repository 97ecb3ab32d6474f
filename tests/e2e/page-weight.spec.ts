// What the storefront ships to a phone (ADR 0016), JavaScript on: every script of the page's own
// origin until the network is idle, gzip -9, stays within the budget, as the perf harness counts
// it; and React hydrates the server's document in place: the elements the server sent are the
// ones the page keeps (never a second <html> or a page drawn anew, no hydration mismatch that makes
// React draw a region again), the search box's label still names its field. The regions below the
// fold, which React hydrates after the rest (components/LaterRegion: footer, the product page's
// reviews and related products, the home page's sections), are the server's elements too, and
// they work once the page says it has hydrated.
import zlib from "node:zlib";
import { JS_BUDGET_KIB } from "../../scripts/page-weight.mjs";
import { expect, jsEnabled, test } from "../support/e2e/fixtures";

const PAGES = ["/", "/category/living-room", "/product/sheesham-wood-3-seater-sofa", "/search?q=sofa"];

/**
 * Runs before the page's scripts: marks the server's <main> and search field once parsed, and notes
 * the first of the events that load the regions' on-demand code (components/LaterRegion), so a
 * budget overrun by that code names what set it off.
 */
function markServerElements() {
  const note = (event: Event) => {
    const target = event.target instanceof Element ? event.target.tagName.toLowerCase() : String(event.target);
    (window as { firstInteraction?: string }).firstInteraction ??= `${event.type} (trusted: ${event.isTrusted}) on ${target}`;
  };
  for (const type of ["scroll", "wheel", "pointermove", "pointerdown", "touchstart", "keydown", "focusin"]) {
    window.addEventListener(type, note, { capture: true, passive: true });
  }
  document.addEventListener("DOMContentLoaded", () => {
    const kept = "main, #search-wide-q, header, footer, [data-testid='product-card'], #reviews, img[fetchpriority='high']";
    for (const element of document.querySelectorAll(kept)) (element as HTMLElement).dataset.fromServer = "yes";
  });
}

for (const path of PAGES) {
  test(`${path} ships at most ${JS_BUDGET_KIB} KiB of JavaScript (gzip) and hydrates the server's document in place`, async ({
    page,
    baseURL,
  }, testInfo) => {
    test.skip(!jsEnabled(testInfo.project.name), "JavaScript on only");
    const bodies = new Map<string, Promise<Buffer>>();
    page.on("response", (response) => {
      const url = response.url();
      const type = response.headers()["content-type"] ?? "";
      const script = response.request().resourceType() === "script" || /javascript/.test(type);
      if (script && url.startsWith(baseURL!) && !bodies.has(url)) bodies.set(url, response.body());
    });
    await page.addInitScript(markServerElements);
    await page.goto(path);
    await page.waitForLoadState("networkidle");

    const sizes = await Promise.all([...bodies.values()].map(async (body) => zlib.gzipSync(await body, { level: 9 }).length));
    const kib = sizes.reduce((a, b) => a + b, 0) / 1024;
    expect(bodies.size, "scripts loaded").toBeGreaterThan(0);
    const interaction = await page.evaluate(() => (window as { firstInteraction?: string }).firstInteraction ?? "none");
    expect(kib, `JS gzip of ${path}: ${kib.toFixed(1)} KiB in ${bodies.size} files; first interaction: ${interaction}`).toBeLessThanOrEqual(
      JS_BUDGET_KIB,
    );

    const dom = await page.evaluate(() => ({
      html: document.querySelectorAll("html").length,
      body: document.querySelectorAll("body").length,
      main: [...document.querySelectorAll("main")].map((m) => m.dataset.fromServer ?? "new"),
      headerSearch: document.querySelector<HTMLInputElement>("#search-wide-q")?.dataset.fromServer ?? "missing",
      later: [
        ...document.querySelectorAll<HTMLElement>("header, footer, [data-testid='product-card'], #reviews, img[fetchpriority='high']"),
      ].map((element) => `${element.tagName.toLowerCase()} ${element.dataset.fromServer ?? "new"}`),
    }));
    expect(dom).toMatchObject({ html: 1, body: 1, main: ["yes"], headerSearch: "yes" });
    // one header and one footer, and every card (and the product page's reviews) as the server sent them
    expect(dom.later.filter((e) => e.startsWith("header ") || e.startsWith("footer "))).toEqual(["header yes", "footer yes"]);
    expect(
      dom.later.filter((e) => e.endsWith(" new")),
      "regions drawn anew",
    ).toEqual([]);
    expect(dom.later.filter((e) => e.startsWith("article ")).length, "product cards").toBeGreaterThan(0);
    // The header's search field keeps its name (the label the server printed points at it) and
    // its suggestions list is the one it names.
    await expect(page.getByLabel("Search products").first()).toHaveAttribute("id", "search-wide-q");
    await expect(page.locator("#search-wide-q")).toHaveAttribute("aria-controls", "search-wide-suggestions");
  });
}

// Regions hydrated after the page's first pass (LaterRegion) have their scripts once the page says
// it has hydrated: their links move on inside the page (Remix's <Link>), no new document loaded.
test("the footer and the product cards, hydrated after the rest of the page, navigate inside the page", async ({ page }, testInfo) => {
  test.skip(!jsEnabled(testInfo.project.name), "JavaScript on only");
  await page.goto("/category/living-room");
  await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
  await page.locator("[data-testid='product-card'] a").last().click();
  await expect(page).toHaveURL(/\/product\//);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // The footer's code loads once it comes into view; until then its links load a new document.
  const footer = page.locator("[data-region]", { has: page.getByRole("contentinfo") });
  await footer.scrollIntoViewIfNeeded();
  await expect(footer).toHaveAttribute("data-region", "ready");
  await page.getByRole("contentinfo").getByRole("link", { name: "Privacy Policy" }).click();
  await expect(page).toHaveURL(/\/privacy-policy$/);
  expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
});
