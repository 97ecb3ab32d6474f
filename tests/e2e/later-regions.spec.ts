// Regions below the fold (components/LaterRegion) stay the server's HTML until the visitor's first
// interaction loads their code. A navigation that completes before that code has arrived must not
// make React give up on hydrating them: it would throw the server's footer away, show nothing in
// its place until the code came, and log "This Suspense boundary received an update before it
// finished hydrating" (React error 421). Here the footer's code is held back for a while, so the
// navigation, answered at once, would finish first.
import type { Page } from "@playwright/test";
import { banner } from "../support/e2e/accounts";
import { expect, jsEnabled, test } from "../support/e2e/fixtures";
import { dropExpectedStatusErrors } from "../support/e2e/helpers";

/** Holds the footer's code back for `ms`; returns how many times it was asked for. */
async function holdFooterCode(page: Page, ms: number) {
  const asked = { count: 0 };
  await page.route(/\/assets\/Footer-[^/]+\.js$/, async (route) => {
    asked.count += 1;
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });
  return asked;
}

/** Marks the server's footer element: drawn anew, it would be another node without the mark. */
async function markServerFooter(page: Page) {
  const footer = page.getByRole("contentinfo");
  await expect(footer).toBeVisible();
  await footer.evaluate((element) => element.setAttribute("data-server-node", "yes"));
  return footer;
}

async function expectFooterHydratedInPlace(page: Page) {
  const footer = page.getByRole("contentinfo");
  await expect(page.locator("[data-region]", { has: footer })).toHaveAttribute("data-region", "ready");
  await expect(footer).toHaveAttribute("data-server-node", "yes");
}

function onlyWithJavaScript(projectName: string) {
  test.skip(!jsEnabled(projectName), "JavaScript on only");
}

const FOLLOWED = "a link followed while the footer's code is still on its way: the footer is hydrated in place, not drawn anew";
test(FOLLOWED, async ({ page }, testInfo) => {
  onlyWithJavaScript(testInfo.project.name);
  const asked = await holdFooterCode(page, 1500);
  await page.goto("/about");
  await markServerFooter(page);

  await page.getByRole("banner").getByRole("link", { name: "Categories", exact: true }).first().click();
  await expect(page).toHaveURL(/\/categories$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectFooterHydratedInPlace(page);
  expect(asked.count, "the footer's code was asked for once").toBe(1);
  // The page's console stays clean (the fixture fails the test on any error).
});

const POSTED = "a form posted while the footer's code is still on its way is sent once, when the footer has hydrated";
test(POSTED, async ({ page, consoleErrors }, testInfo) => {
  onlyWithJavaScript(testInfo.project.name);
  await holdFooterCode(page, 3000);
  await page.goto("/login");
  await markServerFooter(page);
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST") posts.push(new URL(request.url()).pathname);
  });

  await page.getByLabel("Email Address", { exact: true }).fill("nobody-here@example.com");
  await page.getByLabel("Password", { exact: true }).fill("Not-the-password-1");
  await page.getByRole("button", { name: "Log In", exact: true }).click();
  await expect(banner(page)).toHaveText("Invalid email or password");
  await expectFooterHydratedInPlace(page);
  expect(posts).toEqual(["/login.data"]);
  dropExpectedStatusErrors(consoleErrors, 401);
});
