// Edge cases of checkout and payment: NUL characters refused at the door, a stale checkout page
// (expectedTotal), the offline pay page (a payment whose order could not be placed, double
// posts, a forged payment), webhooks that must never undo an order, the online payment cap,
// authentication before validation on changeStatus, and cart changes racing an order placement.
import crypto from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { ready } from "~/lib/boot.server";
import { db, toCount } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { settleMail } from "~/lib/mail.server";
import { offlinePayment, signWebhook } from "~/lib/payments.server";
import { addToCart as addToCartModel, removeCartLine, updateCartLine } from "~/models/cart.server";
import { failedMessage } from "~/models/payments/payment-orders.server";
import { MAX_ONLINE_PAYMENT } from "~/models/payments/start.server";
import { PAYMENT_FAILED } from "~/models/payments/verify.server";
import { placeCodOrder } from "~/models/orders/checkout.server";
import type { Order } from "~/models/orders/read.server";
import { AMOUNT_MISMATCH } from "~/models/orders/place.server";
import { CART_CHANGED } from "~/models/orders/orderable.server";
import { changeOrderStatus } from "~/models/orders/status.server";
import * as cartClear from "~/routes/api.cart.clear";
import * as cartRemove from "~/routes/api.cart.clear_.$id";
import * as orderGet from "~/routes/api.orders_.$id";
import * as ordersAdd from "~/routes/api.orders_.add";
import * as orderStatus from "~/routes/api.orders_.changeStatus";
import * as checkoutPage from "~/routes/checkout";
import * as login from "~/routes/login";
import * as ordersPage from "~/routes/orders";
import * as payPage from "~/routes/pay.$paymentOrderId";
import * as createOrder from "~/routes/rzp.create-order";
import * as webhook from "~/routes/rzp.webhook";
import { computeTotals } from "~/utils/pricing";
import { formRequest, getRequest, jsonRequest, ORIGIN } from "../support/requests";
import type { Answer } from "../support/route-calls";
import { asRecord, call, cookieJar, expectApiError } from "../support/route-calls";
import type { Customer } from "../support/orders";
import {
  addToCart,
  cartLines,
  cartOf,
  checkoutFields,
  countOrders,
  newCustomer,
  PASSWORD,
  placeViaApi,
  SHIPPING,
  snapshot,
  stockOf,
  itemMaker,
} from "../support/orders";
import { BUILTIN_OWNER } from "~/models/staff/staff.server";

// Every customer costs a scrypt hash at sign-up and another at the page login.
vi.setConfig({ testTimeout: 60_000 });

beforeAll(async () => {
  await ready;
});

const item = itemMaker("edge");
const key = () => crypto.randomBytes(16).toString("hex");

const NOT_ALLOWED = "The request contains a character that is not allowed";

// ---- the browser: a session cookie, page loaders and actions -----------------------------

/** Sign the customer's browser in through the login page; the Cookie header it sends afterwards. */
async function browserOf(customer: Customer): Promise<string> {
  const answer = await call(login.action, formRequest("/login", { email: customer.email, password: PASSWORD }));
  expect([302, 303]).toContain(answer.status);
  const cookie = cookieJar(answer);
  expect(cookie).toContain("__session=");
  return cookie;
}

function stringFields(fields: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)]));
}

/** What the checkout page renders for this browser: the cart (and its total) and the form's key. */
async function checkoutPageOf(cookie: string): Promise<{ total: number; idempotencyKey: string }> {
  const answer = await call(checkoutPage.loader, getRequest("/checkout", { Cookie: cookie }));
  expect(answer.status).toBe(200);
  const body = asRecord(answer.body) as { cart: { total: number }; idempotencyKey: string };
  return { total: body.cart.total, idempotencyKey: body.idempotencyKey };
}

/** Post the checkout form (urlencoded, as a browser does). */
function postCheckout(cookie: string, fields: Record<string, unknown>) {
  return call(checkoutPage.action, formRequest("/checkout", stringFields(fields), { Cookie: cookie }));
}

/**
 * Post the pay page: 'place' is its own button; 'pay' and 'fail' post a gateway's answer (intent
 * 'complete', as Razorpay Checkout's handler does) with the offline gateway's proof, a real one or
 * one whose signature does not verify ('Simulate a failed payment').
 */
function postPay(cookie: string, paymentOrderId: string, intent: "pay" | "fail" | "place") {
  let fields: Record<string, string> = { intent };
  if (intent !== "place") {
    const paid = offlinePayment(paymentOrderId, intent === "pay" ? "paid" : "failed");
    fields = {
      intent: "complete",
      razorpay_order_id: paymentOrderId,
      razorpay_payment_id: paid.paymentId,
      razorpay_signature: paid.signature,
    };
  }
  return call(payPage.action, formRequest(`/pay/${paymentOrderId}`, fields, { Cookie: cookie }), { paymentOrderId });
}

function payPageOf(cookie: string, paymentOrderId: string) {
  return call(payPage.loader, getRequest(`/pay/${paymentOrderId}`, { Cookie: cookie }), { paymentOrderId });
}

function location(answer: Answer): string {
  return answer.headers.get("Location") ?? "";
}

