// Pieces as they are sold (migration 0032, ADR 0034): every product has its variants, a product
// without options exactly one; the product's stock and price follow its active variants; cart
// lines, holds and order lines are of a variant; a variant id from another product, one no longer
// sold, or none for a product sold in several is refused with nothing written; customers racing
// for the last units of one variant never oversell it and leave the other variants alone.
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db, toCount } from "~/lib/db.server";
import { defineVariants } from "~/models/catalogue/variant-writes.server";
import { variantsOf } from "~/models/catalogue/variants.server";
import { changeOrderStatus } from "~/models/orders/status.server";
import { productReviews } from "~/models/reviews/read.server";
import { saveReview } from "~/models/reviews/write.server";
import { BUILTIN_OWNER } from "~/models/staff/staff.server";
import * as cartAdd from "~/routes/api.cart.add";
import { defaultVariantId } from "../support/items";
import type { Customer } from "../support/orders";
import { cartOf, checkoutFields, directCustomer, itemMaker, placeViaApi } from "../support/orders";
import { jsonRequest } from "../support/requests";
import { asRecord, call, expectApiError } from "../support/route-calls";

beforeAll(async () => {
  await ready;
});

const item = itemMaker("variants");

/** A sofa in two fabrics and two sizes, 3 of each combination unless told. */
async function sofa(tag: string, stock: Partial<Record<string, number>> = {}) {
  const id = await item(tag, 40000, 5);
  const combos = [
    ["Linen", "2-seater", 38000],
    ["Linen", "3-seater", 45000],
    ["Velvet", "2-seater", 42000],
    ["Velvet", "3-seater", 49000],
  ] as const;
  await db.transaction().execute((trx) =>
    defineVariants(
      trx,
      id,
      {
        options: [
          { name: "Fabric", values: ["Linen", "Velvet"] },
          { name: "Size", values: ["2-seater", "3-seater"] },
        ],
        variants: combos.map(([fabric, size, price], i) => ({
          values: [fabric, size],
          sku: `${tag}-${i}`.toUpperCase(),
          price,
          stock: stock[`${fabric} ${size}`] ?? 3,
        })),
      },
      BUILTIN_OWNER,
    ),
  );
  const product = (await variantsOf(db, id))!;
  const variant = (label: string) => product.variants.find((v) => v.label === label)!;
  return { id, product, variant };
}

function add(customer: Customer, body: Record<string, unknown>) {
  return call(cartAdd.action, jsonRequest("POST", "/api/cart/add", body, customer.auth));
}

async function itemRow(id: number) {
  return db.selectFrom("items").select(["stock", "price", "version"]).where("id", "=", id).executeTakeFirstOrThrow();
}

async function variantStock(id: number) {
  return (await db.selectFrom("productVariants").select("stock").where("id", "=", id).executeTakeFirstOrThrow()).stock;
}

async function cartRows(customer: Customer) {
  return db
    .selectFrom("cartLines")
    .innerJoin("carts", "carts.id", "cartLines.cartId")
    .select(["cartLines.variantId", "cartLines.quantity"])
    .where("carts.userId", "=", customer.user.id)
    .orderBy("cartLines.variantId")
    .execute();
}

