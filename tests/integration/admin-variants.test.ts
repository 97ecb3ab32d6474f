// The staff's variants page (/admin/products/:id/variants) through its route, on both databases:
// options and values added, renamed, moved and removed; the combinations generated; a variant's
// details, its relative and versioned stock adjustment, one price for all; each write one
// transaction with its audit row naming the staff member. Refused with nothing written: bad
// input (400), a stale version (409), a role without the catalogue (403), and removing a value or
// a variant that a cart, a payment hold or an open order uses (409 with the reason).
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { createPaymentOrder } from "~/models/payments/start.server";
import * as productsPage from "~/routes/admin.products";
import * as page from "~/routes/admin.products_.$id.variants";
import * as cartAdd from "~/routes/api.cart.add";
import { createTestItem, defaultVariantId } from "../support/items";
import type { Customer } from "../support/orders";
import { checkoutFields, newCustomers, placeViaApi, SHIPPING } from "../support/orders";
import { formRequest, getRequest, jsonRequest } from "../support/requests";
import { asRecord, call } from "../support/route-calls";
import type { TestStaff } from "../support/staff";
import { signedInStaff } from "../support/staff";

let manager: TestStaff & { cookie: string };
let fulfilment = "";
let buyers: Customer[] = [];
let made = 0;

beforeAll(async () => {
  await ready;
  manager = await signedInStaff("manager");
  fulfilment = (await signedInStaff("fulfilment")).cookie;
  buyers = await newCustomers("admin-variants", 3);
});

const newProduct = (fields: { price?: number; stock?: number } = {}) => createTestItem(`variant-page-${process.pid}-${++made}`, fields);
const path = (id: number) => `/admin/products/${id}/variants`;

/** A post of the page's form, as a browser sends it. */
function post(id: number, fields: Record<string, string | number>, cookie = manager.cookie) {
  const strings = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)]));
  return call(page.action, formRequest(path(id), strings, { Cookie: cookie }), { id: String(id) });
}

async function editor(id: number) {
  const answer = await call(page.loader, getRequest(path(id), { Cookie: manager.cookie }), { id: String(id) });
  expect(answer.status).toBe(200);
  return asRecord(answer.body) as unknown as {
    options: { id: number; name: string; values: { id: number; value: string }[] }[];
    variants: {
      id: number;
      sku: string;
      price: number;
      stock: number;
      active: boolean;
      version: number;
      label: string;
      weightGrams: number | null;
    }[];
    missing: number;
  };
}

const item = (id: number) => db.selectFrom("items").select(["price", "stock"]).where("id", "=", id).executeTakeFirstOrThrow();
const audits = (id: number) =>
  db.selectFrom("auditLog").selectAll().where("entity", "=", "product").where("entityId", "=", String(id)).orderBy("id").execute();

/** Everything a refused post must leave as it was. */
async function state(id: number) {
  return {
    options: await db.selectFrom("productOptions").selectAll().where("itemId", "=", id).orderBy("id").execute(),
    values: await db.selectFrom("productOptionValues").selectAll().where("itemId", "=", id).orderBy("id").execute(),
    variants: await db.selectFrom("productVariants").selectAll().where("itemId", "=", id).orderBy("id").execute(),
    audits: (await audits(id)).length,
    item: await item(id),
  };
}

function expectSaved(answer: { status: number; body: unknown }) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(302);
}
function refused(answer: { status: number; body: unknown }, status: number): { formError: string; fieldErrors: Record<string, string> } {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return asRecord(answer.body) as { formError: string; fieldErrors: Record<string, string> };
}

async function addToCartVariant(customer: Customer, itemId: number, variantId: number, quantity = 1) {
  const added = await call(cartAdd.action, jsonRequest("POST", "/api/cart/add", { itemId, variantId, quantity }, customer.auth));
  expect(added.status, JSON.stringify(added.body)).toBe(200);
}

/** A product in Fabric (Linen, Velvet) × Size (2-seater, 3-seater), all four made, through the page. */
async function sofa(stock = 4) {
  const id = await newProduct({ price: 40000, stock });
  expectSaved(await post(id, { intent: "add-option", name: "Fabric", values: "Linen, Velvet" }));
  expectSaved(await post(id, { intent: "add-option", name: "Size", values: "2-seater\n3-seater" }));
  expectSaved(await post(id, { intent: "generate", price: 45000, stock }));
  const e = await editor(id);
  const variant = (label: string) => e.variants.find((v) => v.label === label)!;
  const value = (name: string) => e.options.flatMap((o) => o.values).find((v) => v.value === name)!;
  return { id, e, variant, value };
}

