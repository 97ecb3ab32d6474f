// A checkout signature proves that a payment was authorised, not captured: with Razorpay keys set,
// the shop reads the payment from Razorpay's Payments API (a local stand-in server here) before it
// records it or places an order for it. Captured: ordered. Only authorised: the shop captures it
// (the order's amount, INR) and then orders. Authorised but the capture refused, failed, or of
// another amount or order: refused with a clear 409, nothing recorded, nothing ordered.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { GATEWAY_UNAVAILABLE, signPayment } from "~/lib/payments.server";
import { NOT_CAPTURED } from "~/models/payments/verify.server";
import * as createOrder from "~/routes/rzp.create-order";
import * as verifyRoute from "~/routes/rzp.verify-payment";
import { jsonRequest } from "../support/requests";
import { asRecord, call, expectApiError } from "../support/route-calls";
import type { Customer } from "../support/orders";
import { addToCart, checkoutFields, countOrders, itemMaker, newCustomer, placeViaApi } from "../support/orders";

// The real Razorpay SDK, pointed at the stand-in server below (it has no base-URL option).
const stand = vi.hoisted(() => ({ url: "http://127.0.0.1:9" }));
vi.mock("razorpay", async (importOriginal) => (await import("../support/razorpay-stand")).pointedAt(await importOriginal(), stand));

interface StandPayment {
  id: string;
  order_id: string;
  amount: number;
  currency: string;
  status: "created" | "authorized" | "captured" | "failed";
  /** what a capture call gets: the payment captured, or Razorpay's 400 */
  capturable: boolean;
}

/** Razorpay's Orders and Payments APIs, as far as paying goes. */
const payments = new Map<string, StandPayment>();
const captures: { id: string; body: unknown }[] = [];
let orderCount = 0;
let server: http.Server;