describe("every product has its variants", () => {
  it("each product of the catalogue has exactly one default variant carrying its price and stock", async () => {
    const mismatched = await db
      .selectFrom("items")
      .leftJoin("productVariants as v", (join) => join.onRef("v.itemId", "=", "items.id").on("v.optionKey", "=", ""))
      .select(["items.id"])
      .where((eb) =>
        eb.and([
          eb.not(eb.exists(eb.selectFrom("productOptions").select("id").whereRef("productOptions.itemId", "=", "items.id"))),
          eb.or([eb("v.id", "is", null), eb("v.price", "!=", eb.ref("items.price")), eb("v.stock", "!=", eb.ref("items.stock"))]),
        ]),
      )
      .execute();
    expect(mismatched).toEqual([]);
    const { n } = await db
      .selectFrom("items")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    expect(toCount(n)).toBeGreaterThan(0);
  });

  it("a new product is born with its default variant: SKU FS-{id}, the product's price and stock", async () => {
    const id = await item("born", 1234, 7);
    const product = (await variantsOf(db, id))!;
    expect(product.options).toEqual([]);
    expect(product.variants).toEqual([
      { id: expect.any(Number), itemId: id, sku: `FS-${id}`, price: 1234, stock: 7, active: true, options: {}, valueIds: [], label: "" },
    ]);
  });

  it("the product's stock is its active variants' sum and its price their lowest; a direct write of either is refused", async () => {
    const { id, variant } = await sofa("figures");
    expect(await itemRow(id)).toMatchObject({ stock: 12, price: 38000 });
    const before = (await itemRow(id)).version;
    await db.updateTable("productVariants").set({ active: 0 }).where("id", "=", variant("Linen, 2-seater").id).execute();
    expect(await itemRow(id)).toMatchObject({ stock: 9, price: 42000 });
    // A variant's change makes the product's editor form stale: its version moved.
    expect((await itemRow(id)).version).toBeGreaterThan(before);
    await expect(db.updateTable("items").set({ stock: 100 }).where("id", "=", id).execute()).rejects.toThrow(/variants/);
    await expect(db.updateTable("items").set({ price: 1 }).where("id", "=", id).execute()).rejects.toThrow(/variants/);
    expect(await itemRow(id)).toMatchObject({ stock: 9, price: 42000 });
  });

  it("options given twice, a value not of its option, a repeated combination or SKU: refused, nothing written", async () => {
    const id = await item("bad-set", 1000, 2);
    const attempt = (input: unknown) => db.transaction().execute((trx) => defineVariants(trx, id, input, BUILTIN_OWNER));
    const base = { options: [{ name: "Finish", values: ["Teak", "Walnut"] }] };
    await expect(attempt({ ...base, variants: [{ values: ["Oak"], sku: "BAD-1", price: 1, stock: 1 }] })).rejects.toMatchObject({
      status: 400,
      message: "Oak is not a value of Finish",
    });
    const twice = [
      { values: ["Teak"], sku: "BAD-1", price: 1, stock: 1 },
      { values: ["teak"], sku: "BAD-2", price: 1, stock: 1 },
    ];
    await expect(attempt({ ...base, variants: twice })).rejects.toMatchObject({ status: 400, message: "teak is given twice" });
    const skuTwice = [
      { values: ["Teak"], sku: "BAD-1", price: 1, stock: 1 },
      { values: ["Walnut"], sku: "bad-1", price: 1, stock: 1 },
    ];
    await expect(attempt({ ...base, variants: skuTwice })).rejects.toMatchObject({ message: "The SKU BAD-1 is given twice" });
    await expect(
      attempt({ options: [{ name: "Tab", values: ["A"] }], variants: [{ values: ["A"], sku: "BAD-3", price: 1, stock: 1 }] }),
    ).rejects.toMatchObject({ status: 400 });
    const taken = `FS-${await item("sku-owner", 1, 1)}`;
    await expect(attempt({ ...base, variants: [{ values: ["Teak"], sku: taken, price: 1, stock: 1 }] })).rejects.toMatchObject({
      status: 400,
    });
    const { id: other } = await sofa("sku-taken");
    const otherSku = (await variantsOf(db, other))!.variants[0]!.sku;
    await expect(attempt({ ...base, variants: [{ values: ["Teak"], sku: otherSku, price: 1, stock: 1 }] })).rejects.toMatchObject({
      status: 409,
    });
    expect(await db.selectFrom("productOptions").select("id").where("itemId", "=", id).execute()).toEqual([]);
    expect((await variantsOf(db, id))!.variants).toHaveLength(1);
    expect(await itemRow(id)).toMatchObject({ stock: 2, price: 1000 });
  });
});

