// Online payments with the offline test gateway: the server-computed payment order, the
// signature check, an order paid exactly once for exactly its total, and Razorpay's webhook.
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { OrderExistsError } from "~/lib/errors.server";
import { settleMail } from "~/lib/mail.server";
import { offlinePayment, signPayment, signWebhook } from "~/lib/payments.server";
import type { Order } from "~/models/orders/read.server";
import { AMOUNT_MISMATCH } from "~/models/orders/place.server";
import { createPaymentOrder } from "~/models/payments/start.server";
import { PAYMENT_FAILED } from "~/models/payments/verify.server";
import { placeOnlineOrder } from "~/models/payments/place.server";
import * as cartRemove from "~/routes/api.cart.clear_.$id";
import * as orderGet from "~/routes/api.orders_.$id";
import * as createOrder from "~/routes/rzp.create-order";
import * as verifyRoute from "~/routes/rzp.verify-payment";
import * as webhook from "~/routes/rzp.webhook";
import { mailsTo } from "../support/outbox";
import { getRequest, jsonRequest, ORIGIN } from "../support/requests";
import type { Answer } from "../support/route-calls";
import { asRecord, call, expectApiError } from "../support/route-calls";
import type { Customer } from "../support/orders";
import {
  addToCart,
  cartLines,
  cartOf,
  checkoutFields,
  countOrders,
  eventsOf,
  newCustomer,
  newCustomers,
  placeViaApi,
  SHIPPING,
  snapshot,
  stockOf,
  itemMaker,
} from "../support/orders";

beforeAll(async () => {
  await ready;
});

const item = itemMaker("pay");

interface Proof {
  razorpay_order_id: string;
  razorpay_payment_id: string;
  razorpay_signature: string;
}

function createPaymentApi(customer: Customer | null, body: Record<string, unknown> = {}) {
  return call(createOrder.action, jsonRequest("POST", "/rzp/create-order", body, customer ? customer.auth : {}));
}

function verifyApi(customer: Customer, proof: Proof) {
  return call(verifyRoute.action, jsonRequest("POST", "/rzp/verify-payment", proof, customer.auth));
}

/** What Razorpay's webhook sends: the raw body, signed in X-Razorpay-Signature, no browser headers. */
function webhookRequest(raw: string, signature: string | null) {
  const headers: Record<string, string> = { Host: "localhost:3000", "Content-Type": "application/json" };
  if (signature !== null) headers["X-Razorpay-Signature"] = signature;
  return new Request(`${ORIGIN}/rzp/webhook`, { method: "POST", headers, body: raw });
}

function captured(paymentId: string, orderId: string, amount: number): string {
  return JSON.stringify({
    event: "payment.captured",
    payload: { payment: { entity: { id: paymentId, order_id: orderId, amount, status: "captured" } } },
  });
}

function sendWebhook(raw: string, signature: string | null = signWebhook(raw)) {
  return call(webhook.action, webhookRequest(raw, signature));
}

/** A payment order through POST /rzp/create-order, and a payment of it by the offline gateway. */
async function payForCart(customer: Customer): Promise<{ id: string; amount: number; proof: Proof }> {
  const created = await createPaymentApi(customer, { amount: 1 });
  expect(created.status).toBe(200);
  const body = asRecord(created.body) as { id: string; amount: number };
  const paid = offlinePayment(body.id);
  return {
    id: body.id,
    amount: body.amount,
    proof: { razorpay_order_id: body.id, razorpay_payment_id: paid.paymentId, razorpay_signature: paid.signature },
  };
}