/** A page action's failure: the re-rendered form's status and message. */
function pageFailure(answer: Answer, status: number): { formError: string; fieldErrors: Record<string, string> } {
  expect(answer.status).toBe(status);
  const body = asRecord(answer.body);
  expect(body.ok).toBe(false);
  expect(typeof body.formError).toBe("string");
  return body as { formError: string; fieldErrors: Record<string, string> };
}

/** The order id a 303 to /order-confirmation/{id} names. */
function confirmedOrderId(answer: Answer): number {
  expect(answer.status).toBe(303);
  const match = /^\/order-confirmation\/(\d+)$/.exec(location(answer));
  expect(match, `redirect to ${location(answer)}`).not.toBeNull();
  return Number(match![1]);
}

/** Checkout with online payment from the page: the payment order id of the /pay/{id} redirect. */
async function startOnlineCheckout(cookie: string): Promise<string> {
  const page = await checkoutPageOf(cookie);
  const answer = await postCheckout(
    cookie,
    checkoutFields({ paymentMethod: "online", idempotencyKey: page.idempotencyKey, expectedTotal: page.total }),
  );
  expect(answer.status).toBe(303);
  const match = /^\/pay\/(order_TEST[A-Za-z0-9]{10})$/.exec(location(answer));
  expect(match, `redirect to ${location(answer)}`).not.toBeNull();
  return match![1]!;
}

// ---- the database ---------------------------------------------------------------------------

function paymentOrderRow(id: string) {
  return db
    .selectFrom("paymentOrders")
    .select(["userId", "amountPaise", "status", "paymentId", "failure", "checkout"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
}

async function countPaymentOrders(userId: number): Promise<number> {
  const row = await db
    .selectFrom("paymentOrders")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("userId", "=", userId)
    .executeTakeFirstOrThrow();
  return toCount(row.n);
}

function ordersOf(userId: number) {
  return db
    .selectFrom("orders")
    .select(["id", "paymentMethod", "paymentId", "paymentOrderId", "total", "status", "shipName"])
    .where("userId", "=", userId)
    .orderBy("id")
    .execute();
}

function getOrderApi(customer: Customer, id: number) {
  return call(orderGet.loader, getRequest(`/api/orders/${id}`, customer.auth), { id: String(id) });
}

function removeLineApi(customer: Customer, lineId: number) {
  return call(cartRemove.action, jsonRequest("DELETE", `/api/cart/clear/${lineId}`, undefined, customer.auth), { id: String(lineId) });
}

function capturedWebhook(paymentId: string, orderId: string, amount: number) {
  const raw = JSON.stringify({
    event: "payment.captured",
    payload: { payment: { entity: { id: paymentId, order_id: orderId, amount, status: "captured" } } },
  });
  const request = new Request(`${ORIGIN}/rzp/webhook`, {
    method: "POST",
    headers: { Host: "localhost:3000", "Content-Type": "application/json", "X-Razorpay-Signature": signWebhook(raw) },
    body: raw,
  });
  return call(webhook.action, request);
}

/** A JSON body written by hand (so a NUL can sit in a key), posted with the customer's token. */
function rawJsonPost(path: string, raw: string, customer: Customer) {
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { Host: "localhost:3000", Origin: ORIGIN, "Content-Type": "application/json", ...customer.auth },
    body: raw,
  });
}

// ---- 1. NUL characters ------------------------------------------------------------------------

