// The product CSV with variants: one row per variant, SKU as the key. A new product with its
// variants, a variant updated by its SKU, a new variant (with a new option value) of an existing
// product, the export imported back unchanged; every bad row refused by line with nothing
// written; a stale row; and an import racing a checkout of the same variant.
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db, isPostgres } from "~/lib/db.server";
import { exportProductsCsv } from "~/models/catalogue/csv-export.server";
import { importProductsCsv } from "~/models/catalogue/csv-import.server";
import { STALE_VARIANT } from "~/models/catalogue/csv-plan-variants.server";
import type { ImportProblem } from "~/models/catalogue/csv-read.server";
import { ImportRejected } from "~/models/catalogue/csv-read.server";
import { BUILTIN_OWNER } from "~/models/staff/staff.server";
import * as cartAdd from "~/routes/api.cart.add";
import { CSV_COLUMNS, PRODUCT_COLUMNS } from "~/utils/product-csv";
import { checkoutFields, directCustomer, placeViaApi } from "../support/orders";
import { jsonRequest } from "../support/requests";
import { lockHolder, untilWaiting } from "../support/pg-locks";
import { call } from "../support/route-calls";

type Cells = Partial<Record<(typeof CSV_COLUMNS)[number], string | number>>;

beforeAll(async () => {
  await ready;
});

let counter = 0;
/** A tag no other test (or run) uses: slugs and SKUs are unique. */
const tag = () => `csvv${Date.now().toString(36)}${(counter++).toString(36)}`;

function file(rows: Cells[]): string {
  return stringify([[...CSV_COLUMNS], ...rows.map((r) => CSV_COLUMNS.map((c) => String(r[c] ?? "")))], { record_delimiter: "windows" });
}

/** A row of a sofa sold by fabric and size. */
function sofaRow(slug: string, sku: string, fabric: string, size: string, price: number, stock: number, more: Cells = {}): Cells {
  return {
    slug,
    title: `Sofa ${slug}`,
    category: "living-room",
    price,
    stock,
    featured: "no",
    made_to_order: "no",
    description: "A sofa sold in fabrics and sizes.",
    imgPath: "/images/products/sofa.svg",
    specifications: '{"Frame":"Sheesham"}',
    option1_name: "Fabric",
    option1_value: fabric,
    option2_name: "Size",
    option2_value: size,
    sku,
    active: "yes",
    ...more,
  };
}

/** A new sofa, made by an import: Linen and Velvet, 2- and 3-seater. */
async function newSofa() {
  const slug = tag();
  const sku = slug.toUpperCase();
  const rows = [
    sofaRow(slug, `${sku}-L2`, "Linen", "2-seater", 38000, 4, { weight_grams: 42000, length_cm: 180 }),
    sofaRow(slug, `${sku}-L3`, "Linen", "3-seater", 45000, 3),
    sofaRow(slug, `${sku}-V2`, "Velvet", "2-seater", 42000, 0, { active: "no" }),
  ];
  expect(await importProductsCsv(file(rows), BUILTIN_OWNER)).toEqual({ created: 1, updated: 0 });
  const item = await db.selectFrom("items").selectAll().where("slug", "=", slug).executeTakeFirstOrThrow();
  return { slug, sku, rows, item };
}

/** The export's rows of one product, as records. */
async function exported(slug: string): Promise<Record<string, string>[]> {
  const records = parse(await exportProductsCsv({ q: "", category: "all" }), { bom: true, columns: true }) as Record<string, string>[];
  return records.filter((r) => r.slug === slug);
}

const variantRows = (itemId: number) =>
  db.selectFrom("productVariants").selectAll().where("itemId", "=", itemId).orderBy("position").orderBy("id").execute();

