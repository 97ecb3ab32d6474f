// The product CSV verbs called directly: the export's rows, its filters and its escaping of formulas, and
// the import's writes and its all-or-nothing refusals, reported line by line.
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db, isPostgresUrl, toCount } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { createProduct } from "~/models/catalogue/admin-products.server";
import { exportFileName, exportProductsCsv } from "~/models/catalogue/csv-export.server";
import { importProductsCsv, NO_ROWS, TOO_MANY_ROWS } from "~/models/catalogue/csv-import.server";
import type { ImportProblem } from "~/models/catalogue/csv-read.server";
import { ImportRejected, NOTHING_IMPORTED } from "~/models/catalogue/csv-read.server";
import { CSV_COLUMNS, IMPORT_MAX_ROWS, PRODUCT_COLUMNS } from "~/utils/product-csv";
import { BUILTIN_OWNER } from "~/models/staff/staff.server";

/** The header of a file from before products had variants: it still imports. */
const HEADER = PRODUCT_COLUMNS.join(",");
const ALL = { q: "", category: "all" as const };

async function categoryId(slug: string) {
  return (await db.selectFrom("categories").select("id").where("slug", "=", slug).executeTakeFirstOrThrow()).id;
}

/** Everything an import could change: the products and their variants (without their updatedAt) and the audit log. */
async function snapshot() {
  const items = await db.selectFrom("items").selectAll().orderBy("id").execute();
  const variants = await db.selectFrom("productVariants").selectAll().orderBy("id").execute();
  const audit = await db.selectFrom("auditLog").selectAll().orderBy("id").execute();
  return { items: items.map(({ updatedAt: _, ...rest }) => rest), variants: variants.map(({ updatedAt: _, ...rest }) => rest), audit };
}

async function auditCount() {
  return toCount(
    (
      await db
        .selectFrom("auditLog")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
}

const item = (slug: string) => db.selectFrom("items").selectAll().where("slug", "=", slug).executeTakeFirst();

/** A CSV file (header + rows) built the way a spreadsheet would write it. */
function csvFile(rows: (string | number)[][], header: readonly string[] = CSV_COLUMNS): string {
  return stringify([[...header], ...rows.map((r) => r.map(String))], { record_delimiter: "windows" });
}

function row(fields: Partial<Record<(typeof CSV_COLUMNS)[number], string | number>>): string[] {
  const full = {
    slug: "",
    title: "CSV Test Chair",
    category: "office",
    price: 4999,
    stock: 3,
    featured: "no",
    made_to_order: "no",
    description: "A chair made for the CSV tests.",
    imgPath: "/images/products/csv-test-chair.svg",
    specifications: '{"Material":"Teak"}',
    version: "",
    option1_name: "",
    option1_value: "",
    option2_name: "",
    option2_value: "",
    option3_name: "",
    option3_value: "",
    sku: "",
    active: "",
    weight_grams: "",
    length_cm: "",
    width_cm: "",
    height_cm: "",
    variant_version: "",
    ...fields,
  };
  return CSV_COLUMNS.map((c) => String(full[c]));
}

async function rejected(promise: Promise<unknown>): Promise<ImportProblem[]> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ImportRejected);
  expect((error as ImportRejected).status).toBe(400);
  expect((error as ImportRejected).message).toBe(NOTHING_IMPORTED);
  return (error as ImportRejected).problems;
}

async function appError(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect(error).not.toBeInstanceOf(ImportRejected);
  return error as AppError;
}

/** An import that must be refused whole: the database is exactly as before. */
async function refusedUnchanged(text: string): Promise<ImportProblem[]> {
  const before = await snapshot();
  const problems = await rejected(importProductsCsv(text, BUILTIN_OWNER));
  expect(await snapshot()).toEqual(before);
  return problems;
}

beforeAll(async () => {
  await ready;
});

