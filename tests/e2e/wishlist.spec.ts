// The wishlist works for real (the spec's dead 'Add to Wishlist' button), with and without JavaScript.
import { expect, test } from "../support/e2e/fixtures";
import { productCards } from "../support/e2e/helpers";

test("save a product to the wishlist, see it there, move on to the cart, remove it", async ({ page }) => {
  await page.goto("/wishlist");
  await expect(page.getByRole("heading", { name: "Your Wishlist" })).toBeVisible();
  await expect(page.getByText("Your wishlist is empty.")).toBeVisible();

  // An out-of-stock piece can still be saved for later.
  await page.goto("/product/chesterfield-velvet-2-seater-sofa");
  await page.getByRole("button", { name: "Add to Wishlist" }).click();
  await expect(page.getByRole("button", { name: "Saved to Wishlist" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Saved to Wishlist" })).toHaveAttribute("aria-pressed", "true");
  await expect(page.getByTestId("wishlist-count")).toHaveText("1");

  await page.goto("/product/teak-wood-diwan-with-bolsters");
  await page.getByRole("button", { name: "Add to Wishlist" }).click();
  await expect(page.getByTestId("wishlist-count")).toHaveText("2");

  await page.getByRole("link", { name: /^Wishlist, / }).click();
  await expect(page.getByText("2 saved pieces")).toBeVisible();
  const cards = productCards(page);
  await expect(cards).toHaveCount(2);

  // Add the in-stock one to the cart straight from the wishlist.
  await page.getByRole("button", { name: "Add Teak Wood Diwan with Bolsters to cart" }).click();
  await expect(page.getByTestId("cart-count")).toHaveText("1");

  await page.getByRole("button", { name: "Remove Chesterfield Velvet 2-Seater Sofa from wishlist" }).click();
  await expect(cards).toHaveCount(1);
  await expect(page.getByText("1 saved piece")).toBeVisible();

  // Saved state survives a reload and toggles back off on the product page.
  await page.goto("/product/teak-wood-diwan-with-bolsters");
  await page.getByRole("button", { name: "Saved to Wishlist" }).click();
  await expect(page.getByRole("button", { name: "Add to Wishlist" })).toBeVisible();
  await expect(page.getByTestId("wishlist-count")).toHaveCount(0);
});