function answer(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

beforeAll(async () => {
  await ready;
  server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString()));
    req.on("end", () => {
      const url = (req.url ?? "").replace(/^\/v1/, "");
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      if (req.method === "POST" && url === "/orders") {
        return answer(res, 200, { id: `order_Capture${String(++orderCount).padStart(6, "0")}`, amount: body.amount, currency: "INR" });
      }
      const match = /^\/payments\/([A-Za-z0-9_]+)(\/capture)?$/.exec(url);
      const payment = match ? payments.get(match[1]) : undefined;
      if (!match || !payment) return answer(res, 404, { error: { description: "The id provided does not exist" } });
      if (req.method === "GET" && !match[2]) return answer(res, 200, payment);
      if (req.method === "POST" && match[2]) {
        captures.push({ id: payment.id, body });
        if (!payment.capturable || payment.status !== "authorized") {
          return answer(res, 400, { error: { description: "This payment could not be captured" } });
        }
        payment.status = "captured";
        return answer(res, 200, payment);
      }
      answer(res, 405, {});
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  stand.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  env.RAZORPAY_KEY_ID = "rzp_test_capture";
  env.RAZORPAY_KEY_SECRET = "capture-secret";
});

afterAll(async () => {
  env.RAZORPAY_KEY_ID = undefined;
  env.RAZORPAY_KEY_SECRET = undefined;
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
  captures.length = 0;
});

const item = itemMaker("capture");

/** A customer whose cart holds one piece, a Razorpay order for it, and a payment of it at the stand-in. */
async function paying(tag: string, payment: Partial<StandPayment>) {
  const customer: Customer = await newCustomer(tag);
  await addToCart(customer, await item(tag, 5000, 3), 1);
  const created = await call(createOrder.action, jsonRequest("POST", "/rzp/create-order", {}, customer.auth));
  expect(created.status).toBe(200);
  const { id, amount } = asRecord(created.body) as { id: string; amount: number };
  const paymentId = `pay_Stand${tag.replace(/[^A-Za-z0-9]/g, "").slice(0, 8)}${orderCount}`;
  payments.set(paymentId, { id: paymentId, order_id: id, amount, currency: "INR", status: "captured", capturable: true, ...payment });
  const proof = { razorpay_order_id: id, razorpay_payment_id: paymentId, razorpay_signature: signPayment(id, paymentId) };
  return { customer, proof, amount, paymentOrderId: id };
}

async function paymentOrderRow(id: string) {
  return db.selectFrom("paymentOrders").select(["status", "paymentId", "orderId"]).where("id", "=", id).executeTakeFirstOrThrow();
}

describe("capture before an order, with Razorpay keys set", () => {
  it("orders a captured payment without capturing it again", async () => {
    const { customer, proof, paymentOrderId } = await paying("captured", { status: "captured" });
    const placed = await placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...proof }));
    expect(placed.status).toBe(201);
    expect(captures).toEqual([]);
    expect(await paymentOrderRow(paymentOrderId)).toMatchObject({ status: "paid", paymentId: proof.razorpay_payment_id });
  });

  it("captures an authorised payment for the order's amount in INR, then records it and orders", async () => {
    const { customer, proof, amount, paymentOrderId } = await paying("authorised", { status: "authorized" });
    const verified = await call(verifyRoute.action, jsonRequest("POST", "/rzp/verify-payment", proof, customer.auth));
    expect(verified.status).toBe(200);
    expect(captures).toEqual([{ id: proof.razorpay_payment_id, body: { amount, currency: "INR" } }]);
    expect(payments.get(proof.razorpay_payment_id)!.status).toBe("captured");
    const placed = await placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...proof }));
    expect(placed.status).toBe(201);
    // Recorded once captured: the placement did not ask the gateway again.
    expect(captures).toHaveLength(1);
    expect((await paymentOrderRow(paymentOrderId)).orderId).toBe((asRecord(placed.body) as { id: number }).id);
  });

  it("refuses an authorised payment it cannot capture: nothing recorded, nothing ordered", async () => {
    const { customer, proof, paymentOrderId } = await paying("stuck", { status: "authorized", capturable: false });
    const before = await countOrders(customer.user.id);
    const verified = await call(verifyRoute.action, jsonRequest("POST", "/rzp/verify-payment", proof, customer.auth));
    expect(expectApiError(verified, 409).message).toBe(NOT_CAPTURED);
    const placed = await placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...proof }));
    expect(expectApiError(placed, 409).message).toBe(NOT_CAPTURED);
    expect(captures.length).toBeGreaterThan(0);
    expect(await paymentOrderRow(paymentOrderId)).toMatchObject({ status: "created", paymentId: null, orderId: null });
    expect(await countOrders(customer.user.id)).toBe(before);
  });

  it("refuses a payment of another amount, and one of another order, without capturing it", async () => {
    const { customer, proof, amount, paymentOrderId } = await paying("short", { status: "authorized" });
    payments.get(proof.razorpay_payment_id)!.amount = amount - 100;
    const placed = await placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...proof }));
    expect(expectApiError(placed, 409).message).toBe(NOT_CAPTURED);
    expect(captures).toEqual([]);
    expect(await paymentOrderRow(paymentOrderId)).toMatchObject({ status: "created", paymentId: null });

    const other = await paying("elsewhere", { status: "captured" });
    payments.get(other.proof.razorpay_payment_id)!.order_id = paymentOrderId;
    const verified = await call(verifyRoute.action, jsonRequest("POST", "/rzp/verify-payment", other.proof, other.customer.auth));
    expect(expectApiError(verified, 409).message).toBe(NOT_CAPTURED);
    expect(await paymentOrderRow(other.paymentOrderId)).toMatchObject({ status: "created", paymentId: null });
  });

  it("refuses a failed payment", async () => {
    const { customer, proof, paymentOrderId } = await paying("failed", { status: "failed" });
    const verified = await call(verifyRoute.action, jsonRequest("POST", "/rzp/verify-payment", proof, customer.auth));
    expect(expectApiError(verified, 409).message).toBe(NOT_CAPTURED);
    expect(await paymentOrderRow(paymentOrderId)).toMatchObject({ status: "created" });
  });

  it("answers 503 when the gateway cannot be reached, and records nothing", async () => {
    const { customer, proof, paymentOrderId } = await paying("offline", { status: "captured" });
    const url = stand.url;
    stand.url = "http://127.0.0.1:9";
    try {
      const verified = await call(verifyRoute.action, jsonRequest("POST", "/rzp/verify-payment", proof, customer.auth));
      expect(verified.status).toBe(503);
    } finally {
      stand.url = url;
    }
    expect(await paymentOrderRow(paymentOrderId)).toMatchObject({ status: "created" });
  });

  it("answers 503 with a clear message when Razorpay's Orders API cannot be reached", async () => {
    const customer = await newCustomer("noorders");
    await addToCart(customer, await item("noorders", 5000, 3), 1);
    const url = stand.url;
    stand.url = "http://127.0.0.1:9";
    try {
      const created = await call(createOrder.action, jsonRequest("POST", "/rzp/create-order", {}, customer.auth));
      expect(expectApiError(created, 503).message).toBe(GATEWAY_UNAVAILABLE);
    } finally {
      stand.url = url;
    }
  });
});