describe("NUL characters are refused at the door (400), other unicode is welcome", () => {
  it("POST /api/orders/add with a NUL in a field, a key or an array value: 400, nothing written", async () => {
    const customer = await newCustomer("nul-api");
    const chair = await item("nul-chair", 1500, 10);
    await addToCart(customer, chair, 2);
    const before = await snapshot(customer, [chair]);

    const inName = expectApiError(await placeViaApi(customer, checkoutFields({ name: "Asha\u0000Verma" })), 400);
    expect(inName.message).toBe(NOT_ALLOWED);
    expect(inName.errors).toBeUndefined();

    const fields = checkoutFields();
    const bodies = [
      // a NUL in a key, at the top and deep down
      JSON.stringify({ ...fields, "na\u0000me": "x" }),
      JSON.stringify({ ...fields, meta: { deep: [{ "k\u0000": 1 }] } }),
      // a NUL in an array value, and one written as the escape \u0000 by hand
      JSON.stringify({ ...fields, tags: ["fine", ["nested", "bad\u0000"]] }),
      JSON.stringify(fields).replace('"Asha Verma"', '"Asha\\u0000Verma"'),
    ];
    for (const raw of bodies) {
      expect(raw.includes("\\u0000")).toBe(true);
      const answer = expectApiError(await call(ordersAdd.action, rawJsonPost("/api/orders/add", raw, customer)), 400);
      expect(answer.message).toBe(NOT_ALLOWED);
    }

    expect(await snapshot(customer, [chair])).toEqual(before);
    expect(before.cart).toEqual([[chair, 2]]);
    expect(await countOrders(customer.user.id)).toBe(0);
  });

  it("the checkout page refuses name=Asha%00Verma (400) and writes nothing; no payment order either", async () => {
    const customer = await newCustomer("nul-page");
    const cookie = await browserOf(customer);
    const table = await item("nul-table", 4000, 10);
    await addToCart(customer, table, 1);
    const page = await checkoutPageOf(cookie);
    const before = await snapshot(customer, [table]);

    const body = new URLSearchParams(
      stringFields(checkoutFields({ name: "Asha\u0000Verma", idempotencyKey: page.idempotencyKey, expectedTotal: page.total })),
    ).toString();
    expect(body).toContain("name=Asha%00Verma");
    for (const paymentMethod of ["cod", "online"]) {
      const answer = await postCheckout(
        cookie,
        checkoutFields({ name: "Asha\u0000Verma", paymentMethod, idempotencyKey: page.idempotencyKey, expectedTotal: page.total }),
      );
      expect(pageFailure(answer, 400).formError).toBe(NOT_ALLOWED);
    }
    // In a field the form does not even read.
    const extra = await postCheckout(cookie, {
      ...checkoutFields({ idempotencyKey: page.idempotencyKey, expectedTotal: page.total }),
      note: "a\u0000b",
    });
    expect(pageFailure(extra, 400).formError).toBe(NOT_ALLOWED);

    expect(await snapshot(customer, [table])).toEqual(before);
    expect(await countPaymentOrders(customer.user.id)).toBe(0);
  });

  it("accepts names and addresses in other scripts and emoji, and stores them exactly (API and page)", async () => {
    const customer = await newCustomer("unicode");
    const cookie = await browserOf(customer);
    const stool = await item("unicode-stool", 900, 10);
    const name = "Āśā Pàtel 🪑";
    const address = "१२ एमजी रोड, ಇಂದಿರಾನಗರ – “Flat 4”";

    await addToCart(customer, stool, 1);
    const placed = await placeViaApi(customer, checkoutFields({ name, address }));
    expect(placed.status).toBe(201);
    const order = asRecord(placed.body) as unknown as Order;
    expect(order.shippingAddress).toEqual({ ...SHIPPING, name, address });

    await addToCart(customer, stool, 1);
    const page = await checkoutPageOf(cookie);
    const answer = await postCheckout(
      cookie,
      checkoutFields({ name: "José 😀 Ñandú", address, idempotencyKey: page.idempotencyKey, expectedTotal: page.total }),
    );
    const id = confirmedOrderId(answer);
    const row = await db.selectFrom("orders").select(["shipName", "shipAddress", "userId"]).where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toEqual({ shipName: "José 😀 Ñandú", shipAddress: address, userId: customer.user.id });
    expect(await stockOf(stool)).toBe(8);
    await settleMail();
  });
});

// ---- 2. a stale checkout page ------------------------------------------------------------------

describe("a checkout page rendered before the cart changed (expectedTotal)", () => {
  it("cash on delivery: the old total is refused with CART_CHANGED (409, nothing written); the new one places the order", async () => {
    const customer = await newCustomer("stale-cod");
    const cookie = await browserOf(customer);
    const desk = await item("stale-desk", 3000, 10);
    await addToCart(customer, desk, 1);
    const stale = await checkoutPageOf(cookie);
    // 3000 + 1 + 540
    expect(stale.total).toBe(3541);

    // Another tab adds a unit.
    await addToCart(customer, desk, 1);
    const before = await snapshot(customer, [desk]);
    const refused = pageFailure(
      await postCheckout(cookie, checkoutFields({ idempotencyKey: stale.idempotencyKey, expectedTotal: stale.total })),
      409,
    );
    expect(refused.formError).toBe(CART_CHANGED);
    expect(await snapshot(customer, [desk])).toEqual(before);
    expect(before.cart).toEqual([[desk, 2]]);

    // The page re-renders with the cart as it is now.
    const fresh = await checkoutPageOf(cookie);
    expect(fresh.total).toBe(computeTotals([{ price: 3000, quantity: 2 }]).total);
    const id = confirmedOrderId(
      await postCheckout(cookie, checkoutFields({ idempotencyKey: fresh.idempotencyKey, expectedTotal: fresh.total })),
    );
    expect(await ordersOf(customer.user.id)).toEqual([
      {
        id,
        paymentMethod: "cod",
        paymentId: null,
        paymentOrderId: null,
        total: fresh.total,
        status: "processing",
        shipName: SHIPPING.name,
      },
    ]);
    expect(await stockOf(desk)).toBe(8);
    expect(await cartLines(customer)).toEqual([]);
    await settleMail();
  });

  it("online: the old total makes no payment order (409); the new one redirects to /pay/order_TEST…", async () => {
    const customer = await newCustomer("stale-online");
    const cookie = await browserOf(customer);
    const shelf = await item("stale-shelf", 2000, 10);
    const lamp = await item("stale-lamp", 450, 10);
    await addToCart(customer, shelf, 1);
    const stale = await checkoutPageOf(cookie);

    await addToCart(customer, lamp, 1);
    const before = await snapshot(customer, [shelf, lamp]);
    const refused = pageFailure(
      await postCheckout(
        cookie,
        checkoutFields({ paymentMethod: "online", idempotencyKey: stale.idempotencyKey, expectedTotal: stale.total }),
      ),
      409,
    );
    expect(refused.formError).toBe(CART_CHANGED);
    expect(await countPaymentOrders(customer.user.id)).toBe(0);
    expect(await snapshot(customer, [shelf, lamp])).toEqual(before);

    const fresh = await checkoutPageOf(cookie);
    const answer = await postCheckout(
      cookie,
      checkoutFields({ paymentMethod: "online", idempotencyKey: fresh.idempotencyKey, expectedTotal: fresh.total }),
    );
    expect(answer.status).toBe(303);
    expect(location(answer)).toMatch(/^\/pay\/order_TEST[A-Za-z0-9]{10}$/);
    const id = location(answer).slice("/pay/".length);
    const row = await paymentOrderRow(id);
    expect(row).toMatchObject({ userId: customer.user.id, amountPaise: fresh.total * 100, status: "created", paymentId: null });
    expect(JSON.parse(row.checkout!)).toEqual({ shipping: SHIPPING });
    expect(await countPaymentOrders(customer.user.id)).toBe(1);
    expect(await countOrders(customer.user.id)).toBe(0);
  });

  it("a post without an expectedTotal (no hidden field) is not taken for a total of ₹0", async () => {
    const customer = await newCustomer("stale-none");
    const cookie = await browserOf(customer);
    const rack = await item("stale-rack", 1200, 10);
    await addToCart(customer, rack, 1);
    const page = await checkoutPageOf(cookie);

    // No expectedTotal at all: nothing to compare, the order is placed from the cart as it is.
    const answer = await postCheckout(cookie, checkoutFields({ idempotencyKey: page.idempotencyKey }));
    expect(answer.status, JSON.stringify(answer.body)).toBe(303);
    confirmedOrderId(answer);
    expect(await countOrders(customer.user.id)).toBe(1);
    await settleMail();
  });
});