describe("the cart holds variants", () => {
  it("two variants of one sofa are two lines; the same variant again adds to its line", async () => {
    const { id, variant } = await sofa("two-lines");
    const customer = await directCustomer("variant-cart");
    const linen = variant("Linen, 3-seater");
    const velvet = variant("Velvet, 2-seater");
    for (const body of [
      { itemId: id, variantId: linen.id, quantity: 1 },
      { itemId: id, variantId: velvet.id, quantity: 2 },
      { itemId: id, variantId: linen.id, quantity: 1 },
    ]) {
      expect((await add(customer, body)).status).toBe(200);
    }
    const cart = await cartOf(customer);
    const lines = cart.items as unknown as {
      variantId: number;
      sku: string;
      variantLabel: string;
      quantity: number;
      item: { price: number };
    }[];
    expect(lines.map((l) => [l.variantLabel, l.sku, l.quantity, l.item.price])).toEqual([
      ["Linen, 3-seater", "TWO-LINES-1", 2, 45000],
      ["Velvet, 2-seater", "TWO-LINES-2", 2, 42000],
    ]);
    expect(cart.subtotal).toBe(2 * 45000 + 2 * 42000);
  });

  it("a product sold in several variants needs one named: 400 naming its options, nothing written", async () => {
    const { id } = await sofa("unnamed");
    const customer = await directCustomer("variant-unnamed");
    const answer = await add(customer, { itemId: id, quantity: 1 });
    expect(expectApiError(answer, 400).message).toBe("Please choose the Fabric and Size of this product");
    expect(await cartRows(customer)).toEqual([]);
  });

  it("another product's variant 404, a variant no longer sold 400, an unknown one 404: nothing written", async () => {
    const { id, variant } = await sofa("wrong-variant");
    const { variant: otherVariant } = await sofa("other-product");
    const customer = await directCustomer("variant-wrong");
    expect(expectApiError(await add(customer, { itemId: id, variantId: otherVariant("Linen, 2-seater").id }), 404).message).toBe(
      "That choice of the product was not found",
    );
    expect(expectApiError(await add(customer, { itemId: id, variantId: 999_999_999 }), 404).message).toBe(
      "That choice of the product was not found",
    );
    await db.updateTable("productVariants").set({ active: 0 }).where("id", "=", variant("Velvet, 3-seater").id).execute();
    expect(expectApiError(await add(customer, { itemId: id, variantId: variant("Velvet, 3-seater").id }), 400).message).toBe(
      "That choice of the product is no longer sold",
    );
    expect(expectApiError(await add(customer, { itemId: id, variantId: "x" }), 400).message).toBeTruthy();
    expect(await cartRows(customer)).toEqual([]);
  });

  it("a product without options is added by its id alone, as every API client does", async () => {
    const plain = await item("plain", 999, 4);
    const customer = await directCustomer("variant-plain");
    const answer = await add(customer, { itemId: plain, quantity: 2 });
    expect(answer.status).toBe(200);
    expect(asRecord(answer.body)).toMatchObject({
      itemId: plain,
      variantId: await defaultVariantId(plain),
      sku: `FS-${plain}`,
      variantLabel: "",
    });
  });

  it("the stock that counts is the variant's: a sold-out variant is refused while its sibling sells", async () => {
    const { id, variant } = await sofa("sold-out", { "Velvet 3-seater": 0 });
    const title = await titleOf(id);
    const customer = await directCustomer("variant-sold-out");
    const answer = await add(customer, { itemId: id, variantId: variant("Velvet, 3-seater").id, quantity: 1 });
    expect(expectApiError(answer, 409).message).toBe(`${title} — Velvet, 3-seater is out of stock`);
    expect((await add(customer, { itemId: id, variantId: variant("Velvet, 2-seater").id, quantity: 3 })).status).toBe(200);
    const more = await add(customer, { itemId: id, variantId: variant("Velvet, 2-seater").id, quantity: 1 });
    expect(expectApiError(more, 409).message).toBe(`Only 3 of ${title} — Velvet, 2-seater left in stock`);
    expect(await cartRows(customer)).toEqual([{ variantId: variant("Velvet, 2-seater").id, quantity: 3 }]);
  });
});

async function titleOf(id: number) {
  const { title } = await db.selectFrom("items").select("title").where("id", "=", id).executeTakeFirstOrThrow();
  return title;
}