function paymentOrderRow(id: string) {
  return db
    .selectFrom("paymentOrders")
    .select(["userId", "amountPaise", "currency", "status", "paymentId", "failure"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
}

function asOrder(answer: Answer): Order {
  return asRecord(answer.body) as unknown as Order;
}

describe("online payment through the API", () => {
  it("a paid order refused (cart changed) records the payment once: a refused retry or a second verify writes nothing", async () => {
    const customer = await newCustomer("pay-retry");
    const lamp = await item("retry-lamp", 2500, 5);
    const stool = await item("retry-stool", 1500, 5);
    await addToCart(customer, lamp, 1);
    const { id, proof } = await payForCart(customer);
    await addToCart(customer, stool, 1);

    const first = expectApiError(await placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...proof })), 409);
    const recorded = await db.selectFrom("paymentOrders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(recorded).toMatchObject({ status: "paid", paymentId: proof.razorpay_payment_id, failure: first.message });

    // Retries refused for the same reason, and a second verification: the row is not touched.
    expectApiError(await placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...proof })), 409);
    expect((await verifyApi(customer, proof)).status).toBe(200);
    expect(await db.selectFrom("paymentOrders").selectAll().where("id", "=", id).executeTakeFirstOrThrow()).toEqual(recorded);

    // Once the cart matches again the order is placed, and the refusal is cleared.
    const line = (await cartOf(customer)).items.find((l) => l.itemId === stool)!;
    const removed = await call(cartRemove.action, jsonRequest("DELETE", `/api/cart/clear/${line.id}`, undefined, customer.auth), {
      id: String(line.id),
    });
    expect(removed.status).toBe(200);
    expect((await placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...proof }))).status).toBe(201);
    expect(await paymentOrderRow(id)).toMatchObject({ status: "paid", failure: null });
  });

  it("create-order (server amount in paise) → pay → verify-payment → orders/add: one paid online order", async () => {
    const customer = await newCustomer("pay-happy");
    const sideboard = await item("sideboard", 12999, 6);
    await addToCart(customer, sideboard, 2);

    // The client's amount is ignored: 2×12999 = 25998, free shipping, GST 4679.64 → 4680, total 30678.
    const created = await createPaymentApi(customer, { amount: 1 });
    expect(created.status).toBe(200);
    const paymentOrder = asRecord(created.body);
    expect(paymentOrder.amount).toBe(3067800);
    expect(paymentOrder.currency).toBe("INR");
    expect(paymentOrder.id).toMatch(/^order_[A-Za-z0-9]{14}$/);
    expect(paymentOrder.key).toBeNull();
    const id = paymentOrder.id as string;
    expect(await paymentOrderRow(id)).toMatchObject({
      userId: customer.user.id,
      amountPaise: 3067800,
      currency: "INR",
      status: "created",
      paymentId: null,
    });

    const paid = offlinePayment(id);
    const proof = { razorpay_order_id: id, razorpay_payment_id: paid.paymentId, razorpay_signature: paid.signature };
    const verified = await verifyApi(customer, proof);
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ success: true });
    expect(await paymentOrderRow(id)).toMatchObject({ status: "paid", paymentId: paid.paymentId });
    // Verifying pays nothing yet: no order, the cart is as it was.
    expect(await countOrders(customer.user.id)).toBe(0);
    expect(await cartLines(customer)).toEqual([[sideboard, 2]]);

    const placed = await placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...proof }));
    expect(placed.status).toBe(201);
    const order = asOrder(placed);
    expect(order.paymentMethod).toBe("online");
    expect(order.paymentId).toBe(paid.paymentId);
    expect(order.status).toBe("processing");
    expect(order.userId).toBe(customer.user.id);
    expect({ subtotal: order.subtotal, shipping: order.shipping, gst: order.gst, total: order.total }).toEqual({
      subtotal: 25998,
      shipping: 0,
      gst: 4680,
      total: 30678,
    });
    expect(order.items.map((l) => [l.itemId, l.quantity, l.price])).toEqual([[sideboard, 2, 12999]]);
    expect(order.shippingAddress).toEqual(SHIPPING);
    const row = await db.selectFrom("orders").select(["paymentOrderId", "paymentId"]).where("id", "=", order.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ paymentOrderId: id, paymentId: paid.paymentId });

    expect(await cartLines(customer)).toEqual([]);
    expect(await stockOf(sideboard)).toBe(4);
    await settleMail();
    const mails = (await mailsTo(customer.email)).filter((m) => m.subject.includes(`#${order.id}`));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toMatch(/Paid online/);

    const viewed = await call(orderGet.loader, getRequest(`/api/orders/${order.id}`, customer.auth), { id: String(order.id) });
    expect(asOrder(viewed)).toMatchObject({ id: order.id, paymentMethod: "online", paymentId: paid.paymentId, total: 30678 });
  });

  it("create-order refuses a caller without a token (401) and an empty cart (400), and makes no payment order", async () => {
    const customer = await newCustomer("pay-empty");
    const count = async () => (await db.selectFrom("paymentOrders").select("id").execute()).length;
    const before = await count();
    expectApiError(await createPaymentApi(null, { amount: 100 }), 401);
    expect(expectApiError(await createPaymentApi(customer, { amount: 100 }), 400).message).toBe("Your cart is empty");
    expect(await count()).toBe(before);
  });

  it("a forged or mismatched signature fails verification (400) and places nothing", async () => {
    const customer = await newCustomer("pay-forged");
    const chest = await item("chest", 8000, 5);
    await addToCart(customer, chest, 1);
    const { id, proof } = await payForCart(customer);

    const forgeries: Proof[] = [
      // signed with a secret that is not the gateway's
      { ...proof, razorpay_signature: signPayment(id, proof.razorpay_payment_id, "not-the-gateway-secret") },
      // a real signature, presented with another payment id
      { ...proof, razorpay_payment_id: "pay_AAAAAAAAAAAAAA" },
      // not even hex
      { ...proof, razorpay_signature: "forged-signature" },
      // one hex digit changed
      { ...proof, razorpay_signature: proof.razorpay_signature.slice(0, -1) + (proof.razorpay_signature.endsWith("0") ? "1" : "0") },
    ];
    for (const forged of forgeries) {
      const answer = await verifyApi(customer, forged);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ success: false, message: "Payment verification failed" });
    }
    expect(await paymentOrderRow(id)).toMatchObject({ status: "created", paymentId: null });

    const before = await snapshot(customer, [chest]);
    for (const forged of forgeries) {
      const refused = expectApiError(await placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...forged })), 400);
      expect(refused.message).toBe(PAYMENT_FAILED);
      expect(PAYMENT_FAILED).toBe("Payment verification failed");
    }
    // Online without the three fields at all.
    const missing = expectApiError(await placeViaApi(customer, checkoutFields({ paymentMethod: "online" })), 400);
    expect(Object.keys(missing.errors ?? {})).toEqual(
      expect.arrayContaining(["razorpay_order_id", "razorpay_payment_id", "razorpay_signature"]),
    );

    expect(await snapshot(customer, [chest])).toEqual(before);
    expect(before.cart).toEqual([[chest, 1]]);
    expect(await countOrders(customer.user.id)).toBe(0);
    expect(await paymentOrderRow(id)).toMatchObject({ status: "created", paymentId: null });
  });

  it("a payment for the cart as it was no longer pays for a changed cart (409); back to what was paid, it does", async () => {
    const customer = await newCustomer("pay-mismatch");
    const armchair = await item("armchair", 4000, 5);
    const lamp = await item("lamp", 500, 5);
    await addToCart(customer, armchair, 1);
    // 4000 + 1 shipping + 720 GST = 4721
    const { amount, proof } = await payForCart(customer);
    expect(amount).toBe(472100);

    await addToCart(customer, lamp, 1);
    const before = await snapshot(customer, [armchair, lamp]);
    const refused = expectApiError(await placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...proof })), 409);
    expect(refused.message).toBe(AMOUNT_MISMATCH);
    expect(await snapshot(customer, [armchair, lamp])).toEqual(before);
    expect(await countOrders(customer.user.id)).toBe(0);

    const lampLine = (await cartOf(customer)).items.find((l) => l.itemId === lamp)!;
    const removed = await call(cartRemove.action, jsonRequest("DELETE", `/api/cart/clear/${lampLine.id}`, undefined, customer.auth), {
      id: String(lampLine.id),
    });
    expect(removed.status).toBe(200);

    const placed = await placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...proof }));
    expect(placed.status).toBe(201);
    const order = asOrder(placed);
    expect(order.total).toBe(4721);
    expect(order.paymentId).toBe(proof.razorpay_payment_id);
    expect(order.items.map((l) => l.itemId)).toEqual([armchair]);
    expect(await stockOf(armchair)).toBe(4);
    expect(await stockOf(lamp)).toBe(5);
    expect(await countOrders(customer.user.id)).toBe(1);
  });

  it("a payment pays for one order only, and only its own customer's", async () => {
    const [alice, bob] = await newCustomers("pay-reuse", 2);
    const stool = await item("stool", 1800, 20);

    await addToCart(alice!, stool, 1);
    const first = await payForCart(alice!);
    const placed = await placeViaApi(alice!, checkoutFields({ paymentMethod: "online", ...first.proof }));
    expect(placed.status).toBe(201);
    const orderId = asOrder(placed).id;
    expect(await stockOf(stool)).toBe(19);

    // The same three fields again, for a cart of the same total.
    await addToCart(alice!, stool, 1);
    const again = expectApiError(await placeViaApi(alice!, checkoutFields({ paymentMethod: "online", ...first.proof })), 409);
    expect(again.message).toContain(`#${orderId}`);
    expect(await countOrders(alice!.user.id)).toBe(1);
    expect(await stockOf(stool)).toBe(19);
    expect(await cartLines(alice!)).toEqual([[stool, 1]]);

    // Alice's new payment, presented by Bob (whose cart costs the same): not his to use.
    const second = await payForCart(alice!);
    await addToCart(bob!, stool, 1);
    const bobBefore = await snapshot(bob!, [stool]);
    expectApiError(await verifyApi(bob!, second.proof), 404);
    expectApiError(await placeViaApi(bob!, checkoutFields({ paymentMethod: "online", ...second.proof })), 404);
    expect(await snapshot(bob!, [stool])).toEqual(bobBefore);
    expect(await countOrders(bob!.user.id)).toBe(0);
    expect(await paymentOrderRow(second.id)).toMatchObject({ userId: alice!.user.id, status: "created", paymentId: null });

    // Still Alice's to use.
    const hers = await placeViaApi(alice!, checkoutFields({ paymentMethod: "online", ...second.proof }));
    expect(hers.status).toBe(201);
    expect(await countOrders(alice!.user.id)).toBe(2);
    expect(await stockOf(stool)).toBe(18);
  });
});

