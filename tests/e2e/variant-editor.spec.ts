// The staff's variants page, with JavaScript off (phone) and on (desktop): a product sold as one
// piece is given an option (its piece becomes the first combination), the other combination is
// generated, one price set for all, one variant's stock adjusted relatively (a refused adjustment
// shown beside its field first), and the storefront's product page then offers the choice.
import { categoryId, expectFieldError, openAdmin, postAdminForm, shot, uniqueWord } from "../support/e2e/admin";
import { toast } from "../support/e2e/accounts";
import { expect, test } from "../support/e2e/fixtures";
import { dropExpectedStatusErrors } from "../support/e2e/helpers";

test("staff add an option, generate the variants, set a price for all, adjust one's stock; the shop offers the choice", async ({
  page,
  consoleErrors,
}, testInfo) => {
  await openAdmin(page, testInfo, "/admin/products", "Products");
  const title = `Variant Test Ottoman ${uniqueWord()}`;
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  await postAdminForm(page, testInfo, "/admin/products", {
    intent: "create",
    title,
    // Outdoor: other specs count the living room's pieces, their prices and fabrics.
    categoryId: String(await categoryId(page, "outdoor")),
    price: "12999",
    description: "A footstool for the veranda, given its fabrics by this test.",
    imgPath: "/images/products/teak-wood-3-seater-garden-bench.svg",
    inStock: "on",
    stock: "6",
  });
  await page.goto(`/admin/products?q=${encodeURIComponent(title)}`);
  await page.getByRole("link", { name: `Variants of ${title}` }).click();
  await expect(page.getByRole("heading", { level: 2 })).toHaveText(`Variants of ${title}`);
  const rows = page.getByTestId("variant-row");
  await expect(rows).toHaveCount(1);

  const addOption = page.getByRole("form", { name: "Add an option" });
  await addOption.getByLabel("Name", { exact: true }).fill("Fabric");
  await addOption.getByLabel("Values", { exact: true }).fill("Linen, Velvet");
  await addOption.getByRole("button", { name: "Add option" }).click();
  await expect(toast(page, "Option Fabric added")).toBeVisible();
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Linen");
  await expect(page.getByTestId("missing-combinations")).toHaveText(/^1 combination has no variant yet/);

  const generate = page.getByRole("form", { name: "Generate the combinations" });
  await generate.getByLabel("Price (₹)", { exact: true }).fill("13999");
  await generate.getByLabel("Stock each", { exact: true }).fill("2");
  await generate.getByRole("button", { name: "Make 1 variant" }).click();
  await expect(toast(page, "Variants made")).toBeVisible();
  await expect(rows).toHaveCount(2);
  await expect(page.getByTestId("missing-combinations")).toHaveText("Every combination of the values has its variant.");

  const priceAll = page.getByRole("form", { name: "Set price for all" });
  await priceAll.getByLabel("Price (₹)", { exact: true }).fill("11999");
  await priceAll.getByRole("button", { name: "Set for all" }).click();
  await expect(toast(page, "Price set for every variant")).toBeVisible();
  await expect(page.getByLabel("Price of Linen (₹)")).toHaveValue("11999");
  await expect(page.getByLabel("Price of Velvet (₹)")).toHaveValue("11999");

  // Below zero: refused beside the field, nothing written; then +3 received.
  const velvet = rows.filter({ hasText: "Velvet" });
  await page.getByLabel("Adjust stock of Velvet by").fill("-5");
  await page.getByRole("button", { name: "Adjust stock of Velvet" }).click();
  const sku = await page.getByLabel("SKU of Velvet").inputValue();
  await expectFieldError(page, "Adjust stock of Velvet by", `The stock cannot go below 0: ${sku} has only 2 in stock`);
  dropExpectedStatusErrors(consoleErrors, 400);
  await expect(velvet.getByTestId("variant-stock")).toHaveText("2");
  await page.getByLabel("Adjust stock of Velvet by").fill("+3");
  await page.getByRole("button", { name: "Adjust stock of Velvet" }).click();
  await expect(toast(page, "Stock adjusted")).toBeVisible();
  await expect(velvet.getByTestId("variant-stock")).toHaveText("5");
  await shot(page, testInfo, "product-variants");

  // The products list: 11 units in all, two variants.
  await page.goto(`/admin/products?q=${encodeURIComponent(title)}`);
  await expect(page.getByTestId("product-row")).toContainText("2 variants");
  await expect(page.getByTestId("product-stock")).toHaveText("11");

  // The storefront offers the choice.
  await page.goto(`/product/${slug}`);
  const fabric = page.getByRole("group", { name: /Fabric/ });
  await expect(fabric.getByRole("radio")).toHaveCount(2);
  await expect(fabric.getByText("Linen", { exact: true })).toBeVisible();
  await expect(fabric.getByText("Velvet", { exact: true })).toBeVisible();
  await expect(page.locator("main")).toContainText("₹11,999");
});
