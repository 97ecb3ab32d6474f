// Reviews from real buyers (ADR 0018), with JavaScript on and off: a customer whose order
// was delivered follows the order page's link, rates the piece and writes a review; the product
// page shows it marked 'Verified purchase' with the rating; the customer edits it; the staff hide
// it from /admin/reviews with a reason and it leaves the product page.
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { toast } from "../support/e2e/accounts";
import { loginAsAdmin, uniqueTag } from "../support/e2e/admin";
import { expect, jsEnabled, test } from "../support/e2e/fixtures";
import { addToCart, gujaratAddress, newCustomer, placeCodOrder, PRODUCTS, shipAndDeliver } from "../support/e2e/orders";

/** axe (WCAG 2 A/AA) on the page as it stands; it runs inside the page, so only with JavaScript. */
async function expectAccessible(page: Page, projectName: string) {
  if (!jsEnabled(projectName)) return;
  // A toast fading in or out is read at its settled colours: the visitor who asks for less motion gets no fade.
  await page.emulateMedia({ reducedMotion: "reduce" });
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

test("review a delivered piece, see it on the product page, edit it; another customer finds it helpful; the staff hide it", async ({
  page,
  browser,
  workerCustomer,
  javaScriptEnabled,
}, testInfo) => {
  test.slow(); // an order, two admin posts, a review, an edit, a moderation
  const product = PRODUCTS.loveseat;
  const account = await newCustomer(page, testInfo, "reviews");
  await addToCart(page, product, 1);
  const orderId = await placeCodOrder(page, gujaratAddress(account));

  await loginAsAdmin(page, testInfo);
  await shipAndDeliver(page, orderId);

  // The delivered order's page links the piece to its review form.
  await page.goto(`/order-confirmation/${orderId}`);
  const pieces = page.getByRole("region", { name: "Review your pieces" });
  await pieces.getByRole("link", { name: `Review ${product.title}` }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Review ${product.title}`);
  await expectAccessible(page, testInfo.project.name);

  // The rating, a title and the text.
  const title = `Comfortable <b>and</b> sturdy ${uniqueTag(testInfo)}`; // plain text: never markup
  await page.getByRole("radio", { name: /^4 stars/ }).check();
  await page.getByLabel("Title").fill(title);
  await page.getByLabel("Your review").fill("The fabric is soft and the frame does not creak.\nDelivery was on time.");
  await page.getByRole("button", { name: "Submit review" }).click();
  await expect(toast(page, "Thank you for your review")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/product/${product.slug}#reviews$`));

  const reviews = page.getByRole("region", { name: "Customer Reviews" });
  const mine = reviews.getByTestId("review").filter({ hasText: title });
  await expect(mine).toBeVisible();
  await expect(mine.getByText("Verified purchase")).toBeVisible();
  await expect(mine.getByRole("heading", { level: 3 })).toHaveText(title);
  await expect(mine.locator("b")).toHaveCount(0);
  await expect(mine.getByText("4 out of 5 stars")).toBeAttached();
  await expect(mine.getByText("Delivery was on time.")).toBeVisible();
  await expect(reviews.getByTestId("review-histogram")).toBeVisible();
  await expect(page.getByTestId("rating").first()).toContainText(/\d\.\d \(\d+\)/);
  await expectAccessible(page, testInfo.project.name);

  // The product page's own form edits the same review.
  const form = reviews.getByTestId("review-form");
  await expect(form.getByLabel("Title")).toHaveValue(title);
  await form.getByRole("radio", { name: /^5 stars/ }).check();
  await form.getByRole("button", { name: "Update review" }).click();
  await expect(toast(page, "Your review is updated")).toBeVisible();
  await expect(mine.getByText("5 out of 5 stars")).toBeAttached();
  await expect(reviews.getByTestId("review").filter({ hasText: title })).toHaveCount(1);

  // Another customer (the worker's own, in a browser of its own) marks it helpful, once.
  const voter = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    javaScriptEnabled,
    viewport: testInfo.project.use.viewport,
    storageState: workerCustomer.state,
    extraHTTPHeaders: { "X-Forwarded-For": `10.251.${testInfo.workerIndex % 250}.${javaScriptEnabled ? 1 : 2}` },
  });
  const voterPage = await voter.newPage();
  await voterPage.goto(`/product/${product.slug}`);
  if (javaScriptEnabled) await voterPage.locator("html[data-hydrated='true']").waitFor({ state: "attached" });
  const theirView = voterPage.getByTestId("review").filter({ hasText: title });
  await theirView.getByRole("button", { name: `Mark “${title}” as helpful` }).click();
  await expect(theirView.getByText("You found this helpful")).toBeVisible();
  await expect(theirView.getByTestId("helpful-count")).toHaveText("1 found this helpful");
  await voterPage.reload();
  await expect(
    voterPage
      .getByTestId("review")
      .filter({ hasText: title })
      .getByRole("button", { name: /as helpful$/ }),
  ).toHaveCount(0);
  await voter.close();
  // Its author sees the vote and no button on their own review.
  await page.reload();
  await expect(mine.getByTestId("helpful-count")).toHaveText("1 found this helpful");
  await expect(mine.getByRole("button", { name: /as helpful$/ })).toHaveCount(0);

  // The staff hide it with a reason; it leaves the product page, and its author sees why.
  await page.goto(`/admin/reviews?q=${encodeURIComponent(account.email)}`);
  const row = page.getByTestId("review-row").filter({ hasText: title });
  await row.getByText("Hide…").click();
  await row.getByLabel("Reason (the author reads it)").fill("Shows a phone number.");
  await row.getByRole("button", { name: /^Hide review/ }).click();
  await expect(toast(page, /Review #\d+ hidden/)).toBeVisible();
  await expect(page.getByTestId("review-row").filter({ hasText: title }).getByText("Hidden", { exact: true })).toBeVisible();
  await expectAccessible(page, testInfo.project.name);

  await page.goto(`/product/${product.slug}`);
  await expect(reviews.getByTestId("review").filter({ hasText: title })).toHaveCount(0);
  await expect(reviews.getByTestId("review-hidden-note")).toContainText("Shows a phone number.");
});