describe("POST /rzp/webhook", () => {
  it("payment.captured places the order the checkout page prepared, once; the browser's proof then finds it", async () => {
    const customer = await newCustomer("hook-ok");
    const cabinet = await item("cabinet", 6000, 5);
    await addToCart(customer, cabinet, 2);
    // As the checkout page does: the payment order keeps the shipping details.
    const paymentOrder = await createPaymentOrder(customer.user.id, SHIPPING);
    // 12000 + 1 + 2160 = 14161
    expect(paymentOrder.amount).toBe(1416100);
    expect(paymentOrder.currency).toBe("INR");

    const paymentId = "pay_WebhookPaid001";
    const raw = captured(paymentId, paymentOrder.id, paymentOrder.amount);
    const answer = await sendWebhook(raw);
    expect(answer.status).toBe(200);
    const body = asRecord(answer.body);
    expect(body.received).toBe(true);
    expect(typeof body.orderId).toBe("number");
    const orderId = body.orderId as number;

    const order = await db
      .selectFrom("orders")
      .select(["userId", "paymentMethod", "paymentId", "paymentOrderId", "total", "status", "shipName", "shipPincode"])
      .where("id", "=", orderId)
      .executeTakeFirstOrThrow();
    expect(order).toEqual({
      userId: customer.user.id,
      paymentMethod: "online",
      paymentId,
      paymentOrderId: paymentOrder.id,
      total: 14161,
      status: "processing",
      shipName: SHIPPING.name,
      shipPincode: SHIPPING.pincode,
    });
    expect(await eventsOf(orderId)).toEqual([{ fromStatus: null, toStatus: "processing", actor: "system", actorUserId: null }]);
    expect(await paymentOrderRow(paymentOrder.id)).toMatchObject({ status: "paid", paymentId });
    expect(await cartLines(customer)).toEqual([]);
    expect(await stockOf(cabinet)).toBe(3);
    await settleMail();
    expect((await mailsTo(customer.email)).filter((m) => m.subject.includes(`#${orderId}`))).toHaveLength(1);

    // Razorpay retries: the same event again makes no second order.
    const retry = await sendWebhook(raw);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual({ received: true, orderId });
    expect(await countOrders(customer.user.id)).toBe(1);

    // The browser comes back with its proof of the same payment: the order already exists.
    const proof = {
      razorpay_order_id: paymentOrder.id,
      razorpay_payment_id: paymentId,
      razorpay_signature: signPayment(paymentOrder.id, paymentId),
    };
    await addToCart(customer, cabinet, 2);
    const browser = placeOnlineOrder(proof, customer.user.id, null);
    await expect(browser).rejects.toBeInstanceOf(OrderExistsError);
    await expect(browser).rejects.toMatchObject({ status: 409, orderId });
    const viaApi = expectApiError(await placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...proof })), 409);
    expect(viaApi.message).toContain(`#${orderId}`);
    expect(await countOrders(customer.user.id)).toBe(1);
    expect(await stockOf(cabinet)).toBe(3);
    expect(await cartLines(customer)).toEqual([[cabinet, 2]]);
  });

  it("a bad signature is refused (400) and writes nothing", async () => {
    const customer = await newCustomer("hook-forged");
    const mirror = await item("mirror", 2000, 5);
    await addToCart(customer, mirror, 1);
    const paymentOrder = await createPaymentOrder(customer.user.id, SHIPPING);
    const raw = captured("pay_ForgedHook0001", paymentOrder.id, paymentOrder.amount);
    const before = await snapshot(customer, [mirror]);

    for (const signature of [signWebhook(raw, "not-the-webhook-secret"), signWebhook(raw.replace("captured", "captured ")), "", null]) {
      expectApiError(await sendWebhook(raw, signature), 400);
    }
    // A payment signature is not a webhook signature.
    expectApiError(await sendWebhook(raw, signPayment(paymentOrder.id, "pay_ForgedHook0001")), 400);

    expect(await snapshot(customer, [mirror])).toEqual(before);
    expect(await countOrders(customer.user.id)).toBe(0);
    expect(await paymentOrderRow(paymentOrder.id)).toMatchObject({ status: "created", paymentId: null });
  });

  it("a captured amount that differs from the payment order places nothing and marks it failed", async () => {
    const customer = await newCustomer("hook-amount");
    const rug = await item("rug", 3000, 5);
    await addToCart(customer, rug, 1);
    const paymentOrder = await createPaymentOrder(customer.user.id, SHIPPING);
    const before = await snapshot(customer, [rug]);

    const answer = await sendWebhook(captured("pay_ShortPayment01", paymentOrder.id, paymentOrder.amount - 100));
    expect(answer.status).toBe(200);
    expect(asRecord(answer.body).received).toBe(true);
    expect(asRecord(answer.body).orderId).toBeUndefined();

    expect(await snapshot(customer, [rug])).toEqual(before);
    expect(await countOrders(customer.user.id)).toBe(0);
    const row = await paymentOrderRow(paymentOrder.id);
    expect(row.status).toBe("failed");
    expect(row.failure).toBeTruthy();
  });

  it("a webhook for a payment order without shipping details records the payment; the browser then places the order", async () => {
    const customer = await newCustomer("hook-noship");
    const tray = await item("tray", 700, 5);
    await addToCart(customer, tray, 1);
    const { id, amount, proof } = await payForCart(customer);

    const answer = await sendWebhook(captured(proof.razorpay_payment_id, id, amount));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ received: true });
    expect(await countOrders(customer.user.id)).toBe(0);
    expect(await paymentOrderRow(id)).toMatchObject({ status: "paid", paymentId: proof.razorpay_payment_id });

    const placed = await placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...proof }));
    expect(placed.status).toBe(201);
    expect(await countOrders(customer.user.id)).toBe(1);
  });

  it("the webhook and the browser placing the same payment at once make one order", async () => {
    const customer = await newCustomer("hook-race");
    const clock = await item("clock", 2500, 5);
    await addToCart(customer, clock, 1);
    const paymentOrder = await createPaymentOrder(customer.user.id, SHIPPING);
    // A payment as the offline test gateway makes it (`pay_TEST…`): with no Razorpay keys, no other is captured.
    const paymentId = "pay_TESTRaceBrows1";
    const proof = {
      razorpay_order_id: paymentOrder.id,
      razorpay_payment_id: paymentId,
      razorpay_signature: signPayment(paymentOrder.id, paymentId),
    };

    const [hook, browser] = await Promise.all([
      sendWebhook(captured(paymentId, paymentOrder.id, paymentOrder.amount)),
      placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...proof })),
    ]);
    expect(hook.status).toBe(200);
    expect([201, 409]).toContain(browser.status);
    expect(await countOrders(customer.user.id)).toBe(1);
    const order = await db.selectFrom("orders").select("id").where("userId", "=", customer.user.id).executeTakeFirstOrThrow();
    expect(asRecord(hook.body).orderId).toBe(order.id);
    if (browser.status === 201) expect(asOrder(browser).id).toBe(order.id);
    else expect(expectApiError(browser, 409).message).toContain(`#${order.id}`);
    expect(await stockOf(clock)).toBe(4);
  });
});