describe("options and values", () => {
  it("an option on a piece sold as one: the piece becomes the first combination, its cart line stays", async () => {
    const id = await newProduct({ price: 30000, stock: 7 });
    const piece = await defaultVariantId(id);
    await addToCartVariant(buyers[0]!, id, piece);
    expectSaved(await post(id, { intent: "add-option", name: "Finish", values: "Walnut, Teak, Walnut Dark" }));
    const e = await editor(id);
    expect(e.options.map((o) => [o.name, o.values.map((v) => v.value)])).toEqual([["Finish", ["Walnut", "Teak", "Walnut Dark"]]]);
    expect(e.variants.map((v) => [v.id, v.label, v.stock, v.price])).toEqual([[piece, "Walnut", 7, 30000]]);
    const key = await db.selectFrom("productVariants").select("optionKey").where("id", "=", piece).executeTakeFirstOrThrow();
    expect(key.optionKey).toBe(String(e.options[0]!.values[0]!.id));
    expect(e.missing).toBe(2);
    const line = await db.selectFrom("cartLines").select("variantId").where("itemId", "=", id).execute();
    expect(line).toEqual([{ variantId: piece }]);
    const audit = (await audits(id)).at(-1)!;
    expect(audit.staffId).toBe(manager.id);
    expect(audit.actor).toContain(manager.name);
    expect(audit.summary).toMatch(/Added option Finish \(Walnut, Teak, Walnut Dark\)/);
  });

  it("generates the missing combinations at the price and stock given; the product's figures follow", async () => {
    const { id, e } = await sofa(3);
    expect(e.options.map((o) => o.name)).toEqual(["Fabric", "Size"]);
    expect(e.variants.map((v) => v.label)).toEqual(["Linen, 2-seater", "Linen, 3-seater", "Velvet, 2-seater", "Velvet, 3-seater"]);
    expect(e.variants.map((v) => v.sku).slice(1)).toEqual([`P${id}-LINEN-3-SEATER`, `P${id}-VELVET-2-SEATER`, `P${id}-VELVET-3-SEATER`]);
    expect(e.missing).toBe(0);
    expect(await item(id)).toEqual({ price: 40000, stock: 12 });
    const audit = (await audits(id)).at(-1)!;
    expect(audit.summary).toMatch(/Made 3 variants .* at ₹45000, 3 in stock each/);
    // Nothing left to make: a clear 400.
    expect(refused(await post(id, { intent: "generate", price: 1, stock: 1 }), 400).formError).toBe(
      "Every combination has its variant already",
    );
  });

  it("adds, renames and moves values", async () => {
    const { id, value } = await sofa();
    expectSaved(await post(id, { intent: "add-value", optionId: (await editor(id)).options[0]!.id, value: "Boucle" }));
    expectSaved(await post(id, { intent: "rename-value", valueId: value("Velvet").id, value: "Cotton Velvet" }));
    expectSaved(await post(id, { intent: "value-up", valueId: value("Velvet").id }));
    const e = await editor(id);
    expect(e.options[0]!.values.map((v) => v.value)).toEqual(["Cotton Velvet", "Linen", "Boucle"]);
    expect(e.missing).toBe(2);
    expect(e.variants.find((v) => v.label === "Cotton Velvet, 3-seater")).toBeDefined();
    const renamed = (await audits(id)).find((a) => a.summary.startsWith("Renamed"))!;
    expect(JSON.parse(renamed.details!)).toEqual({ value: ["Velvet", "Cotton Velvet"] });
    // A name the option has already (any case): refused beside its field, nothing written.
    const before = await state(id);
    const twice = refused(await post(id, { intent: "rename-value", valueId: value("Linen").id, value: "boucle" }), 409);
    expect(twice.fieldErrors.value).toBe("Fabric has Boucle already");
    expect(await state(id)).toEqual(before);
  });

  it("removes an unused value with its variants; an option goes once it has one value; the last one leaves a default", async () => {
    const { id, value, e } = await sofa();
    const before = await state(id);
    const many = refused(await post(id, { intent: "remove-option", optionId: e.options[1]!.id }), 400);
    expect(many.formError).toMatch(/^Size has 2 values: remove all but one first/);
    expect(await state(id)).toEqual(before);
    expectSaved(await post(id, { intent: "remove-value", valueId: value("3-seater").id }));
    expectSaved(await post(id, { intent: "remove-option", optionId: e.options[1]!.id }));
    let now = await editor(id);
    expect(now.options.map((o) => o.name)).toEqual(["Fabric"]);
    expect(now.variants.map((v) => v.label)).toEqual(["Linen", "Velvet"]);
    const keys = await db.selectFrom("productVariants").select("optionKey").where("itemId", "=", id).orderBy("position").execute();
    expect(keys.map((k) => k.optionKey)).toEqual([String(value("Linen").id), String(value("Velvet").id)]);
    expectSaved(await post(id, { intent: "remove-value", valueId: value("Velvet").id }));
    const only = refused(await post(id, { intent: "remove-value", valueId: value("Linen").id }), 400);
    expect(only.formError).toBe("Linen is the only value of Fabric: remove the option instead");
    expectSaved(await post(id, { intent: "remove-option", optionId: e.options[0]!.id }));
    now = await editor(id);
    expect(now.options).toEqual([]);
    expect(now.variants.map((v) => [v.id, v.label])).toEqual([[e.variants[0]!.id, ""]]);
    const piece = await db.selectFrom("productVariants").select("optionKey").where("itemId", "=", id).execute();
    expect(piece).toEqual([{ optionKey: "" }]);
    expect(await db.selectFrom("productOptionValues").select("id").where("itemId", "=", id).execute()).toEqual([]);
  });
});

