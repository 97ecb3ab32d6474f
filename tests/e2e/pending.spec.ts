// With JavaScript, slow answers show the spec's loading texts and an optimistic cart badge.
// The network is slowed by holding the data request until the test has seen the pending UI.
import type { Page } from "@playwright/test";
import { expect, test } from "../support/e2e/fixtures";
import { postsAnswered } from "../support/e2e/helpers";

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "pending UI exists only with JavaScript");

/**
 * Holds the requests matching `pattern` until release(), then lets them go one at a time, each once
 * the one before has its answer, in the order the page made them: on several servers (npm run
 * test:cluster) writes let go together could otherwise be applied in any order.
 */
function holdRequests(page: Page, pattern: string | RegExp) {
  let release: () => void = () => {};
  let previous: Promise<unknown> = new Promise<void>((resolve) => (release = resolve));
  return {
    ready: page.route(pattern, async (route) => {
      const turn = previous;
      let answered: () => void = () => {};
      previous = new Promise<void>((resolve) => (answered = resolve));
      await turn;
      try {
        await route.continue();
        await route
          .request()
          .response()
          .catch(() => null);
      } finally {
        answered();
      }
    }),
    release: () => release(),
  };
}

test("a slow navigation to the categories shows 'Loading categories...' then the list", async ({ page }) => {
  await page.goto("/about");
  const hold = holdRequests(page, /\/categories\.data/);
  await hold.ready;
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Categories" }).click();
  await expect(page.getByText("Loading categories...")).toBeVisible();
  hold.release();
  await expect(page.getByRole("link", { name: "View Collection" })).toHaveCount(5);
  await expect(page.getByText("Loading categories...")).toHaveCount(0);
});

test("a slow navigation home shows both loading texts", async ({ page }) => {
  await page.goto("/about");
  const hold = holdRequests(page, /\/_root\.data|\/\?index|_index/);
  await hold.ready;
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" }).click();
  await expect(page.getByText("Loading categories...")).toBeVisible();
  await expect(page.getByText("Loading featured products...")).toBeVisible();
  hold.release();
  await expect(page.getByRole("heading", { name: "Featured Products" })).toBeVisible();
  await expect(page.getByText("Loading featured products...")).toHaveCount(0);
});

test("the cart badge rises by the quantity before the server answers", async ({ page }) => {
  await page.goto("/product/teak-wood-diwan-with-bolsters");
  const hold = holdRequests(page, /\/cart\.data/);
  await hold.ready;
  await page.getByRole("button", { name: "Increase quantity" }).click();
  await page.getByRole("button", { name: "Increase quantity" }).click();
  await page.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page.getByTestId("cart-count")).toHaveText("3");
  await expect(page.getByRole("button", { name: "Adding..." })).toBeDisabled();
  hold.release();
  await expect(page.getByRole("button", { name: "Add to Cart" })).toBeEnabled();
  await expect(page.getByTestId("cart-count")).toHaveText("3");
});

test("on the cart page the badge follows quantity changes, removals and clearing at once", async ({ page }) => {
  // Each add is answered before the next page: the button is enabled again before its post has
  // even started, and leaving the page would cut a post still on its way.
  for (const [i, slug] of ["teak-wood-diwan-with-bolsters", "sheesham-wood-3-seater-sofa"].entries()) {
    await page.goto(`/product/${slug}`);
    const answered = page.waitForResponse((r) => r.request().method() === "POST" && /\/cart\.data/.test(r.url()));
    await page.getByRole("button", { name: "Add to Cart" }).click();
    await answered;
    await expect(page.getByTestId("cart-count")).toHaveText(String(i + 1));
  }
  await page.goto("/cart");
  await expect(page.getByTestId("cart-count")).toHaveText("2");

  const hold = holdRequests(page, /\/cart\.data/);
  await hold.ready;
  // The reload at the end waits for these writes' answers: on several servers (npm run
  // test:cluster) one could otherwise read the cart before another has written it.
  const writes = postsAnswered(page, /\/cart\.data/, 3);
  await page.getByRole("button", { name: "Increase quantity" }).first().click();
  await expect(page.getByTestId("cart-count")).toHaveText("3");
  await page
    .getByRole("button", { name: /^Remove .* from cart$/ })
    .last()
    .click();
  await expect(page.getByTestId("cart-count")).toHaveText("2");
  await page.getByRole("button", { name: "Clear Cart" }).click();
  await expect(page.getByTestId("cart-count")).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Your Cart is Empty" })).toBeVisible();
  hold.release();
  await expect(page.getByRole("heading", { name: "Your Cart is Empty" })).toBeVisible();
  await writes;
  await page.reload();
  await expect(page.getByRole("heading", { name: "Your Cart is Empty" })).toBeVisible();
});

test("while a first item is being added, the other add buttons wait", async ({ page }) => {
  await page.goto("/category/dining-room");
  const hold = holdRequests(page, /\/cart\.data/);
  await hold.ready;
  const buttons = page.getByRole("button", { name: /^Add .+ to cart$/ });
  await buttons.first().click();
  await expect(page.getByTestId("cart-count")).toHaveText("1");
  await expect(buttons.nth(1)).toBeDisabled();
  hold.release();
  await expect(buttons.nth(1)).toBeEnabled();
  const second = postsAnswered(page, /\/cart\.data/, 1);
  await buttons.nth(1).click();
  await expect(page.getByTestId("cart-count")).toHaveText("2");
  await second;
  await page.reload();
  await expect(page.getByTestId("cart-count")).toHaveText("2");
});