describe("exportProductsCsv", () => {
  it("starts with a UTF-8 BOM and the header row, one row per variant", async () => {
    const csv = await exportProductsCsv(ALL);
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv.slice(1).split("\r\n")[0]).toBe(
      "slug,title,category,price,stock,featured,made_to_order,description,imgPath,specifications,version," +
        "option1_name,option1_value,option2_name,option2_value,option3_name,option3_value," +
        "sku,active,weight_grams,length_cm,width_cm,height_cm,variant_version",
    );
    const records = parse(csv, { bom: true, columns: true }) as Record<string, string>[];
    const count = toCount(
      (
        await db
          .selectFrom("productVariants")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(records).toHaveLength(count);
    const sofa = records.find((r) => r.slug === "sheesham-wood-3-seater-sofa")!;
    expect(sofa).toMatchObject({
      title: "Sheesham Wood 3-Seater Sofa",
      category: "living-room",
      price: "42999",
      stock: "12",
      featured: "yes",
      option1_name: "",
      sku: `FS-${(await item("sheesham-wood-3-seater-sofa"))!.id}`,
      active: "yes",
    });
    expect(JSON.parse(sofa.specifications)).toMatchObject({ Material: "Solid sheesham wood, cotton-linen upholstery" });
  });

  it("respects the list's filters (q and category)", async () => {
    const office = await categoryId("office");
    const byCategory = parse(await exportProductsCsv({ q: "", category: office }), { bom: true, columns: true }) as Record<
      string,
      string
    >[];
    const inOffice = await db.selectFrom("items").select("slug").where("categoryId", "=", office).orderBy("id").execute();
    expect([...new Set(byCategory.map((r) => r.slug))]).toEqual(inOffice.map((r) => r.slug));
    expect(new Set(byCategory.map((r) => r.category))).toEqual(new Set(["office"]));

    const bySearch = parse(await exportProductsCsv({ q: "sheesham", category: "all" }), { bom: true, columns: true }) as Record<
      string,
      string
    >[];
    expect(bySearch.length).toBeGreaterThan(0);
    for (const r of bySearch) expect(`${r.title} ${r.description}`.toLowerCase()).toContain("sheesham");
    const both = parse(await exportProductsCsv({ q: "sheesham", category: office }), { bom: true, columns: true }) as Record<
      string,
      string
    >[];
    expect(both.every((r) => r.category === "office" && `${r.title} ${r.description}`.toLowerCase().includes("sheesham"))).toBe(true);
    expect(both.length).toBeLessThan(bySearch.length);
  });

  it("escapes cells a spreadsheet would run as a formula, and the import undoes it exactly", async () => {
    const created = await createProduct(
      {
        title: '=HYPERLINK("https://evil.example","Click")',
        categoryId: await categoryId("office"),
        price: 1000,
        imgPath: "/images/products/x.svg",
        description: "-10% off this week",
        featured: false,
        madeToOrder: false,
        inStock: true,
        stock: 2,
        specifications: { Finish: "@matte", Note: "+tab\tinside", Quote: "'=already quoted" },
      },
      BUILTIN_OWNER,
    );
    const csv = await exportProductsCsv({ q: "HYPERLINK", category: "all" });
    const [record] = parse(csv, { bom: true, columns: true }) as Record<string, string>[];
    expect(record!.title).toBe('\'=HYPERLINK("https://evil.example","Click")');
    expect(record!.description).toBe("'-10% off this week");
    // The JSON cell starts with "{": nothing to escape, and the values inside are as stored.
    expect(JSON.parse(record!.specifications)).toEqual({ Finish: "@matte", Note: "+tab\tinside", Quote: "'=already quoted" });
    for (const cell of Object.values(record!)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);

    const before = await snapshot();
    expect(await importProductsCsv(csv, BUILTIN_OWNER)).toEqual({ created: 0, updated: 1 });
    const after = await snapshot();
    expect(after.items).toEqual(before.items);
    expect(after.variants).toEqual(before.variants);
    expect((await item(created.slug))!.title).toBe('=HYPERLINK("https://evil.example","Click")');
    expect((await item(created.slug))!.description).toBe("-10% off this week");
  });

  it("names the file by today's date in India", () => {
    expect(exportFileName(new Date("2026-03-01T20:00:00Z"))).toBe("products-2026-03-02.csv");
    expect(exportFileName(new Date("2026-03-01T10:00:00Z"))).toBe("products-2026-03-01.csv");
  });
});

describe("importProductsCsv: writes", () => {
  it("round trip: importing the export updates every product, creates none and changes nothing", async () => {
    const csv = await exportProductsCsv(ALL);
    const before = await snapshot();
    const result = await importProductsCsv(csv, BUILTIN_OWNER);
    expect(result).toEqual({ created: 0, updated: before.items.length });
    const after = await snapshot();
    expect(after.items).toEqual(before.items);
    expect(after.variants).toEqual(before.variants);
    // One audit row per product, and one for the import.
    expect(after.audit).toHaveLength(before.audit.length + before.items.length + 1);
    expect(after.audit.at(-1)).toMatchObject({
      action: "import",
      entity: "product",
      summary: `Imported ${before.items.length} products from CSV: 0 created, ${before.items.length} updated`,
    });
  });

  it("creates and updates in one file, keeping an updated product's slug", async () => {
    const sofa = (await item("sheesham-wood-3-seater-sofa"))!;
    const audits = await auditCount();
    const text = csvFile([
      row({
        slug: sofa.slug,
        version: sofa.version,
        title: "Sheesham Sofa, Renamed",
        category: "living-room",
        price: "45,999",
        stock: 0,
        featured: "no",
        specifications: '{"Color":"Teal"}',
      }),
      row({ title: "Brand New Desk", price: 12999.6, stock: 7, featured: "YES", specifications: "" }),
      row({ slug: "my-own-desk-slug", title: "Another Desk", featured: "true" }),
    ]);
    expect(await importProductsCsv(text, BUILTIN_OWNER)).toEqual({ created: 2, updated: 1 });

    const updated = (await item(sofa.slug))!;
    expect(updated).toMatchObject({
      id: sofa.id,
      title: "Sheesham Sofa, Renamed",
      price: 45999,
      stock: 0,
      featured: 0,
      specifications: '{"Color":"Teal"}',
    });
    const desk = (await item("brand-new-desk"))!;
    expect(desk).toMatchObject({
      title: "Brand New Desk",
      price: 13000,
      stock: 7,
      featured: 1,
      specifications: "{}",
      categoryId: await categoryId("office"),
    });
    expect((await item("my-own-desk-slug"))!).toMatchObject({ title: "Another Desk", featured: 1, specifications: '{"Material":"Teak"}' });

    const log = await db.selectFrom("auditLog").selectAll().orderBy("id").execute();
    expect(log.length).toBe(audits + 4);
    expect(log.at(-1)).toMatchObject({
      action: "import",
      entity: "product",
      summary: "Imported 3 products from CSV: 2 created, 1 updated",
    });
  });

  it("a column left out keeps an updated product's value; a new product gets the defaults", async () => {
    const header = ["slug", "title", "category", "price", "description", "imgPath"];
    const sofa = (await item("chesterfield-velvet-2-seater-sofa"))!;
    const text = csvFile(
      [
        [sofa.slug, sofa.title, "living-room", 111, sofa.description, sofa.imgPath],
        ["", "Bare Minimum Stool", "office", 500, "Just a stool.", "https://cdn.example.com/stool.png"],
      ],
      header,
    );
    expect(await importProductsCsv(text, BUILTIN_OWNER)).toEqual({ created: 1, updated: 1 });
    expect(await item(sofa.slug)).toMatchObject({
      price: 111,
      stock: sofa.stock,
      featured: sofa.featured,
      specifications: sofa.specifications,
    });
    expect(await item("bare-minimum-stool")).toMatchObject({ stock: 0, featured: 0, specifications: "{}" });
  });

  it("a new row's own slug is kept even when an earlier row's title would make the same slug", async () => {
    const text = csvFile([row({ title: "Reserved Slug Table" }), row({ slug: "reserved-slug-table", title: "The Real Owner" })]);
    expect(await importProductsCsv(text, BUILTIN_OWNER)).toEqual({ created: 2, updated: 0 });
    expect((await item("reserved-slug-table"))!.title).toBe("The Real Owner");
    expect((await item("reserved-slug-table-2"))!.title).toBe("Reserved Slug Table");
  });

  it("reads a file with blank lines, a header in any case and quoted cells across lines", async () => {
    const text = [
      "\uFEFFSlug,Title,Category,Price,Stock,Featured,Description,ImgPath,Specifications",
      "",
      ',Multi Line Bench,office,2000,1,no,"Line one,\nline two",/images/products/b.svg,',
      ",,,,,,,,",
      "",
    ].join("\n");
    expect(await importProductsCsv(text, BUILTIN_OWNER)).toEqual({ created: 1, updated: 0 });
    expect((await item("multi-line-bench"))!.description).toBe("Line one,\nline two");
  });

  it.skipIf(isPostgresUrl(process.env.DATABASE_URL ?? ""))("a failure while writing rolls every row back", async () => {
    await sql`create trigger csv_test_fail before insert on items when new.title = 'Fails On Write'
      begin select raise(abort, 'boom'); end`.execute(db);
    try {
      const sofa = (await item("sheesham-wood-3-seater-sofa"))!;
      const text = csvFile([
        row({ slug: sofa.slug, version: sofa.version, title: "Changed Before The Failure", category: "living-room" }),
        row({ title: "Created Before The Failure" }),
        row({ title: "Fails On Write" }),
      ]);
      const before = await snapshot();
      await expect(importProductsCsv(text, BUILTIN_OWNER)).rejects.toThrow(/boom/);
      expect(await snapshot()).toEqual(before);
    } finally {
      await sql`drop trigger csv_test_fail`.execute(db);
    }
  });
});

describe("importProductsCsv: all or nothing", () => {
  it("3 good rows and 1 bad row change nothing, and the bad line is reported with its reason", async () => {
    const sofa = (await item("sheesham-wood-3-seater-sofa"))!;
    const problems = await refusedUnchanged(
      csvFile([
        row({ slug: sofa.slug, version: sofa.version, title: "Should Not Change", category: "living-room" }),
        row({ title: "Should Not Exist One" }),
        row({ title: "Should Not Exist Two" }),
        row({ title: "Bad Price", price: "abc" }),
      ]),
    );
    expect(problems).toEqual([{ line: 5, message: "Price must be a number" }]);
    expect(await item("should-not-exist-one")).toBeUndefined();
  });

  it("reports every bad row, and every problem of a row", async () => {
    const problems = await refusedUnchanged(
      csvFile([
        row({ title: "" }),
        row({ title: "Fine Row" }),
        row({ price: -5, stock: "two", imgPath: "javascript:alert(1)" }),
        row({ featured: "maybe", description: "" }),
      ]),
    );
    expect(problems).toEqual([
      { line: 2, message: "Title is required" },
      { line: 4, message: "Price must be 0 or more" },
      { line: 4, message: "Please enter a valid image URL (https://… or /images/…)" },
      { line: 4, message: "Stock must be a whole number from 0 to 100000" },
      { line: 5, message: 'Featured must be "yes" or "no"' },
      { line: 5, message: "Description is required" },
    ]);
  });

  it("an unknown or missing category is a row problem", async () => {
    const problems = await refusedUnchanged(csvFile([row({ category: "kitchen" }), row({ category: "" }), row({ category: "Office" })]));
    expect(problems).toHaveLength(2);
    expect(problems[0]!.line).toBe(2);
    expect(problems[0]!.message).toMatch(/^Unknown category "kitchen": use one of .*living-room/);
    expect(problems[1]).toEqual({ line: 3, message: "Category is required" });
  });

  it("a slug repeated: rows of one product that disagree, or give its one variant twice, are problems on the later row", async () => {
    const problems = await refusedUnchanged(
      csvFile([row({ slug: "twice-in-file" }), row({ slug: "other-slug" }), row({ slug: "twice-in-file", title: "Second" })]),
    );
    expect(problems).toEqual([
      { line: 4, message: "The product's columns differ from line 2 (title): the rows of one product must agree" },
    ]);
    const same = await refusedUnchanged(csvFile([row({ slug: "twice-in-file" }), row({ slug: "twice-in-file" })]));
    expect(same).toEqual([{ line: 3, message: "A product without options is sold as one variant: line 2 gives it already" }]);
    const { version } = (await item("sheesham-wood-3-seater-sofa"))!;
    const existing = await refusedUnchanged(
      csvFile([
        row({ slug: "sheesham-wood-3-seater-sofa", version, category: "living-room" }),
        row({ slug: "sheesham-wood-3-seater-sofa", version, category: "living-room" }),
      ]),
    );
    expect(existing).toEqual([{ line: 3, message: "This row is the same variant as line 2" }]);
    const invalid = await refusedUnchanged(csvFile([row({ slug: "Not A Slug!" })]));
    expect(invalid[0]!.message).toMatch(/^Slug "Not A Slug!" is not valid/);
  });

  it("specifications must be a JSON object of text values", async () => {
    const problems = await refusedUnchanged(
      csvFile([
        row({ specifications: "{Material: Teak}" }),
        row({ specifications: '["Teak"]' }),
        row({ specifications: '{"Seats":3}' }),
        row({ specifications: '{"":"Teak"}' }),
        row({ specifications: '{"Material":"Teak","material":"Oak"}' }),
      ]),
    );
    expect(problems.map((p) => p.line)).toEqual([2, 3, 4, 5, 6]);
    expect(problems[0]!.message).toMatch(/^Specifications are not valid JSON/);
    expect(problems[1]!.message).toMatch(/^Specifications must be a JSON object/);
    expect(problems[2]!.message).toMatch(/"Seats" must be text/);
    expect(problems[3]!.message).toMatch(/^Specifications: Row 1: give the specification a name/);
    expect(problems[4]!.message).toMatch(/^Specifications: .*listed twice/);
  });

  it("line numbers count the lines a quoted cell spans; a row with the wrong number of cells is reported", async () => {
    const text = [
      HEADER,
      ',Spanning Row,office,100,1,no,no,"एक ₹\nदो\r\nतीन",/images/products/s.svg,,',
      ",Bad After Span,office,oops,1,no,no,Fine,/images/products/s.svg,,",
      ",Too Few,office,100",
      ",Too Many,office,100,1,no,no,desc,/images/products/s.svg,{},,extra",
    ].join("\r\n");
    expect(await refusedUnchanged(text)).toEqual([
      { line: 5, message: "Price must be a number" },
      { line: 6, message: expect.stringMatching(/^This row has 4 cells but the header has 11/) as string },
      { line: 7, message: expect.stringMatching(/^This row has 12 cells but the header has 11/) as string },
    ]);
  });

  it("a header without a required column, or with an unknown one, is reported on line 1", async () => {
    const header = ["slug", "title", "category", "stock", "description", "specs"];
    const problems = await refusedUnchanged(csvFile([["", "No Price", "office", "1", "desc", "{}"]], header));
    expect(problems.every((p) => p.line === 1)).toBe(true);
    expect(problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/^Unknown column "specs"/),
      expect.stringMatching(/^The header has no "price" column/),
      expect.stringMatching(/^The header has no "imgPath" column/),
    ]);
    const twice = await refusedUnchanged(csvFile([], [...CSV_COLUMNS, "title"]));
    expect(twice).toEqual([{ line: 1, message: 'The column "title" appears twice' }]);
  });

  it("an empty file, or a header alone, has no product rows", async () => {
    for (const text of ["", "\uFEFF", `${HEADER}\r\n`, `${HEADER}\r\n\r\n,,,,,,,,\r\n`]) {
      const error = await appError(importProductsCsv(text, BUILTIN_OWNER));
      expect(error.status).toBe(400);
      expect(error.message).toBe(NO_ROWS);
    }
  });

  it("refuses more than 1000 rows, more than 1 MB and text that is not CSV", async () => {
    const many = csvFile(Array.from({ length: IMPORT_MAX_ROWS + 1 }, (_, i) => row({ title: `Bulk ${i}` })));
    const tooMany = await appError(importProductsCsv(many, BUILTIN_OWNER));
    expect([tooMany.status, tooMany.message]).toEqual([400, TOO_MANY_ROWS]);
    const big = `${HEADER}\r\n${row({ description: "x".repeat(1024 * 1024) }).join(",")}`;
    expect((await appError(importProductsCsv(big, BUILTIN_OWNER))).status).toBe(413);
    expect((await appError(importProductsCsv(`${HEADER}\r\n\u0000`, BUILTIN_OWNER))).status).toBe(400);
    const unclosed = await refusedUnchanged(`${HEADER}\r\n,"Unclosed,office,1,1,no,d,/i.svg,`);
    expect(unclosed[0]!.message).toMatch(/^The file is not valid CSV/);
  });
});
