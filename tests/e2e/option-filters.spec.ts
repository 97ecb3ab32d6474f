// Filters by option value on a category page, with JavaScript off and on, on a phone and a desktop:
// the Filters form lists each option's values with how many products each leaves; choosing Velvet
// and applying (a GET form) shows only the pieces sold in velvet, says how many, keeps the choice
// ticked and named above the list, and removing it brings every piece back. The demo's living room
// sells two pieces in velvet (db/seed-variants.ts).
import fs from "node:fs/promises";
import { expect, test } from "../support/e2e/fixtures";
import { cardTitles, productCards } from "../support/e2e/helpers";

const VELVET = ["Mango Wood L-Shaped Sectional Sofa", "Convertible Sofa Cum Bed"];

test("choose a fabric on a category page: only the pieces in it, their count, and the way back", async ({ page }, testInfo) => {
  await page.goto("/category/living-room");
  const cards = productCards(page);
  const everything = await cardTitles(cards);
  expect(everything.length).toBeGreaterThan(VELVET.length);

  await page.getByText("Filters", { exact: true }).click();
  const fabric = page.getByRole("group", { name: "Fabric" });
  const velvet = fabric.getByRole("checkbox", { name: /^Velvet \(\d+\)$/ });
  await expect(velvet).toBeVisible();
  await expect(fabric.getByText("Velvet (2)")).toBeVisible();
  await velvet.check();
  await page.getByRole("button", { name: "Apply Filters" }).click();

  await expect(page).toHaveURL(/\/category\/living-room\?fabric=velvet$/);
  await expect(page.getByTestId("showing")).toHaveText("Showing 1 to 2 of 2 products");
  await expect(cards).toHaveCount(2);
  expect((await cardTitles(cards)).sort()).toEqual([...VELVET].sort());
  // The choice stays ticked, with its count, and is named above the list.
  await expect(page.getByRole("group", { name: "Fabric" }).getByRole("checkbox", { name: "Velvet (2)" })).toBeChecked();
  const remove = page.getByRole("link", { name: "Remove Fabric: Velvet" });
  await expect(remove).toBeVisible();
  await fs.mkdir("/tmp/e2e-shots", { recursive: true });
  await page.screenshot({ path: `/tmp/e2e-shots/${testInfo.project.name}-category-filtered.png`, fullPage: true });

  // A fabric no piece here has, beside it: ignored, never an error.
  await page.goto("/category/living-room?fabric=velvet&fabric=tweed&weave=none");
  await expect(cards).toHaveCount(2);

  await page.goto("/category/living-room?fabric=velvet");
  await page.getByRole("link", { name: "Remove Fabric: Velvet" }).click();
  await expect(page).toHaveURL(/\/category\/living-room$/);
  await expect(cards).toHaveCount(everything.length);
});