// ---- 3-5. the pay page ---------------------------------------------------------------------------

describe("the offline pay page", () => {
  it("paid, but the cart changed since: 409 AMOUNT_MISMATCH, the payment kept and reused; the cart put back places one order", async () => {
    const customer = await newCustomer("pay-changed");
    const cookie = await browserOf(customer);
    const sofa = await item("pc-sofa", 8000, 10);
    const cushion = await item("pc-cushion", 350, 10);
    await addToCart(customer, sofa, 1);
    const id = await startOnlineCheckout(cookie);
    const amountPaise = (await paymentOrderRow(id)).amountPaise;
    expect(amountPaise).toBe(computeTotals([{ price: 8000, quantity: 1 }]).total * 100);

    // After the payment page opened, another tab adds a cushion.
    await addToCart(customer, cushion, 1);
    const before = await snapshot(customer, [sofa, cushion]);

    const first = pageFailure(await postPay(cookie, id, "pay"), 409);
    expect(first.formError).toBe(AMOUNT_MISMATCH);
    expect(await countOrders(customer.user.id)).toBe(0);
    const paid = await paymentOrderRow(id);
    expect(paid.status).toBe("paid");
    expect(paid.paymentId).toMatch(/^pay_TEST[A-Za-z0-9]{10}$/);
    const paymentId = paid.paymentId!;
    expect(await snapshot(customer, [sofa, cushion])).toEqual(before);

    // The page now says the payment was received and offers to place the order.
    const shown = await payPageOf(cookie, id);
    expect(shown.status).toBe(200);
    expect(asRecord(shown.body)).toMatchObject({ id, paid: true, failure: null, amountPaise });

    // Pay again: the recorded payment is tried again, no second payment is made.
    const second = pageFailure(await postPay(cookie, id, "pay"), 409);
    expect(second.formError).toBe(AMOUNT_MISMATCH);
    expect(await paymentOrderRow(id)).toMatchObject({ status: "paid", paymentId });
    expect(await countOrders(customer.user.id)).toBe(0);
    expect(await snapshot(customer, [sofa, cushion])).toEqual(before);

    // The cushion goes; "Place my order" uses the recorded payment.
    const cushionLine = (await cartOf(customer)).items.find((l) => l.itemId === cushion)!;
    expect((await removeLineApi(customer, cushionLine.id)).status).toBe(200);
    const orderId = confirmedOrderId(await postPay(cookie, id, "place"));

    expect(await ordersOf(customer.user.id)).toEqual([
      {
        id: orderId,
        paymentMethod: "online",
        paymentId,
        paymentOrderId: id,
        total: amountPaise / 100,
        status: "processing",
        shipName: SHIPPING.name,
      },
    ]);
    const order = asRecord((await getOrderApi(customer, orderId)).body) as unknown as Order;
    expect(order).toMatchObject({ id: orderId, paymentMethod: "online", paymentId, testPayment: true, total: amountPaise / 100 });
    expect(order.items.map((l) => [l.itemId, l.quantity])).toEqual([[sofa, 1]]);
    expect(await stockOf(sofa)).toBe(9);
    expect(await stockOf(cushion)).toBe(10);
    expect(await cartLines(customer)).toEqual([]);

    // Later visits to the payment page, or another click, land on the order.
    const revisit = await payPageOf(cookie, id);
    expect(revisit.status).toBe(302);
    expect(location(revisit)).toBe(`/order-confirmation/${orderId}`);
    expect(confirmedOrderId(await postPay(cookie, id, "pay"))).toBe(orderId);
    expect(confirmedOrderId(await postPay(cookie, id, "place"))).toBe(orderId);
    expect(await countOrders(customer.user.id)).toBe(1);
    expect(await paymentOrderRow(id)).toMatchObject({ status: "paid", paymentId });
    await settleMail();
  });

  it("two 'pay' posts at the same moment both land on the one order", async () => {
    const customer = await newCustomer("pay-double");
    const cookie = await browserOf(customer);
    const clock = await item("pd-clock", 2600, 50);
    // Several rounds: the race has more than one interleaving.
    for (let round = 0; round < 4; round++) {
      await addToCart(customer, clock, 1);
      const id = await startOnlineCheckout(cookie);
      const answers = await Promise.all([postPay(cookie, id, "pay"), postPay(cookie, id, "pay")]);
      // One order, paid by the one payment recorded, whatever the two posts answered.
      const orders = await db.selectFrom("orders").select(["id", "paymentId"]).where("paymentOrderId", "=", id).execute();
      expect(orders).toHaveLength(1);
      expect(orders[0]!.paymentId).toBe((await paymentOrderRow(id)).paymentId);
      expect(await countOrders(customer.user.id)).toBe(round + 1);
      expect(await stockOf(clock)).toBe(50 - (round + 1));
      // Both posts land on it: the second click must not read as a failed payment.
      const statuses = answers.map((a) => `${a.status} ${a.status === 303 ? location(a) : JSON.stringify(a.body)}`);
      expect(
        answers.map((a) => a.status),
        `round ${round}: ${statuses.join(" | ")}`,
      ).toEqual([303, 303]);
      expect(confirmedOrderId(answers[0]!)).toBe(orders[0]!.id);
      expect(confirmedOrderId(answers[1]!)).toBe(orders[0]!.id);
    }
    await settleMail();
  });

  it("'Simulate a failed payment': 400 Payment verification failed, no order, the payment order still 'created'", async () => {
    const customer = await newCustomer("pay-fail");
    const cookie = await browserOf(customer);
    const mirror = await item("pf-mirror", 2100, 10);
    await addToCart(customer, mirror, 2);
    const id = await startOnlineCheckout(cookie);
    const before = await snapshot(customer, [mirror]);

    const failed = pageFailure(await postPay(cookie, id, "fail"), 400);
    expect(failed.formError).toBe(PAYMENT_FAILED);
    expect(PAYMENT_FAILED).toBe("Payment verification failed");
    expect(await paymentOrderRow(id)).toMatchObject({ status: "created", paymentId: null, failure: null });
    expect(await snapshot(customer, [mirror])).toEqual(before);
    expect(await countOrders(customer.user.id)).toBe(0);

    // "place" before any payment is refused; a real payment afterwards still works.
    expect(pageFailure(await postPay(cookie, id, "place"), 409).formError).toBe("This payment has not been made yet");
    const orderId = confirmedOrderId(await postPay(cookie, id, "pay"));
    expect((await ordersOf(customer.user.id)).map((o) => o.id)).toEqual([orderId]);
    await settleMail();
  });

  it("an unknown, malformed or another customer's payment order: the page is a thrown 404, a post is refused with 404", async () => {
    const [owner, other] = [await newCustomer("pay-owner"), await newCustomer("pay-other")];
    const [ownerCookie, otherCookie] = [await browserOf(owner), await browserOf(other)];
    const lamp = await item("pn-lamp", 900, 10);
    await addToCart(owner, lamp, 1);
    const id = await startOnlineCheckout(ownerCookie);
    for (const [cookie, paymentOrderId] of [
      [otherCookie, id],
      [ownerCookie, "order_NOSUCHORDER1"],
      [ownerCookie, "not-an-id"],
    ] as const) {
      const view = await payPageOf(cookie, paymentOrderId);
      expect(view.status).toBe(404);
      expect(view.raw).toBeInstanceOf(Response);
      expect(pageFailure(await postPay(cookie, paymentOrderId, "pay"), 404).formError).toBe("That payment was not found");
    }
    expect(await paymentOrderRow(id)).toMatchObject({ status: "created", paymentId: null });
    expect(await countOrders(owner.user.id)).toBe(0);
  });
});

