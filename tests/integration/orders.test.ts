// Orders through the API: placing a cash-on-delivery order from the cart (one transaction:
// stock, order, items, event, empty cart), refusals that write nothing, the last-unit race,
// idempotent double submits, who may view an order, and status changes.
import { setItemFigures } from "../support/items";
import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { AppError, OrderExistsError } from "~/lib/errors.server";
import { settleMail } from "~/lib/mail.server";
import { placeCodOrder } from "~/models/orders/checkout.server";
import type { Order } from "~/models/orders/read.server";
import { changeOrderStatus } from "~/models/orders/status.server";
import { EMPTY_CART } from "~/models/orders/orderable.server";
import * as orderGet from "~/routes/api.orders_.$id";
import * as orderStatus from "~/routes/api.orders_.changeStatus";
import * as ordersList from "~/routes/api.orders";
import { COD_LIMITS } from "~/utils/checkout";
import { computeTotals } from "~/utils/pricing";
import { createTestItem } from "../support/items";
import { mailsTo } from "../support/outbox";
import { getRequest, jsonRequest } from "../support/requests";
import type { Answer } from "../support/route-calls";
import { asRecord, call, expectApiError } from "../support/route-calls";
import type { Customer } from "../support/orders";
import {
  addToCart,
  cartLines,
  checkoutFields,
  countOrderItems,
  countOrders,
  eventsOf,
  newCustomer,
  newCustomers,
  placeViaApi,
  setStock,
  SHIPPING,
  snapshot,
  stockOf,
  itemMaker,
} from "../support/orders";
import { BUILTIN_OWNER } from "~/models/staff/staff.server";

beforeAll(async () => {
  await ready;
});

const item = itemMaker("orders");

const key = () => crypto.randomBytes(16).toString("hex");

function asOrder(answer: Answer): Order {
  return asRecord(answer.body) as unknown as Order;
}

function getOrderApi(customer: Customer | null, id: string) {
  return call(orderGet.loader, getRequest(`/api/orders/${id}`, customer ? customer.auth : {}), { id });
}

function listOrdersApi(customer: Customer | null) {
  return call(ordersList.loader, getRequest("/api/orders", customer ? customer.auth : {}));
}

function changeStatusApi(customer: Customer | null, body: Record<string, unknown>) {
  return call(orderStatus.action, jsonRequest("PUT", "/api/orders/changeStatus", body, customer ? customer.auth : {}));
}

async function statusOf(orderId: number) {
  return (await db.selectFrom("orders").select("status").where("id", "=", orderId).executeTakeFirstOrThrow()).status;
}

/** A processing COD order of `customer` for `quantity` of `itemId`, placed through the API. */
async function placeCod(customer: Customer, itemId: number, quantity = 1): Promise<Order> {
  await addToCart(customer, itemId, quantity);
  const placed = await placeViaApi(customer, checkoutFields());
  expect(placed.status).toBe(201);
  return asOrder(placed);
}