describe("a variant's details, its stock and one price for all", () => {
  it("saves a variant's SKU, price, active flag and size, with the price's before and after", async () => {
    const { id, variant } = await sofa();
    const v = variant("Velvet, 3-seater");
    expectSaved(
      await post(id, {
        intent: "save-variant",
        variantId: v.id,
        version: v.version,
        sku: "sofa-velvet-3",
        price: "52,000",
        weightGrams: "61000",
        lengthCm: "210",
        widthCm: "",
        heightCm: "85",
      }),
    );
    const row = await db.selectFrom("productVariants").selectAll().where("id", "=", v.id).executeTakeFirstOrThrow();
    expect([row.sku, row.price, row.active, row.weightGrams, row.lengthCm, row.widthCm, row.heightCm]).toEqual([
      "SOFA-VELVET-3",
      52000,
      0,
      61000,
      210,
      null,
      85,
    ]);
    expect(row.version).toBe(v.version + 1);
    // Not on sale: its stock leaves the product's.
    expect((await item(id)).stock).toBe(12);
    const audit = (await audits(id)).at(-1)!;
    expect(JSON.parse(audit.details!)).toMatchObject({ price: [45000, 52000], active: [1, 0], sku: [v.sku, "SOFA-VELVET-3"] });
    // The same page posted again (the version it was opened at is gone): 409, nothing written.
    const before = await state(id);
    const stale = refused(
      await post(id, { intent: "save-variant", variantId: v.id, version: v.version, sku: v.sku, price: 1, active: "on" }),
      409,
    );
    expect(stale.formError).toBe(
      "SOFA-VELVET-3 changed since you opened this page (someone else saved a change to it). Reload and try again.",
    );
    expect(await state(id)).toEqual(before);
    // Another variant's SKU: refused beside the field.
    const w = variant("Linen, 3-seater");
    const taken = refused(
      await post(id, { intent: "save-variant", variantId: w.id, version: w.version, sku: "SOFA-VELVET-3", price: 1, active: "on" }),
      409,
    );
    expect(taken.fieldErrors.sku).toBe("That SKU is already used by another variant");
  });

  it("adjusts stock relatively (+5, -1) against the version opened; stale is 409 and below 0 is 400, nothing written", async () => {
    const { id, variant } = await sofa(4);
    const v = variant("Linen, 2-seater");
    expectSaved(await post(id, { intent: "adjust-stock", variantId: v.id, version: v.version, stockSeen: v.stock, stockDelta: "+5" }));
    let row = (await editor(id)).variants.find((x) => x.id === v.id)!;
    expect(row.stock).toBe(9);
    const audit = (await audits(id)).at(-1)!;
    expect(audit.summary).toMatch(/\+5 \(4 → 9\)/);
    expect(JSON.parse(audit.details!)).toEqual({ stock: [4, 9] });
    expectSaved(await post(id, { intent: "adjust-stock", variantId: v.id, version: row.version, stockDelta: " -1 " }));
    // The page opened before the -1: refused, with how the stock moved.
    const before = await state(id);
    const stale = refused(
      await post(id, { intent: "adjust-stock", variantId: v.id, version: row.version, stockSeen: 9, stockDelta: "+2" }),
      409,
    );
    expect(stale.formError).toMatch(/changed since you opened this page \(its stock went from 9 to 8/);
    expect(await state(id)).toEqual(before);
    row = (await editor(id)).variants.find((x) => x.id === v.id)!;
    const below = refused(await post(id, { intent: "adjust-stock", variantId: v.id, version: row.version, stockDelta: "-9" }), 400);
    expect(below.fieldErrors.stockDelta).toMatch(/cannot go below 0/);
    expect(await state(id)).toEqual(before);
    expect((await item(id)).stock).toBe(8 + 12);
  });

  it("sets one price for every variant, each one's before and after in the audit row", async () => {
    const { id, e } = await sofa();
    expectSaved(await post(id, { intent: "price-all", price: 39999 }));
    const now = await editor(id);
    expect(new Set(now.variants.map((v) => v.price))).toEqual(new Set([39999]));
    expect(now.variants.every((v, i) => v.version === e.variants[i]!.version + 1)).toBe(true);
    expect(await item(id)).toMatchObject({ price: 39999 });
    const audit = (await audits(id)).at(-1)!;
    expect(Object.values(JSON.parse(audit.details!) as Record<string, unknown>)).toEqual([
      [40000, 39999],
      [45000, 39999],
      [45000, 39999],
      [45000, 39999],
    ]);
  });

  it("deletes an unused variant; never a product's only one", async () => {
    const { id, variant } = await sofa();
    expectSaved(await post(id, { intent: "delete-variant", variantId: variant("Velvet, 2-seater").id }));
    expect((await editor(id)).missing).toBe(1);
    const lone = await newProduct();
    const only = refused(await post(lone, { intent: "delete-variant", variantId: await defaultVariantId(lone) }), 400);
    expect(only.formError).toMatch(/only variant: a product keeps at least one/);
  });
});

describe("refused with nothing written", () => {
  it("bad input: a 400 naming the field", async () => {
    const { id, variant, e } = await sofa();
    const v = variant("Linen, 2-seater");
    const before = await state(id);
    const cases: [Record<string, string | number>, string, RegExp][] = [
      [{ intent: "add-option", name: " ", values: "A" }, "name", /is required/],
      [{ intent: "add-option", name: "Page", values: "A" }, "name", /taken by the product page/],
      [{ intent: "add-option", name: "Colour", values: "Red, red" }, "values", /red is given twice/],
      [{ intent: "add-option", name: "Colour", values: " , " }, "values", /at least one value/],
      [{ intent: "add-value", optionId: e.options[0]!.id, value: "x".repeat(41) }, "value", /at most 40/],
      [{ intent: "add-value", optionId: "abc", value: "Silk" }, "optionId", /valid id/],
      [{ intent: "generate", price: "abc", stock: 1 }, "price", /must be a number/],
      [{ intent: "price-all", price: "-5" }, "price", /0 or more/],
      [{ intent: "save-variant", variantId: v.id, version: v.version, sku: "A B", price: 5 }, "sku", /letters, digits or hyphens/],
      [{ intent: "save-variant", variantId: v.id, version: v.version, sku: "OK-1", price: 5, heightCm: "0" }, "heightCm", /above 0/],
      [{ intent: "save-variant", variantId: v.id, version: v.version, sku: `fs-${id + 1}`, price: 5 }, "sku", /FS-123 are the shop's own/],
      [{ intent: "save-variant", variantId: v.id, sku: "OK-1", price: 5 }, "version", /out of date/],
      [{ intent: "adjust-stock", variantId: v.id, version: v.version, stockDelta: "five" }, "stockDelta", /like \+5 or -1/],
      [{ intent: "adjust-stock", variantId: v.id, version: v.version, stockDelta: "0" }, "stockDelta", /like \+5 or -1/],
    ];
    for (const [fields, field, message] of cases) {
      const answer = refused(await post(id, fields), 400);
      expect(answer.fieldErrors[field], JSON.stringify(fields)).toMatch(message);
    }
    expect(refused(await post(id, { intent: "explode" }), 400).formError).toBe("Unknown action");
    expect(refused(await post(id, { intent: "price-all", price: 5, colour: "red" }), 400).formError).toMatch(/Unknown field: colour/);
    // Another product's variant or value: not found here.
    const other = await sofa();
    expect((await post(id, { intent: "remove-value", valueId: other.value("Linen").id })).status).toBe(404);
    expect((await post(id, { intent: "delete-variant", variantId: other.variant("Linen, 2-seater").id })).status).toBe(404);
    expect(await state(id)).toEqual(before);
  });

  it("a role without the catalogue: 403 for the page and every form", async () => {
    const { id, value } = await sofa();
    const before = await state(id);
    expect((await call(page.loader, getRequest(path(id), { Cookie: fulfilment }), { id: String(id) })).status).toBe(403);
    const forms: Record<string, string | number>[] = [
      { intent: "price-all", price: 1 },
      { intent: "remove-value", valueId: value("Linen").id },
      { intent: "add-option", name: "Colour", values: "Red" },
    ];
    for (const fields of forms) {
      expect((await post(id, fields, fulfilment)).status).toBe(403);
    }
    expect(await state(id)).toEqual(before);
    expect((await call(page.loader, getRequest(path(99999999), { Cookie: manager.cookie }), { id: "99999999" })).status).toBe(404);
  });

  it("a value or a variant in a cart, a payment hold or an open order is not removed: the reason, then deactivation", async () => {
    const { id, value, variant } = await sofa(5);
    const velvet = variant("Velvet, 3-seater");
    const linen = variant("Linen, 2-seater");
    const twoSeater = variant("Velvet, 2-seater");
    // A cart line.
    await addToCartVariant(buyers[0]!, id, velvet.id);
    let before = await state(id);
    let answer = refused(await post(id, { intent: "remove-value", valueId: value("Velvet").id }), 409);
    expect(answer.formError).toBe("Velvet is in 1 cart: deactivate its variants instead");
    expect(refused(await post(id, { intent: "delete-variant", variantId: velvet.id }), 409).formError).toBe(
      "Velvet, 3-seater is in 1 cart: deactivate it instead",
    );
    expect(await state(id)).toEqual(before);
    // A payment hold (the customer is paying online): the units are held for the variant.
    await addToCartVariant(buyers[1]!, id, linen.id);
    await createPaymentOrder(buyers[1]!.user.id, SHIPPING);
    expect(await db.selectFrom("stockReservations").select("variantId").where("itemId", "=", id).execute()).toEqual([
      { variantId: linen.id },
    ]);
    before = await state(id);
    answer = refused(await post(id, { intent: "remove-value", valueId: value("Linen").id }), 409);
    expect(answer.formError).toMatch(/^Linen is in 1 cart and 1 payment in progress: deactivate its variants instead$/);
    // An open order (cash on delivery: its cart is emptied).
    await addToCartVariant(buyers[2]!, id, twoSeater.id);
    expect((await placeViaApi(buyers[2]!, checkoutFields())).status).toBe(201);
    answer = refused(await post(id, { intent: "remove-value", valueId: value("2-seater").id }), 409);
    expect(answer.formError).toBe("2-seater is in 1 cart, 1 payment in progress and 1 open order: deactivate its variants instead");
    expect(refused(await post(id, { intent: "delete-variant", variantId: twoSeater.id }), 409).formError).toBe(
      "Velvet, 2-seater is in 1 open order: deactivate it instead",
    );
    // Deactivated instead: the order's line keeps its variant; the variant is no longer sold.
    const row = (await editor(id)).variants.find((v) => v.id === twoSeater.id)!;
    expectSaved(await post(id, { intent: "save-variant", variantId: row.id, version: row.version, sku: row.sku, price: row.price }));
    expect((await db.selectFrom("productVariants").select("active").where("id", "=", twoSeater.id).executeTakeFirstOrThrow()).active).toBe(
      0,
    );
    expect(await db.selectFrom("orderItems").select("variantId").where("itemId", "=", id).execute()).toEqual([{ variantId: twoSeater.id }]);
    // 3-seater: Linen's is held, Velvet's in a cart: refused; nothing of it gone.
    answer = refused(await post(id, { intent: "remove-value", valueId: value("3-seater").id }), 409);
    expect(answer.formError).toMatch(/^3-seater is in 1 cart: deactivate/);
    expect((await editor(id)).variants).toHaveLength(4);
  });
});

describe("the products list", () => {
  it("shows each product's total stock on sale, its variant count and how many variants on sale are low", async () => {
    const { id, variant } = await sofa(3);
    const v = variant("Velvet, 3-seater");
    expectSaved(await post(id, { intent: "adjust-stock", variantId: v.id, version: v.version, stockDelta: "+10" }));
    const title = (await db.selectFrom("items").select("title").where("id", "=", id).executeTakeFirstOrThrow()).title;
    const listed = await call(
      productsPage.loader,
      getRequest(`/admin/products?q=${encodeURIComponent(title)}`, { Cookie: manager.cookie }),
    );
    const rows = (asRecord(asRecord(listed.body).list).rows as Record<string, unknown>[]).filter((r) => r.id === id);
    expect(rows.map((r) => [r.stock, r.variantCount, r.lowVariants])).toEqual([[3 * 3 + 13, 4, 3]]);
  });
});

describe("races", () => {
  it("two staff adjust one variant's stock at once: each adjustment applied once, none lost", async () => {
    const { id, variant } = await sofa(10);
    const v = variant("Linen, 3-seater");
    const other = await signedInStaff("manager");
    const [a, b] = await Promise.all([
      post(id, { intent: "adjust-stock", variantId: v.id, version: v.version, stockDelta: "+5" }),
      post(id, { intent: "adjust-stock", variantId: v.id, version: v.version, stockDelta: "-3" }, other.cookie),
    ]);
    // Both opened the same version: the first to commit is applied, the other is told it is stale.
    expect([a.status, b.status].sort()).toEqual([302, 409]);
    const late = a.status === 409 ? { delta: "+5", cookie: manager.cookie } : { delta: "-3", cookie: other.cookie };
    const reopened = (await editor(id)).variants.find((x) => x.id === v.id)!;
    expectSaved(
      await post(id, { intent: "adjust-stock", variantId: v.id, version: reopened.version, stockDelta: late.delta }, late.cookie),
    );
    expect((await editor(id)).variants.find((x) => x.id === v.id)!.stock).toBe(10 + 5 - 3);
    const adjusted = (await audits(id)).filter((x) => x.summary.startsWith("Adjusted"));
    expect(adjusted.map((x) => JSON.parse(x.details!).stock[1] - JSON.parse(x.details!).stock[0]).sort()).toEqual([-3, 5]);
    expect(new Set(adjusted.map((x) => x.staffId))).toEqual(new Set([manager.id, other.id]));
  });

  it("two adjustments each from the page as it stands: both applied, in turn", async () => {
    const { id, variant } = await sofa(10);
    const v = variant("Velvet, 2-seater");
    const runs = await Promise.all(
      ["+4", "-2"].map(async (delta) => {
        for (;;) {
          const now = (await editor(id)).variants.find((x) => x.id === v.id)!;
          const answer = await post(id, { intent: "adjust-stock", variantId: v.id, version: now.version, stockDelta: delta });
          if (answer.status !== 409) return answer.status;
        }
      }),
    );
    expect(runs).toEqual([302, 302]);
    expect((await editor(id)).variants.find((x) => x.id === v.id)!.stock).toBe(12);
  });

  it("a staff price change racing a checkout: the order is charged one whole price, the stock moves once", async () => {
    const { id, variant } = await sofa(3);
    const v = variant("Linen, 2-seater");
    const buyer = (await newCustomers("variants-race", 1))[0]!;
    await addToCartVariant(buyer, id, v.id);
    const [edit, order] = await Promise.all([
      post(id, { intent: "save-variant", variantId: v.id, version: v.version, sku: v.sku, price: 41000, active: "on" }),
      placeViaApi(buyer, checkoutFields()),
    ]);
    const line = await db.selectFrom("orderItems").select(["unitPrice", "variantId"]).where("itemId", "=", id).execute();
    const row = await db.selectFrom("productVariants").select(["price", "stock"]).where("id", "=", v.id).executeTakeFirstOrThrow();
    if (edit.status === 409) {
      // The order committed first and moved the variant's version: the edit is stale, the order at the old price.
      expect(order.status).toBe(201);
      expect(row.price).toBe(40000);
      expect(line).toEqual([{ unitPrice: 40000, variantId: v.id }]);
    } else {
      // The edit committed first: the order, placed after it, is charged the new price (or refused, nothing sold).
      expect(edit.status).toBe(302);
      expect(row.price).toBe(41000);
      if (order.status === 201) expect(line).toEqual([{ unitPrice: 41000, variantId: v.id }]);
      else expect(line).toEqual([]);
    }
    expect(row.stock).toBe(order.status === 201 ? 2 : 3);
    expect(edit.status === 302 || order.status === 201).toBe(true);
  });
});
