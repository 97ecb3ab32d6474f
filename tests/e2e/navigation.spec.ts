// Moving quickly between pages logs no console error: with JavaScript, pages left while their
// route-discovery requests (GET /__manifest, Remix's lazy route discovery) are still under way,
// and client-side moves cut short by the next one; without it, page loads cut short the same way.
// The console check (fixtures.ts) also reads what a page logs while it is being left.
import type { Route } from "@playwright/test";
import { expect, test } from "../support/e2e/fixtures";

const PAGES = ["/", "/category/living-room", "/product/sheesham-wood-3-seater-sofa", "/cart"];

test("moving quickly between pages logs no console error", async ({ page }) => {
  test.slow(); // a dozen page loads, each waited for with JavaScript until it has hydrated
  // A slow connection for route discovery: its requests wait until their page has been left.
  const held: Route[] = [];
  await page.route(/\/__manifest\?/, (route) => {
    held.push(route);
  });
  // The requests of a page already left were cancelled with it: continuing those fails, as it should.
  const release = async (routes: Route[]) => {
    for (const route of routes) await route.continue().catch(() => undefined);
  };

  // Page after page, each left as soon as it is shown (with JavaScript: hydrated, the routes
  // of its links being discovered), the last one by a reload.
  for (const path of [...PAGES, "reload"]) {
    const leftBehind = held.splice(0);
    if (path === "reload") await page.reload();
    else await page.goto(path);
    await expect(page.getByRole("contentinfo")).toBeVisible();
    await release(leftBehind);
  }

  // Link after link from the footer, each clicked before the page it leads to has settled, and
  // the last move cut short by a typed address.
  await page.unrouteAll();
  await release(held.splice(0));
  await page.goto("/about");
  const quickLinks = page.getByRole("contentinfo").getByRole("navigation", { name: "Quick links" });
  for (const name of ["Categories", "Contact Us", "Home"]) {
    await quickLinks.getByRole("link", { name, exact: true }).click();
  }
  await page.goto("/contact");
  await expect(page.getByRole("heading", { level: 1, name: "Contact Us" })).toBeVisible();
});