describe("POST /api/orders/add (cash on delivery)", () => {
  it("places the order from the cart: catalogue prices, money rules, stock taken, cart emptied, mail sent, first event", async () => {
    const customer = await newCustomer("cod-e2e");
    const teak = await item("teak-chair", 1275, 10);
    const stool = await item("stool", 1225, 5);
    await addToCart(customer, teak, 2);
    await addToCart(customer, stool, 1);
    const before = Date.now();

    const placed = await placeViaApi(customer, checkoutFields());
    expect(placed.status).toBe(201);
    expect(placed.headers.get("Content-Type")).toContain("application/json");
    const order = asOrder(placed);

    expect(Number.isInteger(order.id)).toBe(true);
    expect(order.id).toBeGreaterThan(0);
    expect(order.userId).toBe(customer.user.id);
    expect(order.status).toBe("processing");
    expect(order.paymentMethod).toBe("cod");
    expect(order.paymentId).toBeNull();
    expect(order.items.map((l) => [l.itemId, l.quantity, l.price])).toEqual([
      [teak, 2, 1275],
      [stool, 1, 1225],
    ]);
    expect(order.items[0]!.title).toMatch(/^Test orders-teak-chair-\d+$/);
    expect(order.items[1]!.title).toMatch(/^Test orders-stool-\d+$/);
    expect(order.shippingAddress).toEqual(SHIPPING);
    // 2×1275 + 1225 = 3775; shipping 1 (not above 25000); GST 18% = 679.5, rounded half up to 680.
    expect({ subtotal: order.subtotal, shipping: order.shipping, gst: order.gst, total: order.total }).toEqual({
      subtotal: 3775,
      shipping: 1,
      gst: 680,
      total: 4456,
    });
    const rules = computeTotals([
      { price: 1275, quantity: 2 },
      { price: 1225, quantity: 1 },
    ]);
    expect({ subtotal: order.subtotal, shipping: order.shipping, gst: order.gst, total: order.total }).toEqual({
      subtotal: rules.subtotal,
      shipping: rules.shipping,
      gst: rules.gst,
      total: rules.total,
    });
    expect(typeof order.orderDetails).toBe("string");
    const details = JSON.parse(order.orderDetails) as {
      total: number;
      items: { title: string; quantity: number; price: number }[];
      shippingAddress: unknown;
    };
    expect(details.total).toBe(3775);
    expect(details.items.map((i) => [i.quantity, i.price])).toEqual([
      [2, 1275],
      [1, 1225],
    ]);
    expect(details.shippingAddress).toEqual(SHIPPING);
    expect(Number.isNaN(Date.parse(order.createdAt))).toBe(false);
    expect(Date.parse(order.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(order.createdAt)).toBeLessThanOrEqual(Date.now() + 1000);

    // The cart is empty now, and exactly the ordered units left stock.
    expect(await cartLines(customer)).toEqual([]);
    expect(await stockOf(teak)).toBe(8);
    expect(await stockOf(stool)).toBe(4);

    // The confirmation goes to the account's registered email once the order is committed.
    await settleMail();
    const mails = (await mailsTo(customer.email)).filter((m) => m.subject.includes(`#${order.id}`));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toMatch(/confirmed/i);
    expect(mails[0]!.text).toContain(`#${order.id}`);

    // One event: created as processing, by the customer.
    expect(await eventsOf(order.id)).toEqual([
      { fromStatus: null, toStatus: "processing", actor: "customer", actorUserId: customer.user.id },
    ]);

    // The order keeps the unit price of the moment it was placed.
    await setItemFigures(teak, { price: 9999 });
    const reread = asOrder(await getOrderApi(customer, String(order.id)));
    expect(reread.items.find((l) => l.itemId === teak)?.price).toBe(1275);
    expect(reread.total).toBe(4456);
  });

  it("ignores prices and totals sent in the body: the order's money comes from the catalogue", async () => {
    const customer = await newCustomer("cod-prices");
    const bench = await item("bench", 9999, 10);
    await addToCart(customer, bench, 3);
    const placed = await placeViaApi(
      customer,
      checkoutFields({
        subtotal: 1,
        shipping: 0,
        gst: 0,
        total: 1,
        price: 1,
        amount: 100,
        items: [{ itemId: bench, quantity: 3, price: 1 }],
      }),
    );
    expect(placed.status).toBe(201);
    const order = asOrder(placed);
    // 3×9999 = 29997 (above 25000: free shipping); GST 5399.46 → 5399.
    expect({ subtotal: order.subtotal, shipping: order.shipping, gst: order.gst, total: order.total }).toEqual({
      subtotal: 29997,
      shipping: 0,
      gst: 5399,
      total: 35396,
    });
    expect(order.items.map((l) => [l.quantity, l.price])).toEqual([[3, 9999]]);
    const row = await db.selectFrom("orders").select(["subtotal", "total"]).where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ subtotal: 29997, total: 35396 });
  });

  it("refuses invalid checkout fields with the documented messages per field, and writes nothing", async () => {
    const customer = await newCustomer("cod-invalid");
    const lamp = await item("lamp", 1500, 10);
    await addToCart(customer, lamp, 2);
    const before = await snapshot(customer, [lamp]);

    const empty = expectApiError(await placeViaApi(customer, { paymentMethod: "cod" }), 400);
    expect(empty.errors).toEqual({
      name: "Name is required",
      address: "Address is required",
      city: "City is required",
      state: "State is required",
      pincode: "Pincode is required",
      phone: "Phone is required",
      email: "Email is required",
    });

    const malformed = expectApiError(
      await placeViaApi(customer, checkoutFields({ name: "  ", phone: "12345", pincode: "01234", email: "not-an-email" })),
      400,
    );
    expect(malformed.errors).toEqual({
      name: "Name is required",
      phone: "Please enter a valid 10-digit phone number",
      pincode: "Please enter a valid 6-digit pincode",
      email: "Please enter a valid email address",
    });
    expect(Object.values(malformed.errors!)).toContain(malformed.message);

    const method = expectApiError(await placeViaApi(customer, checkoutFields({ paymentMethod: "bitcoin" })), 400);
    expect(method.errors).toEqual({ paymentMethod: "Please choose a payment method" });

    expect(await snapshot(customer, [lamp])).toEqual(before);
    expect(before.cart).toEqual([[lamp, 2]]);
  });

  it("answers 401 without a token, and 400 'Your cart is empty' for an empty cart", async () => {
    const customer = await newCustomer("cod-empty");
    const ordersBefore = await countOrders();

    const anonymous = expectApiError(await placeViaApi(null, checkoutFields()), 401);
    expect(anonymous.message).toMatch(/log in/i);
    const badToken = { ...customer, auth: { Authorization: "Bearer slt_not-a-real-token" } };
    expectApiError(await placeViaApi(badToken, checkoutFields()), 401);

    // No cart row at all, then a cart whose lines were removed.
    expect(expectApiError(await placeViaApi(customer, checkoutFields()), 400).message).toBe(EMPTY_CART);
    expect(EMPTY_CART).toBe("Your cart is empty");
    const chair = await item("empty-chair", 800, 5);
    await addToCart(customer, chair, 1);
    await db.deleteFrom("cartLines").where("itemId", "=", chair).execute();
    expect(expectApiError(await placeViaApi(customer, checkoutFields()), 400).message).toBe("Your cart is empty");

    expect(await countOrders()).toBe(ordersBefore);
    expect(await stockOf(chair)).toBe(5);
  });

  it("refuses a cart asking for more than is in stock (409, a clear message) and writes nothing", async () => {
    const customer = await newCustomer("cod-stock");
    const sofa = await item("sofa", 20000, 10);
    const cushion = await item("cushion", 300, 10);
    await addToCart(customer, cushion, 1);
    await addToCart(customer, sofa, 3);

    // Too few left: the stock fell after the sofa went into the cart.
    await setStock(sofa, 2);
    const before = await snapshot(customer, [sofa, cushion]);
    const tooFew = expectApiError(await placeViaApi(customer, checkoutFields()), 409);
    expect(tooFew.message).toMatch(/Only 2 of Test orders-sofa-\d+ left in stock/);
    expect(await snapshot(customer, [sofa, cushion])).toEqual(before);
    expect(before.stock).toEqual([2, 10]);
    expect(before.cart).toEqual(
      [
        [sofa, 3],
        [cushion, 1],
      ].sort((a, b) => a[0]! - b[0]!),
    );

    // None left.
    await setStock(sofa, 0);
    const noneBefore = await snapshot(customer, [sofa, cushion]);
    const none = expectApiError(await placeViaApi(customer, checkoutFields()), 409);
    expect(none.message).toMatch(/out of stock/i);
    expect(none.message).toContain("sofa");
    expect(await snapshot(customer, [sofa, cushion])).toEqual(noneBefore);
    expect(await countOrders(customer.user.id)).toBe(0);
  });

  it("sells the last unit once when many customers order it at the same moment", async () => {
    const last = await item("last-unit", 4999, 1);
    const customers = await newCustomers("race", 8);
    // Each fills their cart while the unit is still there.
    for (const customer of customers) await addToCart(customer, last, 1);

    const answers = await Promise.all(customers.map((c) => placeViaApi(c, checkoutFields())));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const lost of answers.filter((a) => a.status === 409)) expect(expectApiError(lost, 409).message).toMatch(/sold out|out of stock/i);

    expect(await stockOf(last)).toBe(0);
    expect(await countOrderItems(last)).toBe(1);
    const winner = customers[answers.findIndex((a) => a.status === 201)]!;
    const rows = await db
      .selectFrom("orders")
      .innerJoin("orderItems", "orderItems.orderId", "orders.id")
      .select(["orders.userId", "orderItems.quantity"])
      .where("orderItems.itemId", "=", last)
      .execute();
    expect(rows).toEqual([{ userId: winner.user.id, quantity: 1 }]);
    // The others keep their carts; the winner's is empty.
    for (const customer of customers) {
      expect(await cartLines(customer)).toEqual(customer === winner ? [] : [[last, 1]]);
    }
  });
});