/** Everything an import could write. */
async function snapshot() {
  const [items, variants, options, values, links, audit] = await Promise.all([
    db.selectFrom("items").selectAll().orderBy("id").execute(),
    db.selectFrom("productVariants").selectAll().orderBy("id").execute(),
    db.selectFrom("productOptions").selectAll().orderBy("id").execute(),
    db.selectFrom("productOptionValues").selectAll().orderBy("id").execute(),
    db.selectFrom("variantOptionValues").selectAll().orderBy("variantId").orderBy("optionValueId").execute(),
    db.selectFrom("auditLog").select("id").orderBy("id").execute(),
  ]);
  return { items, variants, options, values, links, audit };
}

async function refused(text: string): Promise<ImportProblem[]> {
  const before = await snapshot();
  const error = await importProductsCsv(text, BUILTIN_OWNER).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImportRejected);
  expect((error as ImportRejected).status).toBe(400);
  expect(await snapshot()).toEqual(before);
  return (error as ImportRejected).problems;
}

describe("the CSV with variants: writes", () => {
  it("a new product with its variants: options, values, SKUs, figures; the product's price and stock follow", async () => {
    const { item, sku } = await newSofa();
    const variants = await variantRows(item.id);
    expect(variants.map((v) => [v.sku, v.price, v.stock, v.active, v.weightGrams, v.lengthCm])).toEqual([
      [`${sku}-L2`, 38000, 4, 1, 42000, 180],
      [`${sku}-L3`, 45000, 3, 1, null, null],
      [`${sku}-V2`, 42000, 0, 0, null, null],
    ]);
    expect(item).toMatchObject({ price: 38000, stock: 7 });
    const options = await db
      .selectFrom("productOptions")
      .select(["name", "slug"])
      .where("itemId", "=", item.id)
      .orderBy("position")
      .execute();
    expect(options).toEqual([
      { name: "Fabric", slug: "fabric" },
      { name: "Size", slug: "size" },
    ]);
    const audit = await db.selectFrom("auditLog").select("summary").where("entityId", "=", String(item.id)).orderBy("id").execute();
    expect(audit.map((a) => a.summary)).toEqual([
      expect.stringMatching(/^Created product/),
      expect.stringMatching(new RegExp(`^Variants of product .* added ${sku}-L2 \\(Linen, 2-seater\\)`)),
    ]);
  });

  it("the export has one row per variant, and imports back unchanged", async () => {
    const { slug, sku, item } = await newSofa();
    const rows = await exported(slug);
    expect(rows.map((r) => [r.sku, r.option1_name, r.option1_value, r.option2_value, r.price, r.stock, r.active, r.weight_grams])).toEqual([
      [`${sku}-L2`, "Fabric", "Linen", "2-seater", "38000", "4", "yes", "42000"],
      [`${sku}-L3`, "Fabric", "Linen", "3-seater", "45000", "3", "yes", ""],
      [`${sku}-V2`, "Fabric", "Velvet", "2-seater", "42000", "0", "no", ""],
    ]);
    expect(new Set(rows.map((r) => r.title))).toEqual(new Set([`Sofa ${slug}`]));
    const before = await snapshot();
    const text = stringify([[...CSV_COLUMNS], ...rows.map((r) => CSV_COLUMNS.map((c) => r[c] ?? ""))]);
    expect(await importProductsCsv(text, BUILTIN_OWNER)).toEqual({ created: 0, updated: 1 });
    const after = await snapshot();
    expect(after.variants).toEqual(before.variants);
    expect(after.options).toEqual(before.options);
    expect(after.values).toEqual(before.values);
    expect(after.items.find((i) => i.id === item.id)!.version).toBe(before.items.find((i) => i.id === item.id)!.version);
  });

  it("a row with a known SKU updates that variant; a new SKU with a new value adds a variant and the value", async () => {
    const { slug, sku, item } = await newSofa();
    const rows = await exported(slug);
    const l3 = rows.find((r) => r.sku === `${sku}-L3`)!;
    const text = file([
      { ...l3, price: 44000, stock: 9, height_cm: 85 },
      { ...l3, sku: `${sku}-B3`, option1_value: "Boucle", price: 51000, stock: 2, variant_version: "", height_cm: "" },
    ]);
    expect(await importProductsCsv(text, BUILTIN_OWNER)).toEqual({ created: 0, updated: 1 });
    const variants = await variantRows(item.id);
    expect(variants.find((v) => v.sku === `${sku}-L3`)).toMatchObject({ price: 44000, stock: 9, heightCm: 85 });
    expect(variants.find((v) => v.sku === `${sku}-B3`)).toMatchObject({ price: 51000, stock: 2, active: 1 });
    const values = await db
      .selectFrom("productOptionValues")
      .select("value")
      .where("itemId", "=", item.id)
      .orderBy("optionId")
      .orderBy("position")
      .execute();
    expect(values.map((v) => v.value)).toEqual(["Linen", "Velvet", "Boucle", "2-seater", "3-seater"]);
    expect(await db.selectFrom("items").select(["price", "stock"]).where("id", "=", item.id).executeTakeFirstOrThrow()).toEqual({
      price: 38000,
      stock: 4 + 9 + 2,
    });
  });

  it("the product's columns and a variant's in one row: both written, each with its audit row", async () => {
    const { slug, sku, item } = await newSofa();
    const rows = await exported(slug);
    const text = file(rows.map((r) => ({ ...r, title: "Renamed Sofa", ...(r.sku === `${sku}-V2` ? { active: "yes", stock: 6 } : {}) })));
    expect(await importProductsCsv(text, BUILTIN_OWNER)).toEqual({ created: 0, updated: 1 });
    expect(await db.selectFrom("items").select(["title", "stock"]).where("id", "=", item.id).executeTakeFirstOrThrow()).toEqual({
      title: "Renamed Sofa",
      stock: 4 + 3 + 6,
    });
    const audit = await db.selectFrom("auditLog").select("summary").where("entityId", "=", String(item.id)).orderBy("id").execute();
    expect(audit.slice(-2).map((a) => a.summary)).toEqual([
      'Edited product "Renamed Sofa": title changed',
      `Variants of product "Renamed Sofa" from CSV: changed ${sku}-V2 stock 0 → 6, active false → true`,
    ]);
  });

  it("a row without a variant_version may change a variant's price but not its stock", async () => {
    const { slug, sku } = await newSofa();
    const l2 = (await exported(slug)).find((r) => r.sku === `${sku}-L2`)!;
    const problems = await refused(file([{ ...l2, variant_version: "", stock: 40 }]));
    expect(problems).toEqual([
      { line: 2, message: expect.stringMatching(/^To change the stock of an existing variant the row needs the variant_version/) },
    ]);
    expect(await importProductsCsv(file([{ ...l2, variant_version: "", price: 37000 }]), BUILTIN_OWNER)).toEqual({
      created: 0,
      updated: 1,
    });
  });
});