describe("orders keep the variant", () => {
  it("an order of two variants takes each one's stock, keeps SKU and label; a cancellation puts them back", async () => {
    const { id, variant } = await sofa("order");
    const customer = await directCustomer("variant-order");
    const linen = variant("Linen, 2-seater");
    const velvet = variant("Velvet, 3-seater");
    await add(customer, { itemId: id, variantId: linen.id, quantity: 2 });
    await add(customer, { itemId: id, variantId: velvet.id, quantity: 1 });
    const placed = await placeViaApi(customer, checkoutFields());
    expect(placed.status).toBe(201);
    const order = asRecord(placed.body) as { id: number; subtotal: number };
    expect(order.subtotal).toBe(2 * 38000 + 49000);
    const lines = await db
      .selectFrom("orderItems")
      .select(["variantId", "sku", "variantLabel", "title", "quantity", "unitPrice"])
      .where("orderId", "=", order.id)
      .orderBy("variantId")
      .execute();
    const title = await titleOf(id);
    expect(lines).toEqual([
      { variantId: linen.id, sku: "ORDER-0", variantLabel: "Linen, 2-seater", title, quantity: 2, unitPrice: 38000 },
      { variantId: velvet.id, sku: "ORDER-3", variantLabel: "Velvet, 3-seater", title, quantity: 1, unitPrice: 49000 },
    ]);
    expect(await variantStock(linen.id)).toBe(1);
    expect(await variantStock(velvet.id)).toBe(2);
    expect(await variantStock(variant("Linen, 3-seater").id)).toBe(3);
    expect(await itemRow(id)).toMatchObject({ stock: 12 - 3 });
    await changeOrderStatus(order.id, "cancelled", { actor: "customer", userId: customer.user.id });
    expect(await variantStock(linen.id)).toBe(3);
    expect(await variantStock(velvet.id)).toBe(3);
    expect(await itemRow(id)).toMatchObject({ stock: 12 });
  });

  it("50 customers racing for the last 3 units of one variant and for another at once: exactly 3 sold, the other unaffected", async () => {
    const { id, variant } = await sofa("race", { "Linen 2-seater": 3, "Velvet 2-seater": 40 });
    const scarce = variant("Linen, 2-seater");
    const plenty = variant("Velvet, 2-seater");
    const customers = await Promise.all(Array.from({ length: 50 }, (_, i) => directCustomer(`variant-race${i}`)));
    // 40 want one of the scarce variant; 10 want one of the plentiful one.
    const wants = customers.map((c, i) => ({ c, variantId: i < 40 ? scarce.id : plenty.id }));
    for (const { c, variantId } of wants) expect((await add(c, { itemId: id, variantId, quantity: 1 })).status).toBe(200);
    const answers = await Promise.all(wants.map(({ c }) => placeViaApi(c, checkoutFields())));
    const placed = answers.map((a, i) => ({ status: a.status, variantId: wants[i]!.variantId }));
    expect(placed.filter((p) => p.variantId === scarce.id && p.status === 201)).toHaveLength(3);
    expect(placed.filter((p) => p.variantId === scarce.id && p.status !== 201).every((p) => p.status === 409)).toBe(true);
    expect(placed.filter((p) => p.variantId === plenty.id && p.status === 201)).toHaveLength(10);
    expect(await variantStock(scarce.id)).toBe(0);
    expect(await variantStock(plenty.id)).toBe(30);
    const sold = await db
      .selectFrom("orderItems")
      .select(["variantId", (eb) => eb.fn.sum<number | string>("quantity").as("units")])
      .where("itemId", "=", id)
      .groupBy("variantId")
      .orderBy("variantId")
      .execute();
    expect(sold.map((s) => [s.variantId, Number(s.units)])).toEqual(
      [
        [scarce.id, 3],
        [plenty.id, 10],
      ].sort((a, b) => a[0]! - b[0]!),
    );
    expect((await itemRow(id)).stock).toBe(0 + 30 + 3 + 3);
  });
});

describe("a review says which variant its author bought", () => {
  it("the buyer of the velvet sofa reviews the product; the review names Velvet", async () => {
    const { id, variant } = await sofa("review");
    const buyer = await directCustomer("variant-reviewer");
    const velvet = variant("Velvet, 2-seater");
    await add(buyer, { itemId: id, variantId: velvet.id, quantity: 1 });
    const placed = await placeViaApi(buyer, checkoutFields());
    const orderId = (asRecord(placed.body) as { id: number }).id;
    await changeOrderStatus(orderId, "shipped", { actor: "admin", userId: null, staff: BUILTIN_OWNER });
    await changeOrderStatus(orderId, "delivered", { actor: "admin", userId: null, staff: BUILTIN_OWNER });
    await saveReview(buyer.user.id, { itemId: id, rating: 5, title: "Soft and deep", body: "The velvet is lovely." });
    const page = await productReviews(id, { sort: "newest", page: 1 });
    expect(page.reviews.map((r) => [r.title, r.variantLabel])).toEqual([["Soft and deep", "Velvet, 2-seater"]]);
  });
});