describe("double submits", () => {
  it("the same idempotency key twice (one after the other) makes one order; the second names it (409)", async () => {
    const customer = await newCustomer("idem-seq");
    const desk = await item("desk", 7000, 10);
    await addToCart(customer, desk, 1);
    const idempotencyKey = key();
    expect(idempotencyKey).toHaveLength(32);

    const first = await placeViaApi(customer, checkoutFields({ idempotencyKey }));
    expect(first.status).toBe(201);
    const orderId = asOrder(first).id;
    // The customer fills the cart again, but the form (and its key) is the old one.
    await addToCart(customer, desk, 1);
    const second = expectApiError(await placeViaApi(customer, checkoutFields({ idempotencyKey })), 409);
    expect(second.message).toContain(`#${orderId}`);

    expect(await countOrders(customer.user.id)).toBe(1);
    expect(await stockOf(desk)).toBe(9);
    expect(await cartLines(customer)).toEqual([[desk, 1]]);
  });

  it("the same idempotency key submitted twice at once makes one order (API and placeCodOrder)", async () => {
    const customer = await newCustomer("idem-par");
    const shelf = await item("shelf", 3000, 10);

    await addToCart(customer, shelf, 2);
    const idempotencyKey = key();
    const answers = await Promise.all([
      placeViaApi(customer, checkoutFields({ idempotencyKey })),
      placeViaApi(customer, checkoutFields({ idempotencyKey })),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    const orderId = asOrder(answers.find((a) => a.status === 201)!).id;
    expect(
      expectApiError(
        answers.find((a) => a.status === 409)!,
        409,
      ).message,
    ).toContain(`#${orderId}`);
    expect(await countOrders(customer.user.id)).toBe(1);
    expect(await stockOf(shelf)).toBe(8);

    // The model directly: the loser is OrderExistsError, naming the winner's order.
    await addToCart(customer, shelf, 1);
    const modelKey = key();
    const results = await Promise.allSettled([
      placeCodOrder(customer.user.id, SHIPPING, modelKey),
      placeCodOrder(customer.user.id, SHIPPING, modelKey),
    ]);
    const made = results.filter((r): r is PromiseFulfilledResult<Order> => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(made).toHaveLength(1);
    expect(refused).toHaveLength(1);
    const error = refused[0]!.reason as unknown;
    expect(error).toBeInstanceOf(OrderExistsError);
    expect((error as OrderExistsError).status).toBe(409);
    expect((error as OrderExistsError).orderId).toBe(made[0]!.value.id);
    expect(await countOrders(customer.user.id)).toBe(2);
    expect(await stockOf(shelf)).toBe(7);
    await settleMail();
  });

  it("two submissions with different keys from one cart make one order; the other finds the cart empty (400)", async () => {
    const customer = await newCustomer("idem-two");
    const rack = await item("rack", 2200, 10);
    await addToCart(customer, rack, 3);

    const answers = await Promise.all([
      placeViaApi(customer, checkoutFields({ idempotencyKey: key() })),
      placeViaApi(customer, checkoutFields({ idempotencyKey: key() })),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 400]);
    expect(
      expectApiError(
        answers.find((a) => a.status === 400)!,
        400,
      ).message,
    ).toBe("Your cart is empty");
    expect(await countOrders(customer.user.id)).toBe(1);
    expect(await stockOf(rack)).toBe(7);
  });
});

describe("GET /api/orders and /api/orders/{id}", () => {
  it("lists only the caller's orders, newest first; another's order, an unknown id and a non-number are 404", async () => {
    const [alice, bob] = await newCustomers("view", 2);
    const vase = await item("vase", 600, 20);
    const first = await placeCod(alice!, vase, 1);
    const second = await placeCod(alice!, vase, 2);
    const bobs = await placeCod(bob!, vase, 1);

    const aliceList = await listOrdersApi(alice!);
    expect(aliceList.status).toBe(200);
    const orders = aliceList.body as Order[];
    expect(orders.map((o) => o.id)).toEqual([second.id, first.id]);
    expect(orders.every((o) => o.userId === alice!.user.id)).toBe(true);
    expect(orders[0]!.items.map((l) => l.quantity)).toEqual([2]);
    expect(((await listOrdersApi(bob!)).body as Order[]).map((o) => o.id)).toEqual([bobs.id]);

    const own = await getOrderApi(alice!, String(first.id));
    expect(own.status).toBe(200);
    expect(asOrder(own).id).toBe(first.id);
    expect(asOrder(own).total).toBe(first.total);

    expect(expectApiError(await getOrderApi(alice!, String(bobs.id)), 404).message).toBe("Order Not Found");
    expectApiError(await getOrderApi(alice!, "99999999"), 404);
    expectApiError(await getOrderApi(alice!, "abc"), 404);
    expectApiError(await getOrderApi(alice!, "-1"), 404);

    expectApiError(await listOrdersApi(null), 401);
    expectApiError(await getOrderApi(null, String(first.id)), 401);
  });
});

describe("PUT /api/orders/changeStatus", () => {
  it("a customer cancels their own processing order: stock comes back, the change is recorded, a second cancel is 409", async () => {
    const customer = await newCustomer("cancel");
    const table = await item("table", 5000, 10);
    const order = await placeCod(customer, table, 2);
    expect(await stockOf(table)).toBe(8);

    const cancelled = await changeStatusApi(customer, { orderId: order.id, status: "cancelled" });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toEqual({ success: true });
    expect(await statusOf(order.id)).toBe("cancelled");
    expect(await stockOf(table)).toBe(10);
    expect(await eventsOf(order.id)).toEqual([
      { fromStatus: null, toStatus: "processing", actor: "customer", actorUserId: customer.user.id },
      { fromStatus: "processing", toStatus: "cancelled", actor: "customer", actorUserId: customer.user.id },
    ]);
    expect(asOrder(await getOrderApi(customer, String(order.id))).status).toBe("cancelled");

    expectApiError(await changeStatusApi(customer, { orderId: order.id, status: "cancelled" }), 409);
    // Stock is not returned twice.
    expect(await stockOf(table)).toBe(10);
    expect(await eventsOf(order.id)).toHaveLength(2);
  });

  it("refuses what a customer may not: ship (403), another's order (403), unknown (404), bad status (400), no token (401)", async () => {
    const [owner, other] = await newCustomers("status", 2);
    const wardrobe = await item("wardrobe", 15000, 5);
    const order = await placeCod(owner!, wardrobe, 1);

    expectApiError(await changeStatusApi(owner!, { orderId: order.id, status: "shipped" }), 403);
    expectApiError(await changeStatusApi(other!, { orderId: order.id, status: "cancelled" }), 403);
    expect(expectApiError(await changeStatusApi(owner!, { orderId: 99999999, status: "cancelled" }), 404).message).toBe("Order Not Found");
    const bad = expectApiError(await changeStatusApi(owner!, { orderId: order.id, status: "refunded" }), 400);
    expect(bad.errors?.status).toBeTruthy();
    expect(expectApiError(await changeStatusApi(owner!, { orderId: "abc", status: "cancelled" }), 400).errors?.orderId).toBeTruthy();
    expectApiError(await changeStatusApi(null, { orderId: order.id, status: "cancelled" }), 401);

    expect(await statusOf(order.id)).toBe("processing");
    expect(await stockOf(wardrobe)).toBe(4);
    expect(await eventsOf(order.id)).toHaveLength(1);
  });

  it("once shipped only the shop may cancel (its units stay out until they come back); a delivered order never changes again", async () => {
    const customer = await newCustomer("shipped");
    const bed = await item("bed", 22000, 5);
    const order = await placeCod(customer, bed, 2);
    expect(await stockOf(bed)).toBe(3);

    const shipped = await changeOrderStatus(order.id, "shipped", { actor: "admin", userId: null, staff: BUILTIN_OWNER });
    expect(shipped.status).toBe("shipped");
    const tooLate = expectApiError(await changeStatusApi(customer, { orderId: order.id, status: "cancelled" }), 409);
    expect(tooLate.message).toMatch(/shipped/i);
    expect(await statusOf(order.id)).toBe("shipped");
    expect(await stockOf(bed)).toBe(3);

    const byShop = await changeOrderStatus(order.id, "cancelled", { actor: "admin", userId: null, staff: BUILTIN_OWNER });
    expect(byShop.status).toBe("cancelled");
    // The pieces are with the carrier; stock goes back only when they arrive (ADR 0025).
    expect(await stockOf(bed)).toBe(3);
    expect((await eventsOf(order.id)).slice(1)).toEqual([
      { fromStatus: "processing", toStatus: "shipped", actor: "admin", actorUserId: null },
      { fromStatus: "shipped", toStatus: "cancelled", actor: "admin", actorUserId: null },
    ]);

    // Delivered: final, for the customer and for the shop.
    const delivered = await placeCod(customer, bed, 1);
    await changeOrderStatus(delivered.id, "shipped", { actor: "admin", userId: null, staff: BUILTIN_OWNER });
    await changeOrderStatus(delivered.id, "delivered", { actor: "admin", userId: null, staff: BUILTIN_OWNER });
    expect(await stockOf(bed)).toBe(2);
    expectApiError(await changeStatusApi(customer, { orderId: delivered.id, status: "cancelled" }), 409);
    for (const to of ["cancelled", "shipped", "processing", "delivered"] as const) {
      const attempt = changeOrderStatus(delivered.id, to, { actor: "admin", userId: null, staff: BUILTIN_OWNER });
      await expect(attempt).rejects.toBeInstanceOf(AppError);
      await expect(attempt).rejects.toMatchObject({ status: 409 });
    }
    expect(await statusOf(delivered.id)).toBe("delivered");
    expect(await stockOf(bed)).toBe(2);
    expect(await eventsOf(delivered.id)).toHaveLength(3);
  });
});

describe("cash on delivery holds at most a few units of a piece", () => {
  it(`more than ${COD_LIMITS.unitsPerPiece} of one piece: 400, a clear message, nothing taken`, async () => {
    const customer = await newCustomer("cod-cap");
    const itemId = await createTestItem(`cod-cap-${Date.now()}`, { stock: 50 });
    await addToCart(customer, itemId, COD_LIMITS.unitsPerPiece + 1);
    const refused = await placeViaApi(customer, checkoutFields());
    const error = expectApiError(refused, 400);
    expect(error.message).toContain(`up to ${COD_LIMITS.unitsPerPiece} of each piece`);
    expect(await stockOf(itemId)).toBe(50);
    expect(await countOrders(customer.user.id)).toBe(0);
    // At the cap it is an order.
    await db.deleteFrom("cartLines").execute();
    await addToCart(customer, itemId, COD_LIMITS.unitsPerPiece);
    expect((await placeViaApi(customer, checkoutFields())).status).toBe(201);
    expect(await stockOf(itemId)).toBe(50 - COD_LIMITS.unitsPerPiece);
  });

  it(`and an order of at most ${COD_LIMITS.maxTotal}: a larger one is 400 with a clear message, nothing taken`, async () => {
    const customer = await newCustomer("cod-total");
    const itemId = await createTestItem(`cod-total-${Date.now()}`, { price: 240_000, stock: 10 });
    // 4 × 2,40,000 with GST is 11,32,800: over the cap (a cart over the online cap, 5,00,000, but under this one pays on delivery).
    await addToCart(customer, itemId, 4);
    const error = expectApiError(await placeViaApi(customer, checkoutFields()), 400);
    expect(error.message).toBe("Cash on delivery takes orders of up to ₹10,00,000. Please pay online, or split the order.");
    expect(await stockOf(itemId)).toBe(10);
    expect(await countOrders(customer.user.id)).toBe(0);
  });

  it(`and at most ${COD_LIMITS.openOrders} cash-on-delivery orders waiting per account: the next is 409`, async () => {
    const customer = await newCustomer("cod-open");
    const itemId = await createTestItem(`cod-open-${Date.now()}`, { stock: 50 });
    const ids: number[] = [];
    for (let n = 0; n < COD_LIMITS.openOrders; n++) {
      await addToCart(customer, itemId, 1);
      const placed = await placeViaApi(customer, checkoutFields());
      expect(placed.status).toBe(201);
      ids.push(asRecord(placed.body).id as number);
    }
    // (Two placements at once queue on the customer's cart, where the count is taken.)
    expect(await countOrders(customer.user.id)).toBe(COD_LIMITS.openOrders);

    await addToCart(customer, itemId, 1);
    const before = await snapshot(customer, [itemId]);
    const refused = expectApiError(await placeViaApi(customer, checkoutFields()), 409);
    expect(refused.message).toBe(
      `You already have ${COD_LIMITS.openOrders} cash on delivery orders waiting to be shipped. ` +
        "Please pay online, or wait until one of them has shipped.",
    );
    expect(await snapshot(customer, [itemId])).toEqual(before);
    expect(await countOrders(customer.user.id)).toBe(COD_LIMITS.openOrders);

    // One shipped by the shop, one cancelled by the customer: two places again.
    await changeOrderStatus(ids[0]!, "shipped", { actor: "admin", userId: null, staff: BUILTIN_OWNER });
    await changeOrderStatus(ids[1]!, "cancelled", { actor: "customer", userId: customer.user.id });
    expect((await placeViaApi(customer, checkoutFields())).status).toBe(201);
    await addToCart(customer, itemId, 1);
    expect((await placeViaApi(customer, checkoutFields())).status).toBe(201);
    await addToCart(customer, itemId, 1);
    expectApiError(await placeViaApi(customer, checkoutFields()), 409);
  });
});
