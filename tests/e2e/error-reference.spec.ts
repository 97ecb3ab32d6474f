// A server error met by a client navigation: Remix hands the error page the error but not the
// answer that carried its X-Request-Id, so the page offers 'Try again', which loads the page from
// the server as a whole document; the server's own error page shows the reference
// (tests/integration/observability.test.ts). Here the product page's data answers 500, as a
// server that failed would, and the page itself then loads.
import { expect, jsEnabled, test } from "../support/e2e/fixtures";
import { dropExpectedStatusErrors } from "../support/e2e/helpers";

const TITLE = "a client navigation whose data the server failed to give: 'Try again' loads the page from the server";
test(TITLE, async ({ page, consoleErrors }, testInfo) => {
  test.skip(!jsEnabled(testInfo.project.name), "a navigation without JavaScript loads a document: its error page is the server's");
  await page.route(/\/product\/[^/?]+\.data(\?|$)/, (route) =>
    route.fulfill({ status: 500, headers: { "Content-Type": "text/x-script" }, body: "Unexpected Server Error" }),
  );
  await page.goto("/category/living-room");
  const card = page.locator("[data-testid='product-card'] a").first();
  const href = await card.getAttribute("href");
  await card.click();
  await expect(page.getByRole("heading", { level: 1, name: "Something went wrong" })).toBeVisible();
  await expect(page.getByText("If it happens again, the page will show a reference to quote")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${href}$`));

  const documents: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "document") documents.push(new URL(request.url()).pathname);
  });
  await page.getByRole("link", { name: "Try again" }).click();
  await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Something went wrong");
  expect(documents).toEqual([href]);
  dropExpectedStatusErrors(consoleErrors, 500);
  // The stand-in answer's body is not Remix's encoding of an error: the browser logs that it could not read it.
  const unreadable = consoleErrors.findIndex((error) => error.startsWith("SyntaxError"));
  expect(unreadable, "the unreadable body's error").toBeGreaterThanOrEqual(0);
  consoleErrors.splice(unreadable, 1);
});