describe("per-account limits: one counter for the page and the API, under user:{id}", () => {
  /** The limit rows of this customer (and any left under the old `u:` key shape). */
  async function limitsOf(userId: number) {
    const rows = await db.selectFrom("rateLimits").select(["key", "count"]).where("key", "like", `%u%:${userId}`).orderBy("key").execute();
    return Object.fromEntries(rows.map((r) => [r.key, r.count]));
  }

  it("placing orders, paying and cancelling count once per try, page and API alike; the shop's status changes not at all", async () => {
    const customer = await newCustomer("limits");
    const cookie = await browserOf(customer);
    const id = customer.user.id;
    const stool = await item("lim-stool", 700, 50);

    await addToCart(customer, stool, 1);
    const viaApi = asRecord((await placeViaApi(customer, checkoutFields({ idempotencyKey: key() }))).body).id as number;
    await addToCart(customer, stool, 1);
    const page = await checkoutPageOf(cookie);
    const viaPage = confirmedOrderId(
      await postCheckout(cookie, checkoutFields({ idempotencyKey: page.idempotencyKey, expectedTotal: page.total })),
    );
    await addToCart(customer, stool, 1);
    const paymentOrderId = await startOnlineCheckout(cookie);
    const paid = confirmedOrderId(await postPay(cookie, paymentOrderId, "pay"));
    await addToCart(customer, stool, 1);
    expect((await call(createOrder.action, jsonRequest("POST", "/rzp/create-order", {}, customer.auth))).status).toBe(200);

    const cancelled = await call(
      orderStatus.action,
      jsonRequest("PUT", "/api/orders/changeStatus", { orderId: viaApi, status: "cancelled" }, customer.auth),
    );
    expect(cancelled.status).toBe(200);
    const cancel = await call(
      ordersPage.action,
      formRequest("/orders", { intent: "cancel", orderId: String(viaPage) }, { Cookie: cookie }),
    );
    expect(cancel.status).toBe(302);
    await changeOrderStatus(paid, "shipped", { actor: "admin", userId: null, staff: BUILTIN_OWNER, shipUnpaid: true });

    expect(await limitsOf(id)).toEqual({
      [`order-status:user:${id}`]: 2,
      [`payment-order:user:${id}`]: 1,
      [`place-order:user:${id}`]: 3,
      // The two payment orders held the cart's units (ADR 0023: 8 holds a day).
      [`stock-hold-day:user:${id}`]: 2,
      [`verify-payment:user:${id}`]: 1,
    });
    await settleMail();
  });

  it("a used-up order limit refuses the page's Place Order and the API's alike (429), and nothing is written", async () => {
    const customer = await newCustomer("limits-full");
    const cookie = await browserOf(customer);
    const chair = await item("lim-chair", 800, 50);
    await addToCart(customer, chair, 1);
    const page = await checkoutPageOf(cookie);
    await db
      .insertInto("rateLimits")
      .values({ key: `place-order:user:${customer.user.id}`, count: 20, resetAt: new Date(Date.now() + 60_000).toISOString() })
      .execute();

    const refused = pageFailure(
      await postCheckout(cookie, checkoutFields({ idempotencyKey: page.idempotencyKey, expectedTotal: page.total })),
      429,
    );
    expect(refused.formError).toBe("Too many attempts. Please wait a while and try again.");
    expectApiError(await placeViaApi(customer, checkoutFields()), 429);
    expect(await countOrders(customer.user.id)).toBe(0);
    expect(await cartLines(customer)).toHaveLength(1);
  });
});

