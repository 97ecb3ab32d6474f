// A server error met by a client navigation: the error page shows the failed answer's reference
// (its X-Request-Id), as a document's error page does (tests/integration/observability.test.ts).
// The product page's data answers 500 here, as a server that failed would.
import { expect, jsEnabled, test } from "../support/e2e/fixtures";
import { dropExpectedStatusErrors } from "../support/e2e/helpers";

const REFERENCE = "3f2b8c1e-9d4a-4e6b-8a7c-5d1e2f3a4b5c";

const TITLE = "a client navigation whose data the server failed to give shows the answer's reference to quote";
test(TITLE, async ({ page, consoleErrors }, testInfo) => {
  test.skip(!jsEnabled(testInfo.project.name), "a navigation without JavaScript loads a document: its page is the server's");
  await page.route(/\/product\/[^/?]+\.data(\?|$)/, (route) =>
    route.fulfill({
      status: 500,
      headers: { "Content-Type": "text/x-script", "X-Request-Id": REFERENCE },
      body: "Unexpected Server Error",
    }),
  );
  await page.goto("/category/living-room");
  await page.locator("[data-testid='product-card'] a").first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Something went wrong" })).toBeVisible();
  await expect(page.getByText("please quote this reference")).toContainText(REFERENCE);

  // The next page that loads fine shows no reference.
  await page.unroute(/\/product\//);
  await page.getByRole("link", { name: "Back to Home" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText("please quote this reference")).toHaveCount(0);
  dropExpectedStatusErrors(consoleErrors, 500);
  // The stand-in answer's body is not Remix's encoding of an error: the browser logs that it could not read it.
  const unreadable = consoleErrors.findIndex((error) => error.startsWith("SyntaxError"));
  expect(unreadable, "the unreadable body's error").toBeGreaterThanOrEqual(0);
  consoleErrors.splice(unreadable, 1);
});
