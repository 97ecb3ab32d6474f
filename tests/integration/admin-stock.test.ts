// Staff edits never overwrite what customers bought meanwhile: every write to a product bumps its
// version (orders and cancellations too); the edit form adjusts the stock relatively ("+5
// received", "-1 damaged") and is refused when the product changed since it was opened; a CSV row
// carrying a stale version is refused, and the import writes nothing.
import crypto from "node:crypto";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { beforeAll, describe, expect, it } from "vitest";
import { grantAdmin } from "~/web/sign-in.server";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { latestAudit } from "~/models/audit.server";
import { CSV_COLUMNS } from "~/utils/product-csv";
import { exportProductsCsv } from "~/models/catalogue/csv-export.server";
import { ImportRejected, NOTHING_IMPORTED } from "~/models/catalogue/csv-read.server";
import { importProductsCsv } from "~/models/catalogue/csv-import.server";
import { changeOrderStatus } from "~/models/orders/status.server";
import * as productsPage from "~/routes/admin.products";
import { loader as exportLoader } from "~/routes/admin.products_.export[.csv]";
import { action as importAction } from "~/routes/admin.products_.import";
import { createTestItem } from "../support/items";
import { getRequest, mergeCookies, multipartRequest, ORIGIN } from "../support/requests";
import type { Answer } from "../support/route-calls";
import { asRecord, call } from "../support/route-calls";
import type { Customer } from "../support/orders";
import { addToCart, checkoutFields, newCustomers, placeViaApi, stockOf } from "../support/orders";
import { BUILTIN_OWNER } from "~/models/staff/staff.server";

let adminCookie = "";
/** Buyers taken in turn: one account may hold only COD_LIMITS.openOrders open cash-on-delivery orders. */
let buyers: Customer[];
let sales = 0;

beforeAll(async () => {
  await ready;
  adminCookie = mergeCookies([await grantAdmin(getRequest("/"))]);
  buyers = await newCustomers("admin-stock", 2);
});

const uid = () => crypto.randomBytes(4).toString("hex");

/** A product of this test's own, with a known stock. */
async function product(stock: number, price = 5000): Promise<{ id: number; slug: string }> {
  const slug = `stock-race-${uid()}`;
  return { id: await createTestItem(slug, { price, stock }), slug };
}