// ---- 6. webhooks never undo an order -------------------------------------------------------------

describe("the webhook and the pay page", () => {
  it("a captured webhook with another amount, after the order was placed, never marks the payment failed", async () => {
    const customer = await newCustomer("hook-late");
    const cookie = await browserOf(customer);
    const bed = await item("hl-bed", 15000, 5);
    await addToCart(customer, bed, 1);
    const id = await startOnlineCheckout(cookie);
    const orderId = confirmedOrderId(await postPay(cookie, id, "pay"));
    const paid = await paymentOrderRow(id);
    expect(paid.status).toBe("paid");
    const ordersBefore = await ordersOf(customer.user.id);
    expect(ordersBefore.map((o) => o.id)).toEqual([orderId]);

    const answer = await capturedWebhook(paid.paymentId!, id, paid.amountPaise - 100);
    expect(answer.status).toBe(200);
    expect(asRecord(answer.body).received).toBe(true);

    const after = await paymentOrderRow(id);
    expect(after.status).not.toBe("failed");
    expect(after).toMatchObject({ status: "paid", paymentId: paid.paymentId, failure: null });
    expect(await ordersOf(customer.user.id)).toEqual(ordersBefore);
    expect(await stockOf(bed)).toBe(4);
    // The page still leads to the order.
    expect(location(await payPageOf(cookie, id))).toBe(`/order-confirmation/${orderId}`);

    // The right amount again (a retry) just names the order.
    const retry = await capturedWebhook(paid.paymentId!, id, paid.amountPaise);
    expect(retry.body).toEqual({ received: true, orderId });
    expect(await paymentOrderRow(id)).toMatchObject({ status: "paid", failure: null });
    await settleMail();
  });

  it("a webhook whose order cannot be placed (cart emptied) marks the payment failed; the page then says it will be refunded", async () => {
    const customer = await newCustomer("hook-empty");
    const cookie = await browserOf(customer);
    const vase = await item("he-vase", 1100, 10);
    await addToCart(customer, vase, 1);
    const id = await startOnlineCheckout(cookie);
    const { amountPaise } = await paymentOrderRow(id);

    // The customer empties the cart, but the payment goes through at the gateway.
    expect((await call(cartClear.action, jsonRequest("DELETE", "/api/cart/clear", undefined, customer.auth))).status).toBe(200);
    const answer = await capturedWebhook("pay_HookEmptyCart1", id, amountPaise);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ received: true });
    const row = await paymentOrderRow(id);
    expect(row).toMatchObject({ status: "failed", paymentId: "pay_HookEmptyCart1", failure: "Your cart is empty" });
    const message = failedMessage(row.failure);
    expect(message).toBe("This payment could not become an order (Your cart is empty). It will be refunded.");

    const view = await payPageOf(cookie, id);
    expect(view.status).toBe(200);
    expect(asRecord(view.body)).toMatchObject({ id, failure: message, paid: false });

    // A stale tab posts again, even with the cart filled back: refused with the refund message.
    await addToCart(customer, vase, 1);
    const before = await snapshot(customer, [vase]);
    for (const intent of ["pay", "place"] as const) {
      const refused = pageFailure(await postPay(cookie, id, intent), 409);
      expect(refused.formError, `intent ${intent}`).toBe(message);
      expect(refused.formError).toMatch(/It will be refunded\.$/);
    }
    expect(await snapshot(customer, [vase])).toEqual(before);
    expect(await countOrders(customer.user.id)).toBe(0);
    expect(await paymentOrderRow(id)).toMatchObject({ status: "failed", paymentId: "pay_HookEmptyCart1" });
  });
});