describe("the CSV with variants: bad input writes nothing", () => {
  it("a duplicate SKU, a combination sold under another SKU, options not the product's, a variant's options changed", async () => {
    const { slug, sku } = await newSofa();
    const l2 = (await exported(slug)).find((r) => r.sku === `${sku}-L2`)!;
    const fresh = { ...l2, variant_version: "" };
    expect(
      await refused(
        file([
          { ...fresh, sku: `${sku}-N1`, option2_value: "4-seater" },
          { ...fresh, sku: `${sku}-N1`, option2_value: "5-seater" },
          { ...fresh, sku: `${sku}-N2`, option1_value: "Linen", option2_value: "3-seater" },
          { ...fresh, sku: `${sku}-N3`, option2_name: "Colour", option2_value: "Red" },
          { ...l2, option1_value: "Velvet" },
        ]),
      ),
    ).toEqual([
      { line: 3, message: `SKU ${sku}-N1 is already on line 2` },
      { line: 4, message: `Linen, 3-seater is already sold as SKU ${sku}-L3` },
      { line: 5, message: "The product's columns differ from line 2 (option names): the rows of one product must agree" },
      { line: 6, message: `SKU ${sku}-L2 is Linen, 2-seater: a variant's options are not changed by an import` },
    ]);
    // A new variant whose options are not the product's.
    expect(await refused(file([{ ...fresh, sku: `${sku}-N3`, option2_name: "Colour", option2_value: "Red" }]))).toEqual([
      { line: 2, message: "This product's options are Fabric, Size: give the row a value of each, in that order" },
    ]);
    // The same combination twice in the file, under two new SKUs.
    expect(
      await refused(
        file([
          { ...fresh, sku: `${sku}-X1`, option1_value: "Jute" },
          { ...fresh, sku: `${sku}-X2`, option1_value: "jute" },
        ]),
      ),
    ).toEqual([{ line: 3, message: `jute, 2-seater is already sold as SKU ${sku}-X1 (line 2)` }]);
  });

  it("too many options, a reserved option name, a price or stock out of range, rows of one product that disagree", async () => {
    const slug = tag();
    const sku = slug.toUpperCase();
    const tooMany = stringify([
      [...CSV_COLUMNS, "option4_name", "option4_value"],
      [...CSV_COLUMNS.map((c) => String(sofaRow(slug, `${sku}-A`, "Linen", "2-seater", 100, 1)[c] ?? "")), "Leg", "Oak"],
    ]);
    expect(await refused(tooMany)).toEqual([
      { line: 1, message: 'A product has at most 3 options: there is no column "option4_name"' },
      { line: 1, message: 'A product has at most 3 options: there is no column "option4_value"' },
    ]);
    expect(
      await refused(
        file([
          sofaRow(slug, `${sku}-A`, "Linen", "2-seater", 100, 1, { option2_name: "Sort" }),
          sofaRow(slug, `${sku}-B`, "Linen", "3-seater", 10_000_001, 1),
          sofaRow(slug, `${sku}-C`, "Velvet", "3-seater", 100, 100_001),
          sofaRow(slug, "FS-12", "Suede", "2-seater", 100, 1),
          sofaRow(slug, `${sku}-D`, "Velvet", "2-seater", 100, 1, { title: "Another Title" }),
        ]),
      ),
    ).toEqual([
      { line: 2, message: '"Sort" cannot be an option\'s name: the product page uses ?sort= already' },
      { line: 3, message: expect.stringMatching(/^Price must be at most/) as string },
      { line: 4, message: "Stock must be a whole number from 0 to 100000" },
      { line: 5, message: expect.stringMatching(/^SKU "FS-12": .*FS-123 are the shop's own/) as string },
      { line: 6, message: "The product's columns differ from line 5 (title): the rows of one product must agree" },
    ]);
    expect(await db.selectFrom("items").select("id").where("slug", "=", slug).executeTakeFirst()).toBeUndefined();
  });

  it("a file of the columns from before variants names no variant of a product with options", async () => {
    const { slug } = await newSofa();
    const [first] = await exported(slug);
    const text = stringify([[...PRODUCT_COLUMNS], PRODUCT_COLUMNS.map((c) => (c === "price" ? "1" : first![c]!))]);
    expect(await refused(text)).toEqual([{ line: 2, message: "This product is sold in variants: give the row its variant's SKU" }]);
  });

  it("a new variant for a product sold as one piece, or a row without a SKU for a product with options", async () => {
    const { slug, sku } = await newSofa();
    const l2 = (await exported(slug)).find((r) => r.sku === `${sku}-L2`)!;
    const [plain] = await exported("sheesham-wood-3-seater-sofa");
    expect(
      await refused(
        file([
          { ...plain!, sku: `${sku}-P`, variant_version: "" },
          { ...l2, sku: "" },
        ]),
      ),
    ).toEqual([
      { line: 2, message: `This product without options is sold as one variant, SKU ${plain!.sku}: another SKU needs options` },
      { line: 3, message: "This product is sold in variants: give the row its variant's SKU" },
    ]);
  });
});

describe("the CSV with variants: sales meanwhile", () => {
  /** A customer buying `quantity` of the variant: the cart add and the checkout. */
  async function buyer(itemId: number, variantId: number, quantity: number) {
    const customer = await directCustomer("csvv");
    const added = await call(cartAdd.action, jsonRequest("POST", "/api/cart/add", { itemId, variantId, quantity }, customer.auth));
    expect(added.status).toBe(200);
    return () => placeViaApi(customer, checkoutFields());
  }

  it("a variant sold since the export: its row is refused by line, nothing written", async () => {
    const { slug, sku, item } = await newSofa();
    const rows = await exported(slug);
    const l2 = (await variantRows(item.id)).find((v) => v.sku === `${sku}-L2`)!;
    expect((await (await buyer(item.id, l2.id, 1))()).status).toBe(201);
    const problems = await refused(file(rows.map((r) => (r.sku === `${sku}-L2` ? { ...r, price: 30000 } : r))));
    expect(problems).toEqual([{ line: 2, message: STALE_VARIANT(`${sku}-L2`, 3) }]);
  });

  it.runIf(isPostgres(db))("a sale committed while the checked import waits on the product: the import is refused by line", async () => {
    const { slug, sku, item } = await newSofa();
    const rows = await exported(slug);
    const l2 = (await variantRows(item.id)).find((v) => v.sku === `${sku}-L2`)!;
    const holder = (await lockHolder())!;
    try {
      // The holder sells a unit as a checkout does: the product's row locked, the variant taken, its version bumped.
      await holder.query("begin");
      await holder.query("select id from items where id = $1 for update", [item.id]);
      const text = file(rows.map((r) => (r.sku === `${sku}-L2` ? { ...r, stock: 20 } : r)));
      const running = importProductsCsv(text, BUILTIN_OWNER).then(
        () => null,
        (e: unknown) => e,
      );
      await untilWaiting(holder, 1, "the product's row");
      await holder.query("update product_variants set stock = stock - 1, version = version + 1 where id = $1", [l2.id]);
      await holder.query("commit");
      const error = await running;
      expect(error).toBeInstanceOf(ImportRejected);
      expect((error as ImportRejected).problems).toEqual([{ line: 2, message: STALE_VARIANT(`${sku}-L2`, 3) }]);
      expect((await variantRows(item.id)).find((v) => v.id === l2.id)!.stock).toBe(3);
    } finally {
      await holder.end();
    }
  });

  it("an import racing a checkout of the same variant: never a unit sold twice, never a sale written over", async () => {
    for (let round = 0; round < 4; round++) {
      const { slug, sku, item } = await newSofa();
      const rows = await exported(slug);
      const l2 = (await variantRows(item.id)).find((v) => v.sku === `${sku}-L2`)!;
      const checkout = await buyer(item.id, l2.id, 1);
      const text = file(rows.map((r) => (r.sku === `${sku}-L2` ? { ...r, stock: 20 } : r)));
      const [imported, placed] = await Promise.allSettled([importProductsCsv(text, BUILTIN_OWNER), checkout()]);
      expect(placed.status === "fulfilled" && placed.value.status).toBe(201);
      const stock = (await variantRows(item.id)).find((v) => v.id === l2.id)!.stock;
      if (imported.status === "fulfilled") {
        expect(stock, `round ${round}: the import first, then the sale`).toBe(19);
      } else {
        expect(imported.reason).toBeInstanceOf(ImportRejected);
        expect((imported.reason as ImportRejected).problems).toEqual([{ line: 2, message: STALE_VARIANT(`${sku}-L2`, 3) }]);
        expect(stock, `round ${round}: the sale first, the import refused`).toBe(3);
      }
    }
  });
});