async function rowOf(id: number) {
  return db.selectFrom("items").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

/** A customer order of `quantity` units (cash on delivery, through the API). */
async function sell(itemId: number, quantity: number): Promise<number> {
  const buyer = buyers[sales++ % buyers.length]!;
  await addToCart(buyer, itemId, quantity);
  const placed = await placeViaApi(buyer, checkoutFields());
  expect(placed.status).toBe(201);
  return asRecord(placed.body).id as number;
}

/** The edit dialog as the admin opens it: the product the loader hands the form. */
async function openEdit(id: number): Promise<Record<string, unknown>> {
  const answer = await call(productsPage.loader, getRequest(`/admin/products?edit=${id}`, { Cookie: adminCookie }));
  expect(answer.status).toBe(200);
  return asRecord(asRecord(answer.body).editing);
}

/** What the edit form posts for the product as opened, with `over` typed over it. */
function editFields(opened: Record<string, unknown>, over: Record<string, string | null> = {}): [string, string][] {
  const specs = opened.specifications as Record<string, string>;
  const base: Record<string, string | null> = {
    intent: "update",
    id: String(opened.id),
    version: String(opened.version),
    stockSeen: String(opened.stock),
    title: String(opened.title),
    categoryId: String(opened.categoryId),
    price: String(opened.price),
    imgPath: String(opened.imgPath),
    description: String(opened.description),
    inStock: opened.inStock ? "on" : null,
    stockDelta: "",
    ...over,
  };
  const fields = Object.entries(base).filter((e): e is [string, string] => e[1] !== null);
  for (const [k, v] of Object.entries(specs)) fields.push(["specKey", k], ["specValue", v]);
  return fields;
}

function adminPost(fields: [string, string][], path = "/admin/products"): Promise<Answer> {
  return call(
    productsPage.action,
    new Request(`${ORIGIN}${path}`, {
      method: "POST",
      headers: { Host: "localhost:3000", Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded", Cookie: adminCookie },
      body: new URLSearchParams(fields).toString(),
    }),
  );
}

function failure(answer: Answer, status: number) {
  expect(answer.status).toBe(status);
  const body = asRecord(answer.body);
  expect(body.ok).toBe(false);
  return body as { formError: string; fieldErrors: Record<string, string>; values?: Record<string, string> };
}

function expectSaved(answer: Answer) {
  expect([302, 303]).toContain(answer.status);
  expect(answer.headers.get("Location")).toBe("/admin/products");
}

describe("the product's version", () => {
  it("starts at 1 and is bumped by an order, a cancellation and an admin edit", async () => {
    const p = await product(10);
    const start = await rowOf(p.id);
    expect(start.version).toBe(1);

    const orderId = await sell(p.id, 2);
    expect(await rowOf(p.id)).toMatchObject({ stock: 8, version: 2 });

    const { userId } = await db.selectFrom("orders").select("userId").where("id", "=", orderId).executeTakeFirstOrThrow();
    await changeOrderStatus(orderId, "cancelled", { actor: "customer", userId: userId! });
    expect(await rowOf(p.id)).toMatchObject({ stock: 10, version: 3 });

    const opened = await openEdit(p.id);
    expect(opened).toMatchObject({ id: p.id, stock: 10, version: 3 });
    expectSaved(await adminPost(editFields(opened, { price: "5100" })));
    expect(await rowOf(p.id)).toMatchObject({ stock: 10, price: 5100, version: 4 });
  });
});

describe("the edit form: a relative stock adjustment, refused when the product changed", () => {
  it("an edit opened before a sale is refused with the message, keeps what was typed, and writes nothing", async () => {
    const p = await product(10);
    const opened = await openEdit(p.id);
    await sell(p.id, 2);
    const before = await rowOf(p.id);
    const audits = (await latestAudit(1))[0]?.id;

    const refused = failure(await adminPost(editFields(opened, { price: "7777", stockDelta: "+5" }), `/admin/products?edit=${p.id}`), 409);
    expect(refused.formError).toBe(
      "This product changed since you opened it (the stock went from 10 to 8: units were sold, returned or adjusted). " +
        "Reload and try again.",
    );
    expect(refused.values).toMatchObject({ price: "7777", stockDelta: "+5", version: String(opened.version) });
    expect(await rowOf(p.id)).toEqual(before);
    expect((await latestAudit(1))[0]?.id).toBe(audits);
    expect(await stockOf(p.id)).toBe(8);

    // Opened again, the same adjustment goes on top of the sale.
    const reopened = await openEdit(p.id);
    expect(reopened).toMatchObject({ stock: 8, version: before.version });
    expectSaved(await adminPost(editFields(reopened, { price: "7777", stockDelta: "+5" })));
    expect(await rowOf(p.id)).toMatchObject({ stock: 13, price: 7777, version: before.version + 1 });
    expect((await latestAudit(1))[0]!.summary).toMatch(/stock \+5 \(8 → 13\)/);
  });

  it("an edit and an order at the same moment: whichever commits first, no unit is sold twice", async () => {
    for (let round = 0; round < 3; round++) {
      const p = await product(10);
      const opened = await openEdit(p.id);
      const buyer = buyers[sales++ % buyers.length]!;
      await addToCart(buyer, p.id, 2);
      const [edit, order] = await Promise.all([adminPost(editFields(opened, { stockDelta: "+5" })), placeViaApi(buyer, checkoutFields())]);
      expect(order.status).toBe(201);
      // The edit went first (then the order took 2 of 15) or was refused (the order took 2 of 10).
      if (edit.status === 409) expect(await stockOf(p.id)).toBe(8);
      else {
        expectSaved(edit);
        expect(await stockOf(p.id)).toBe(13);
      }
    }
  });

  it("an edit posted as the old form did (the stock figure read, no version) never overwrites a sale", async () => {
    const p = await product(10);
    const opened = await openEdit(p.id);
    await sell(p.id, 2);
    const before = await rowOf(p.id);
    const fields = editFields(opened, { version: null, stockSeen: null, stockDelta: null, stock: "10" });
    const answer = await adminPost(fields);
    expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(await stockOf(p.id)).toBe(8);
    expect(await rowOf(p.id)).toEqual(before);
  });

  it("adjustments: +5 received, -1 damaged; below zero is refused clearly and nothing is written", async () => {
    const p = await product(3);
    expectSaved(await adminPost(editFields(await openEdit(p.id), { stockDelta: "+5" })));
    expect(await stockOf(p.id)).toBe(8);
    expectSaved(await adminPost(editFields(await openEdit(p.id), { stockDelta: " -1 " })));
    expect(await stockOf(p.id)).toBe(7);

    const before = await rowOf(p.id);
    const below = failure(await adminPost(editFields(await openEdit(p.id), { stockDelta: "-9" })), 400);
    expect(below.fieldErrors).toEqual({ stockDelta: "The stock cannot go below 0: there are only 7 in stock" });
    const junk = failure(await adminPost(editFields(await openEdit(p.id), { stockDelta: "five" })), 400);
    expect(junk.fieldErrors).toEqual({ stockDelta: "Adjust the stock by a whole number, like +5 or -1" });
    // To 0 with In Stock still ticked: the form's rule for In Stock, as on a new product.
    const empty = failure(await adminPost(editFields(await openEdit(p.id), { stockDelta: "-7" })), 400);
    expect(empty.fieldErrors).toEqual({ stockDelta: "The stock would be 0: adjust it by at least +1, or untick In Stock" });
    expect(await rowOf(p.id)).toEqual(before);
  });

  it("In Stock unticked marks the product out of stock; an adjustment then is refused", async () => {
    const p = await product(4);
    const before = await rowOf(p.id);
    const both = failure(await adminPost(editFields(await openEdit(p.id), { inStock: null, stockDelta: "+2" })), 400);
    expect(both.fieldErrors).toEqual({
      stockDelta: "Tick In Stock to change the stock, or leave this empty to mark the product out of stock",
    });
    expect(await rowOf(p.id)).toEqual(before);

    expectSaved(await adminPost(editFields(await openEdit(p.id), { inStock: null })));
    expect(await rowOf(p.id)).toMatchObject({ stock: 0, version: before.version + 1 });
    // Back in stock: tick it and add what arrived.
    expectSaved(await adminPost(editFields(await openEdit(p.id), { inStock: "on", stockDelta: "6" })));
    expect(await stockOf(p.id)).toBe(6);
  });

  it("a form without its version is refused (a stale page, or a client that does not send it)", async () => {
    const p = await product(5);
    const before = await rowOf(p.id);
    const refused = failure(await adminPost(editFields(await openEdit(p.id), { version: null })), 400);
    expect(refused.formError).toMatch(/Reload/);
    expect(await rowOf(p.id)).toEqual(before);
  });

  it("a new product still takes its units in stock ('Units in stock', the stock field)", async () => {
    const title = `New Stock Bench ${uid()}`;
    const category = await db.selectFrom("categories").select("id").orderBy("id").executeTakeFirstOrThrow();
    expectSaved(
      await adminPost([
        ["intent", "create"],
        ["title", title],
        ["categoryId", String(category.id)],
        ["price", "1200"],
        ["imgPath", "/images/products/bench.svg"],
        ["description", "A bench."],
        ["inStock", "on"],
        ["stock", "7"],
      ]),
    );
    const row = await db.selectFrom("items").selectAll().where("title", "=", title).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ stock: 7, version: 1 });
  });
});