// ---- 7. the online payment cap -------------------------------------------------------------------

describe("online payments are capped at MAX_ONLINE_PAYMENT", () => {
  it("a cart over the cap gets no payment order (409, 'Cash on Delivery'); COD for the same cart still works", async () => {
    expect(MAX_ONLINE_PAYMENT).toBe(500000);
    const customer = await newCustomer("cap");
    const cookie = await browserOf(customer);
    const almirah = await item("cap-almirah", 100000, 100);
    await addToCart(customer, almirah, 5);
    // 500000 + 90000 GST, free shipping
    expect((await cartOf(customer)).total).toBe(590000);
    const before = await snapshot(customer, [almirah]);

    const api = expectApiError(await call(createOrder.action, jsonRequest("POST", "/rzp/create-order", { amount: 1 }, customer.auth)), 409);
    expect(api.message).toContain("Cash on Delivery");
    const page = await checkoutPageOf(cookie);
    const viaPage = pageFailure(
      await postCheckout(
        cookie,
        checkoutFields({ paymentMethod: "online", idempotencyKey: page.idempotencyKey, expectedTotal: page.total }),
      ),
      409,
    );
    expect(viaPage.formError).toContain("Cash on Delivery");
    expect(await countPaymentOrders(customer.user.id)).toBe(0);
    expect(await snapshot(customer, [almirah])).toEqual(before);

    const cod = await placeViaApi(customer, checkoutFields());
    expect(cod.status).toBe(201);
    expect((asRecord(cod.body) as unknown as Order).total).toBe(590000);
    expect(await stockOf(almirah)).toBe(95);
    await settleMail();
  });

  it("exactly the cap is payable online; one rupee over is not", async () => {
    const [atCap, overCap] = [await newCustomer("cap-at"), await newCustomer("cap-over")];
    // 423729 + GST 76271.22 → 76271 = 500000; 423730 + 76271.4 → 76271 = 500001.
    const exact = await item("cap-exact", 423729, 5);
    const over = await item("cap-over", 423730, 5);
    await addToCart(atCap, exact, 1);
    await addToCart(overCap, over, 1);
    expect((await cartOf(atCap)).total).toBe(MAX_ONLINE_PAYMENT);
    expect((await cartOf(overCap)).total).toBe(MAX_ONLINE_PAYMENT + 1);

    const ok = await call(createOrder.action, jsonRequest("POST", "/rzp/create-order", {}, atCap.auth));
    expect(ok.status).toBe(200);
    expect(asRecord(ok.body).amount).toBe(MAX_ONLINE_PAYMENT * 100);
    expectApiError(await call(createOrder.action, jsonRequest("POST", "/rzp/create-order", {}, overCap.auth)), 409);
    expect(await countPaymentOrders(atCap.user.id)).toBe(1);
    expect(await countPaymentOrders(overCap.user.id)).toBe(0);
  });
});

// ---- 8. changeStatus: authentication first ---------------------------------------------------------

describe("PUT /api/orders/changeStatus", () => {
  it("without a valid token, a bad body is 401 (authentication comes before validation)", async () => {
    const customer = await newCustomer("auth-first");
    const put = (body: unknown, headers: Record<string, string> = {}) =>
      call(orderStatus.action, jsonRequest("PUT", "/api/orders/changeStatus", body, headers));
    const badBodies: unknown[] = [
      {},
      { orderId: "abc", status: "refunded" },
      { orderId: -1 },
      { status: 42 },
      { orderId: 99999999, status: "cancelled" },
      undefined,
    ];
    for (const body of badBodies) {
      const answer = expectApiError(await put(body), 401);
      expect(answer.errors, JSON.stringify(body)).toBeUndefined();
      expectApiError(await put(body, { Authorization: "Bearer slt_not-a-real-token" }), 401);
    }
    // With a token, the same body is a validation error.
    const invalid = expectApiError(await put({ orderId: "abc", status: "refunded" }, customer.auth), 400);
    expect(Object.keys(invalid.errors ?? {})).toEqual(expect.arrayContaining(["orderId"]));
  });
});

