// The staff's CSV import with variants, with JavaScript on and off: a new product sold in two
// fabrics made from a file, one variant's row (its SKU the key) changed and imported back, and a
// file with the same SKU twice refused with its line and nothing written.
import { stringify } from "csv-stringify/sync";
import { parse } from "csv-parse/sync";
import type { Page } from "@playwright/test";
import { toast } from "../support/e2e/accounts";
import { loginAsAdmin, uniqueTag } from "../support/e2e/admin";
import { expect, test } from "../support/e2e/fixtures";
import { dropExpectedStatusErrors } from "../support/e2e/helpers";
import { CSV_COLUMNS } from "~/utils/product-csv";

type Cells = Partial<Record<(typeof CSV_COLUMNS)[number], string>>;

const file = (rows: Cells[]) => Buffer.from(stringify([[...CSV_COLUMNS], ...rows.map((r) => CSV_COLUMNS.map((c) => r[c] ?? ""))]));

async function upload(page: Page, rows: Cells[]) {
  await page.goto("/admin/products/import");
  await page.getByLabel("CSV file").setInputFiles({ name: "products.csv", mimeType: "text/csv", buffer: file(rows) });
  await page.getByRole("button", { name: "Import products" }).click();
}

async function exported(page: Page, slug: string): Promise<Record<string, string>[]> {
  const answer = await page.request.get(`/admin/products/export.csv?q=${encodeURIComponent(slug)}`);
  expect(answer.status()).toBe(200);
  return (parse(await answer.text(), { bom: true, columns: true }) as Record<string, string>[]).filter((r) => r.slug === slug);
}

test("a product's variants from a file, one variant's row changed by its SKU, a duplicate SKU refused", async ({
  page,
  consoleErrors,
}, testInfo) => {
  await loginAsAdmin(page, testInfo);
  const slug = `csv-${uniqueTag(testInfo)}`.toLowerCase().replace(/[^a-z0-9-]/g, "-");
  const sku = `C${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();
  const base: Cells = {
    slug,
    // Outdoor, and no "sofa" in its name: other specs count the living room's pieces and the sofas.
    title: `Csv Swing ${slug}`,
    category: "outdoor",
    description: "A swing seat from a file.",
    imgPath: "/images/products/wrought-iron-bistro-set.svg",
    option1_name: "Fabric",
  };
  await upload(page, [
    { ...base, option1_value: "Linen", sku: `${sku}-L`, price: "30000", stock: "4" },
    { ...base, option1_value: "Velvet", sku: `${sku}-V`, price: "34000", stock: "2" },
  ]);
  await expect(toast(page, "Imported 1 product (1 new, 0 updated)")).toBeVisible();

  const rows = await exported(page, slug);
  expect(rows.map((r) => [r.sku, r.option1_value, r.price, r.stock])).toEqual([
    [`${sku}-L`, "Linen", "30000", "4"],
    [`${sku}-V`, "Velvet", "34000", "2"],
  ]);
  await upload(page, [{ ...rows[1]!, price: "33500", stock: "5" }]);
  await expect(toast(page, "Imported 1 product (0 new, 1 updated)")).toBeVisible();
  expect((await exported(page, slug)).map((r) => [r.sku, r.price, r.stock])).toEqual([
    [`${sku}-L`, "30000", "4"],
    [`${sku}-V`, "33500", "5"],
  ]);

  await upload(page, [
    { ...base, option1_value: "Boucle", sku: `${sku}-B`, price: "36000", stock: "1" },
    { ...base, option1_value: "Jute", sku: `${sku}-B`, price: "36000", stock: "1" },
  ]);
  await expect(page.getByTestId("import-problems")).toContainText(`Line 3: SKU ${sku}-B is already on line 2`);
  dropExpectedStatusErrors(consoleErrors, 400);
  expect(await exported(page, slug)).toHaveLength(2);
});