// ---- CSV ----------------------------------------------------------------------------------

/** The export of one product, as records (header names as keys). */
async function exportOf(slug: string): Promise<{ csv: string; record: Record<string, string> }> {
  const answer = await call(exportLoader, getRequest(`/admin/products/export.csv?q=${slug}`, { Cookie: adminCookie }));
  expect(answer.status).toBe(200);
  const csv = answer.body as string;
  const records = parse(csv, { bom: true, columns: true }) as Record<string, string>[];
  expect(records).toHaveLength(1);
  return { csv, record: records[0]! };
}

const fileOf = (records: Record<string, string>[]) =>
  stringify([[...CSV_COLUMNS], ...records.map((r) => CSV_COLUMNS.map((c) => r[c] ?? ""))], { record_delimiter: "windows" });

describe("the CSV: a version column, a stale row refused", () => {
  it("the export carries each product's version", async () => {
    const p = await product(6);
    await sell(p.id, 1);
    const { record } = await exportOf(p.slug);
    expect(CSV_COLUMNS).toContain("version");
    expect(record).toMatchObject({ slug: p.slug, stock: "5", version: "2" });
  });

  it("export → an order → import: the row is refused with its line, and the whole import writes nothing", async () => {
    const p = await product(10);
    const other = await product(3);
    const { record } = await exportOf(p.slug);
    const { record: otherRecord } = await exportOf(other.slug);
    await sell(p.id, 2);
    const before = await Promise.all([rowOf(p.id), rowOf(other.id)]);

    const text = fileOf([
      { ...otherRecord, price: "4321" },
      { ...record, price: "9999" },
    ]);
    const error = await importProductsCsv(text, BUILTIN_OWNER).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ImportRejected);
    expect((error as ImportRejected).problems).toEqual([
      {
        line: 3,
        message:
          "This product changed since the file was exported (it now has 8 in stock): " +
          "export the list again and make this row's changes there",
      },
    ]);
    expect(await Promise.all([rowOf(p.id), rowOf(other.id)])).toEqual(before);

    // Through the import page: 400, the report lists 'Line 3: …'.
    const answer = await call(
      importAction,
      await multipartRequest(
        "/admin/products/import",
        { file: new File([text], "products.csv", { type: "text/csv" }) },
        { Cookie: adminCookie },
      ),
    );
    expect(answer.status).toBe(400);
    const body = asRecord(answer.body);
    expect(body.formError).toBe(NOTHING_IMPORTED);
    expect(body.problems).toEqual([{ line: 3, message: expect.stringMatching(/^This product changed since the file was exported/) }]);
    expect(await Promise.all([rowOf(p.id), rowOf(other.id)])).toEqual(before);

    // A fresh export imports, and its stock figure is the one after the sale.
    const fresh = await exportOf(p.slug);
    expect(fresh.record.stock).toBe("8");
    expect(await importProductsCsv(fileOf([{ ...fresh.record, price: "9999" }]), BUILTIN_OWNER)).toEqual({ created: 0, updated: 1 });
    expect(await rowOf(p.id)).toMatchObject({ stock: 8, price: 9999, version: before[0]!.version + 1 });
  });

  it("an update row that changes the stock without a version is refused; one without a stock column keeps the stock", async () => {
    const p = await product(10);
    const { record } = await exportOf(p.slug);
    await sell(p.id, 2);
    const before = await rowOf(p.id);
    const problems = await importProductsCsv(fileOf([{ ...record, version: "", variant_version: "" }]), BUILTIN_OWNER).then(
      () => [],
      (e: unknown) => (e as ImportRejected).problems,
    );
    expect(problems).toEqual([
      {
        line: 2,
        message:
          "To change the stock of an existing product the row needs the version the export wrote: " +
          "export the list again, or leave the stock column out",
      },
    ]);
    expect(await rowOf(p.id)).toEqual(before);

    // Without the stock column (a price list), the stock is left as the sales left it.
    const header = ["slug", "title", "category", "price", "description", "imgPath"];
    const priceList = stringify([header, header.map((c) => (c === "price" ? "6000" : record[c]!))]);
    expect(await importProductsCsv(priceList, BUILTIN_OWNER)).toEqual({ created: 0, updated: 1 });
    expect(await rowOf(p.id)).toMatchObject({ stock: 8, price: 6000, version: before.version + 1 });
  });

  it("a row that changes nothing is never refused, and writes nothing (its version stays)", async () => {
    const p = await product(10);
    await sell(p.id, 1);
    const { csv } = await exportOf(p.slug);
    const before = await rowOf(p.id);
    expect(await importProductsCsv(csv, BUILTIN_OWNER)).toEqual({ created: 0, updated: 1 });
    expect(await rowOf(p.id)).toEqual(before);
    // The same file again: still nothing to change, still accepted.
    expect(await importProductsCsv(csv, BUILTIN_OWNER)).toEqual({ created: 0, updated: 1 });
    expect(await rowOf(p.id)).toEqual(before);
  });

  it("a version that is not a whole number is a row problem", async () => {
    const p = await product(2);
    const { record } = await exportOf(p.slug);
    const problems = await importProductsCsv(fileOf([{ ...record, price: "1", version: "two" }]), BUILTIN_OWNER).then(
      () => [],
      (e: unknown) => (e as ImportRejected).problems,
    );
    expect(problems).toEqual([{ line: 2, message: "Version must be the whole number the export wrote" }]);
  });

  it("the export of everything imports back unchanged", async () => {
    const csv = await exportProductsCsv({ q: "", category: "all" });
    const before = await db.selectFrom("items").selectAll().orderBy("id").execute();
    await importProductsCsv(csv, BUILTIN_OWNER);
    expect(await db.selectFrom("items").selectAll().orderBy("id").execute()).toEqual(before);
  });
});