// ---- 9. cart changes racing order placement ----------------------------------------------------------

describe("cart changes and order placement at the same moment", () => {
  it("never deadlock or fail with anything but a 4xx, and the stock taken equals what was ordered", async () => {
    const customer = await newCustomer("race-cart");
    const rival = await newCustomer("race-rival");
    const [a, b, c] = [await item("race-a", 700, 500), await item("race-b", 1300, 500), await item("race-c", 250, 500)];
    const initial = { [a]: 500, [b]: 500, [c]: 500 };
    await addToCart(customer, a, 1);
    const cartId = (await db.selectFrom("carts").select("id").where("userId", "=", customer.user.id).executeTakeFirstOrThrow()).id;
    const rivalCartId = async () =>
      (await db.selectFrom("carts").select("id").where("userId", "=", rival.user.id).executeTakeFirstOrThrow()).id;

    const outcomes: string[] = [];
    let placed = 0;
    for (let round = 0; round < 10; round++) {
      await addToCart(customer, a, 1);
      await addToCart(customer, b, 2);
      await addToCart(rival, b, 1);
      await addToCart(rival, a, 1);
      const lines = (await cartOf(customer)).items;
      const lineA = lines.find((l) => l.itemId === a)!.id;
      const lineB = lines.find((l) => l.itemId === b)!.id;
      const rivalCart = await rivalCartId();
      const rivalLineA = (await cartOf(rival)).items.find((l) => l.itemId === a)!.id;

      const operations: [string, () => Promise<unknown>][] = [
        ["place", () => placeCodOrder(customer.user.id, SHIPPING, key())],
        ["update", () => updateCartLine(cartId, lineA, 3)],
        ["add", () => addToCartModel(cartId, c, 1)],
        ["remove", () => removeCartLine(cartId, lineB)],
        ["add-b", () => addToCartModel(cartId, b, 1)],
        // Another customer's order over the same items, taking stock rows in the same moment.
        ["rival-place", () => placeCodOrder(rival.user.id, SHIPPING, key())],
        ["rival-update", () => updateCartLine(rivalCart, rivalLineA, 2)],
      ];
      const results = await Promise.allSettled(operations.map(([, run]) => run()));
      results.forEach((result, i) => {
        const name = operations[i]![0];
        if (result.status === "fulfilled") {
          outcomes.push(`${name}:ok`);
          return;
        }
        const reason = result.reason as unknown;
        const detail = reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason);
        expect(reason instanceof AppError, `round ${round} ${name} failed with ${detail}`).toBe(true);
        const status = (reason as AppError).status;
        expect(status >= 400 && status < 500, `round ${round} ${name}: ${status} ${detail}`).toBe(true);
        outcomes.push(`${name}:${status}`);
      });
      // The placement always finds line A in the cart: it is never refused.
      expect(results[0]!.status, `round ${round}`).toBe("fulfilled");
      placed++;
      // The cart is left in a state the next round can build on: no line above what is in stock.
      for (const line of (await cartOf(customer)).items) expect(line.quantity).toBeLessThanOrEqual(await stockOf(line.itemId));
      // The shop ships this round's orders: an account holds only COD_LIMITS.openOrders open COD orders.
      await db
        .updateTable("orders")
        .set({ status: "shipped" })
        .where("userId", "in", [customer.user.id, rival.user.id])
        .where("status", "=", "processing")
        .execute();
    }

    expect(await countOrders(customer.user.id)).toBe(placed);
    expect(await countOrders(rival.user.id)).toBe(outcomes.filter((o) => o === "rival-place:ok").length);

    // Stock consistency: every unit taken from stock is on an order line, and nothing else was taken.
    const orderedRows = await db
      .selectFrom("orderItems")
      .innerJoin("orders", "orders.id", "orderItems.orderId")
      .select(["orderItems.itemId", "orderItems.quantity", "orders.id as orderId"])
      .where("orders.userId", "in", [customer.user.id, rival.user.id])
      .execute();
    for (const itemId of [a, b, c]) {
      const ordered = orderedRows.filter((r) => r.itemId === itemId).reduce((sum, r) => sum + r.quantity, 0);
      expect(initial[itemId]! - (await stockOf(itemId)), `item ${itemId}`).toBe(ordered);
    }
    // Each order's money matches its own lines.
    const orders = await db
      .selectFrom("orders")
      .select(["id", "subtotal", "total"])
      .where("userId", "in", [customer.user.id, rival.user.id])
      .execute();
    for (const order of orders) {
      const lines = await db.selectFrom("orderItems").select(["quantity", "unitPrice"]).where("orderId", "=", order.id).execute();
      expect(lines.length).toBeGreaterThan(0);
      const totals = computeTotals(lines.map((l) => ({ price: l.unitPrice, quantity: l.quantity })));
      expect({ subtotal: order.subtotal, total: order.total }).toEqual({ subtotal: totals.subtotal, total: totals.total });
    }
    await settleMail();
  });
});
