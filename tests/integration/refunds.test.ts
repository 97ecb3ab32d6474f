// Refunds (ADR 0024): every path that owes money back — a customer's or the
// staff's cancellation of an online order, a payment that could not become an order, a second
// payment of a paid payment order, partial refunds (returns) — refunds exactly once under retries,
// concurrent sends and duplicate webhooks; never more than the payment took; Razorpay's Refunds API
// called against a local stand-in server (amount in paise, the X-Refund-Idempotency header, the same
// key after a network failure); refund.* webhooks (forged: 400, nothing written; replayed: no
// change); the staff's queue. Runs on SQLite and on PostgreSQL (scripts/test-pg.sh).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ready } from "~/lib/boot.server";
import { db, toCount } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { AppError } from "~/lib/errors.server";
import { settleMail } from "~/lib/mail.server";
import { offlinePayment, signWebhook } from "~/lib/payments.server";
import { refundUnplacedPayment } from "~/models/payments/unplaced.server";
import { changeOrderStatus } from "~/models/orders/status.server";
import { paymentsNeedingAction } from "~/models/refunds/admin.server";
import { sweepRefunds } from "~/models/refunds/sweep.server";
import { queueRefund } from "~/models/refunds/queue.server";
import { refundsForOrder, refundsForPaymentOrder } from "~/models/refunds/read.server";
import { sendRefund } from "~/models/refunds/send.server";
import * as adminRefunds from "~/routes/admin.refunds";
import * as login from "~/routes/login";
import * as payPage from "~/routes/pay.$paymentOrderId";
import * as changeStatus from "~/routes/api.orders_.changeStatus";
import * as orderGet from "~/routes/api.orders_.$id";
import * as createOrder from "~/routes/rzp.create-order";
import * as verifyRoute from "~/routes/rzp.verify-payment";
import * as webhook from "~/routes/rzp.webhook";
import { grantAdmin } from "~/web/sign-in.server";
import * as m0014 from "../../migrations/2026-11-25-0014-refunds";
import { mailsTo } from "../support/outbox";
import { formRequest, getRequest, jsonRequest, mergeCookies, ORIGIN } from "../support/requests";
import { asRecord, call, cookieJar, expectApiError } from "../support/route-calls";
import type { Customer } from "../support/orders";
import { addToCart, checkoutFields, itemMaker, newCustomer, PASSWORD, placeViaApi, setStock } from "../support/orders";
import { BUILTIN_OWNER, SYSTEM_ACTOR } from "~/models/staff/staff.server";

// The real Razorpay SDK, pointed at the stand-in server below (it has no base-URL option).
const stand = vi.hoisted(() => ({ url: "http://127.0.0.1:9" }));
vi.mock("razorpay", async (importOriginal) => (await import("../support/razorpay-stand")).pointedAt(await importOriginal(), stand));

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}
type Behaviour = "drop" | { status: number; body: unknown };

/** Razorpay's API, as far as refunds go: records each request and answers the next scripted behaviour. */
const seen: Seen[] = [];
const script: Behaviour[] = [];
let server: http.Server;

beforeAll(async () => {
  await ready;
  server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString()));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: raw ? (JSON.parse(raw) as unknown) : null });
      const next = script.shift() ?? { status: 500, body: { error: { description: "no script" } } };
      if (next === "drop") {
        req.socket.destroy();
        return;
      }
      res.writeHead(next.status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(next.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  stand.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
  env.RAZORPAY_KEY_ID = undefined;
  env.RAZORPAY_KEY_SECRET = undefined;
  seen.length = 0;
  script.length = 0;
});

const item = itemMaker("refund");

interface Proof {
  razorpay_order_id: string;
  razorpay_payment_id: string;
  razorpay_signature: string;
}

function proofFor(id: string): Proof {
  const paid = offlinePayment(id);
  return { razorpay_order_id: id, razorpay_payment_id: paid.paymentId, razorpay_signature: paid.signature };
}

async function paymentOrderFor(customer: Customer): Promise<string> {
  const created = await call(createOrder.action, jsonRequest("POST", "/rzp/create-order", {}, customer.auth));
  expect(created.status).toBe(200);
  return (asRecord(created.body) as { id: string }).id;
}

/** An online order paid on the test gateway: its id, total and payment. */
async function paidOrder(
  customer: Customer,
  price = 4000,
): Promise<{ orderId: number; total: number; paymentOrderId: string; proof: Proof }> {
  await addToCart(customer, await item("piece", price, 5), 1);
  const paymentOrderId = await paymentOrderFor(customer);
  const proof = proofFor(paymentOrderId);
  const placed = await placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...proof }));
  expect(placed.status).toBe(201);
  const order = asRecord(placed.body) as { id: number; total: number };
  return { orderId: order.id, total: order.total, paymentOrderId, proof };
}

function refundRows(filter: { orderId?: number; paymentOrderId?: string }) {
  let query = db.selectFrom("refunds").selectAll().orderBy("id");
  if (filter.orderId !== undefined) query = query.where("orderId", "=", filter.orderId);
  if (filter.paymentOrderId !== undefined) query = query.where("paymentOrderId", "=", filter.paymentOrderId);
  return query.execute();
}

function auditOf(refundId: number) {
  return db
    .selectFrom("auditLog")
    .select(["action", "summary"])
    .where("entity", "=", "refund")
    .where("entityId", "=", String(refundId))
    .orderBy("id")
    .execute();
}

async function countRows(table: "refunds" | "auditLog"): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirstOrThrow();
  return toCount(row.n);
}

function cancelViaApi(customer: Customer, orderId: number) {
  return call(changeStatus.action, jsonRequest("PUT", "/api/orders/changeStatus", { orderId, status: "cancelled" }, customer.auth));
}

function refundEvent(event: string, refund: { id: string; payment_id: string; status: string; notes?: Record<string, string> }) {
  return JSON.stringify({ event, payload: { refund: { entity: { entity: "refund", amount: 100, ...refund } } } });
}

function sendWebhook(raw: string, signature: string | null = signWebhook(raw)) {
  const headers: Record<string, string> = { Host: "localhost:3000", "Content-Type": "application/json" };
  if (signature !== null) headers["X-Razorpay-Signature"] = signature;
  return call(webhook.action, new Request(`${ORIGIN}/rzp/webhook`, { method: "POST", headers, body: raw }));
}

async function refundMails(customer: Customer) {
  await settleMail();
  return (await mailsTo(customer.email)).filter((m) => /refund of/i.test(m.subject));
}

describe("a cancelled online order is refunded once", () => {
  it("by the customer: processed on the test gateway, audited, mailed; a retry, parallel sends, repeated webhooks: no-ops", async () => {
    const customer = await newCustomer("rf-cancel");
    const { orderId, total, paymentOrderId, proof } = await paidOrder(customer, 5200);

    expect((await cancelViaApi(customer, orderId)).status).toBe(200);
    const [refund, ...more] = await refundRows({ orderId });
    expect(more).toEqual([]);
    expect(refund).toMatchObject({
      paymentOrderId,
      paymentId: proof.razorpay_payment_id,
      amount: total,
      reason: "cancelled",
      idempotencyKey: `cancel:${orderId}`,
      status: "processed",
      failureReason: null,
      attempts: 1,
      actor: "customer",
      actorUserId: customer.user.id,
      sendingUntil: null,
    });
    expect(refund!.gatewayRefundId).toMatch(/^rfnd_TEST[A-Za-z0-9]{10}$/);
    expect(refund!.processedAt).not.toBeNull();
    const audit = await auditOf(refund!.id);
    expect(audit.map((a) => a.action)).toEqual(["create", "status"]);
    expect(audit[0]!.summary).toContain(`queued for order #${orderId}`);
    expect(audit[0]!.summary).toContain(`by the customer (user #${customer.user.id})`);
    expect(audit[1]!.summary).toContain("processed");
    const mails = await refundMails(customer);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(`order #${orderId}`);

    // The customer sees it with the order (the API's Order.refunds).
    const seenByApi = asRecord(
      (await call(orderGet.loader, getRequest(`/api/orders/${orderId}`, customer.auth), { id: String(orderId) })).body,
    );
    expect(seenByApi.refunds).toEqual([
      {
        id: refund!.id,
        amount: total,
        reason: "cancelled",
        status: "processed",
        createdAt: refund!.createdAt,
        processedAt: refund!.processedAt,
      },
    ]);

    // A retried cancel is refused; sends at once, again; the gateway's webhooks, twice: nothing changes.
    expectApiError(await cancelViaApi(customer, orderId), 409);
    await Promise.all([sendRefund(refund!.id), sendRefund(refund!.id), sendRefund(refund!.id)]);
    const processed = refundEvent("refund.processed", {
      id: refund!.gatewayRefundId!,
      payment_id: proof.razorpay_payment_id,
      status: "processed",
    });
    expect((await sendWebhook(processed)).status).toBe(200);
    expect((await sendWebhook(processed)).status).toBe(200);
    const failed = refundEvent("refund.failed", { id: refund!.gatewayRefundId!, payment_id: proof.razorpay_payment_id, status: "failed" });
    expect((await sendWebhook(failed)).status).toBe(200);
    expect(await refundRows({ orderId })).toEqual([refund]);
    expect(await auditOf(refund!.id)).toEqual(audit);
    expect(await refundMails(customer)).toHaveLength(1);
  });

  it("by the staff, processing or shipped, once; a second cancel is refused; a customer's cancel racing the staff's: once", async () => {
    const customer = await newCustomer("rf-staff");
    const first = await paidOrder(customer, 3100);
    const staff = { actor: "admin" as const, userId: null, staff: BUILTIN_OWNER };
    await changeOrderStatus(first.orderId, "cancelled", staff);
    await expect(changeOrderStatus(first.orderId, "cancelled", staff)).rejects.toMatchObject({ status: 409 });
    const rows = await refundRows({ orderId: first.orderId });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amount: first.total, status: "processed", actor: "admin", actorUserId: null });
    expect((await auditOf(rows[0]!.id))[0]!.summary).toContain("by the staff");

    const shipped = await paidOrder(customer, 2700);
    await changeOrderStatus(shipped.orderId, "shipped", { ...staff, shipUnpaid: true });
    await changeOrderStatus(shipped.orderId, "cancelled", staff);
    expect(await refundRows({ orderId: shipped.orderId })).toMatchObject([
      { amount: shipped.total, reason: "cancelled", status: "processed" },
    ]);

    const raced = await paidOrder(customer, 1900);
    const [byCustomer, byStaff] = await Promise.allSettled([
      cancelViaApi(customer, raced.orderId),
      changeOrderStatus(raced.orderId, "cancelled", staff),
    ]);
    const customerWon = byCustomer.status === "fulfilled" && byCustomer.value.status === 200;
    const staffWon = byStaff.status === "fulfilled";
    expect([customerWon, staffWon].filter(Boolean)).toHaveLength(1);
    expect(await refundRows({ orderId: raced.orderId })).toMatchObject([{ amount: raced.total, status: "processed" }]);
    await settleMail();
  });

  it("cash on delivery has nothing to refund", async () => {
    const customer = await newCustomer("rf-cod");
    await addToCart(customer, await item("cod-stool", 1500, 3), 1);
    const placed = await placeViaApi(customer, checkoutFields({ paymentMethod: "cod" }));
    const orderId = (asRecord(placed.body) as { id: number }).id;
    expect((await cancelViaApi(customer, orderId)).status).toBe(200);
    expect(await refundRows({ orderId })).toEqual([]);
    await settleMail();
  });
});

describe("a payment that never became an order is refunded once", () => {
  it("stock gone after paying: the payment order fails, its refund is processed; a retry and the webhook add nothing", async () => {
    const customer = await newCustomer("rf-unplaced");
    const bench = await item("unplaced-bench", 6100, 2);
    await addToCart(customer, bench, 1);
    const paymentOrderId = await paymentOrderFor(customer);
    const proof = proofFor(paymentOrderId);
    // The hold expired, and the stock went meanwhile.
    await db
      .updateTable("stockReservations")
      .set({ expiresAt: new Date(Date.now() - 60_000).toISOString() })
      .where("paymentOrderId", "=", paymentOrderId)
      .execute();
    await setStock(bench, 0);

    const refused = expectApiError(await placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...proof })), 409);
    expect(refused.message).toMatch(/It will be refunded\.$/);
    const rows = await refundRows({ paymentOrderId });
    expect(rows).toHaveLength(1);
    const paymentOrder = await db
      .selectFrom("paymentOrders")
      .select("amountPaise")
      .where("id", "=", paymentOrderId)
      .executeTakeFirstOrThrow();
    expect(rows[0]).toMatchObject({
      orderId: null,
      paymentId: proof.razorpay_payment_id,
      amount: paymentOrder.amountPaise / 100,
      reason: "unplaced",
      idempotencyKey: `unplaced:${paymentOrderId}`,
      status: "processed",
      actor: "system",
    });

    expectApiError(await placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...proof })), 409);
    const captured = JSON.stringify({
      event: "payment.captured",
      payload: {
        payment: {
          entity: { id: proof.razorpay_payment_id, order_id: paymentOrderId, amount: paymentOrder.amountPaise, status: "captured" },
        },
      },
    });
    expect((await sendWebhook(captured)).status).toBe(200);
    expect((await sendWebhook(captured)).status).toBe(200);
    expect(await refundRows({ paymentOrderId })).toEqual(rows);
    expect(await refundsForPaymentOrder(paymentOrderId)).toHaveLength(1);
    // The payment page says so, with the refund's state.
    const signedIn = await call(login.action, formRequest("/login", { email: customer.email, password: PASSWORD }));
    const pay = await call(payPage.loader, getRequest(`/pay/${paymentOrderId}`, { Cookie: cookieJar(signedIn) }), { paymentOrderId });
    expect(asRecord(pay.body).refunds).toEqual([expect.objectContaining({ id: rows[0]!.id, status: "processed", reason: "unplaced" })]);
    // Nothing is left for the staff: it is not a payment needing action.
    expect((await paymentsNeedingAction()).rows.map((p) => p.paymentOrderId)).not.toContain(paymentOrderId);
    expect(await refundMails(customer)).toHaveLength(1);
  });

  it("paid twice: a second verified payment of a paid payment order is refunded whole, once, on its order", async () => {
    const customer = await newCustomer("rf-twice");
    const { orderId, total, paymentOrderId, proof } = await paidOrder(customer, 2300);
    const second = proofFor(paymentOrderId);

    const verify = () => call(verifyRoute.action, jsonRequest("POST", "/rzp/verify-payment", second, customer.auth));
    expectApiError(await verify(), 409);
    expectApiError(await verify(), 409);
    const captured = JSON.stringify({
      event: "payment.captured",
      payload: {
        payment: { entity: { id: second.razorpay_payment_id, order_id: paymentOrderId, amount: total * 100, status: "captured" } },
      },
    });
    expect((await sendWebhook(captured)).status).toBe(200);

    const rows = await refundRows({ paymentOrderId });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      orderId,
      paymentId: second.razorpay_payment_id,
      amount: total,
      reason: "unplaced",
      idempotencyKey: `twice:${second.razorpay_payment_id}`,
      status: "processed",
    });
    // The order's own payment is untouched: cancelling it still refunds all of it.
    expect((await cancelViaApi(customer, orderId)).status).toBe(200);
    expect((await refundRows({ orderId })).map((r) => [r.paymentId, r.amount])).toEqual([
      [second.razorpay_payment_id, total],
      [proof.razorpay_payment_id, total],
    ]);
    await settleMail();
  });
});

describe("partial refunds", () => {
  it("add up to what the payment took; past it a 400 and nothing written; the same key twice is one refund", async () => {
    const customer = await newCustomer("rf-partial");
    const { orderId, total, paymentOrderId } = await paidOrder(customer, 9000);
    const base = { paymentOrderId, orderId, reason: "returned", actor: "admin", staff: BUILTIN_OWNER } as const;
    const third = Math.floor(total / 3);
    const queue = (amount: number, key: string) => db.transaction().execute((trx) => queueRefund(trx, { ...base, amount, key }));

    const a = await queue(third, "return:9001");
    expect(a.created).toBe(true);
    expect(await queue(third, "return:9001")).toEqual({ id: a.id, created: false });
    const b = await queue(total - third, "return:9002");
    expect(b.created).toBe(true);

    const before = { refunds: await countRows("refunds"), audit: await countRows("auditLog") };
    for (const [amount, key] of [
      [1, "return:9003"],
      [0, "return:9004"],
      [2.5, "return:9005"],
    ] as const) {
      const error = await queue(amount, key).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(400);
    }
    expect(await queue(1, "return:9003").catch((e: AppError) => e.message)).toBe(
      "A refund of ₹1 is more than what is left to refund of this payment (₹0).",
    );
    expect({ refunds: await countRows("refunds"), audit: await countRows("auditLog") }).toEqual(before);

    await Promise.all([sendRefund(a.id), sendRefund(b.id)]);
    expect((await refundsForOrder(orderId)).map((r) => [r.amount, r.status])).toEqual([
      [third, "processed"],
      [total - third, "processed"],
    ]);
    // Everything refunded already: the cancellation refunds nothing more.
    expect((await cancelViaApi(customer, orderId)).status).toBe(200);
    expect(await refundsForOrder(orderId)).toHaveLength(2);
    await settleMail();
  });
});

/** A paid payment whose order was refused (the cart changed), in Razorpay mode: a real payment id. */
async function refusedRazorpayPayment(customer: Customer, rupees: number): Promise<{ id: string; paymentId: string }> {
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`.replace(/[^A-Za-z0-9]/g, "").slice(0, 14);
  const id = `order_Rzp${suffix}`;
  const paymentId = `pay_Rzp${suffix}`;
  const now = new Date(Date.now() - 60_000).toISOString();
  await db
    .insertInto("paymentOrders")
    .values({
      id,
      userId: customer.user.id,
      amountPaise: rupees * 100,
      currency: "INR",
      status: "paid",
      paymentId,
      checkout: null,
      failure: "Your cart changed",
      createdAt: now,
      updatedAt: now,
    })
    .execute();
  return { id, paymentId };
}

function useRazorpay() {
  env.RAZORPAY_KEY_ID = "rzp_test_refunds";
  env.RAZORPAY_KEY_SECRET = "refunds-secret";
}

describe("Razorpay's Refunds API (a local stand-in server)", () => {
  it("paise, the idempotency header; a network failure leaves it pending, the resend has the same key; webhooks settle it", async () => {
    useRazorpay();
    const customer = await newCustomer("rf-rzp");
    const payment = await refusedRazorpayPayment(customer, 2450);
    script.push("drop");

    const refundId = await refundUnplacedPayment(payment.id, BUILTIN_OWNER);
    let [row] = await refundRows({ paymentOrderId: payment.id });
    expect(row).toMatchObject({ id: refundId, status: "pending", attempts: 1, gatewayRefundId: null, sendingUntil: null, actor: "admin" });
    expect(row!.failureReason).toMatch(/could not be reached/);
    expect(await db.selectFrom("paymentOrders").select("status").where("id", "=", payment.id).executeTakeFirstOrThrow()).toEqual({
      status: "failed",
    });

    // The sweep sends it again a minute later: Razorpay answers the refund, pending at the bank.
    script.push({
      status: 200,
      body: { id: "rfnd_Stub00000001", entity: "refund", amount: 245000, payment_id: payment.paymentId, status: "pending" },
    });
    expect(await sweepRefunds(db, new Date(Date.now() + 2 * 60_000))).toMatchObject({ sent: 1 });
    [row] = await refundRows({ paymentOrderId: payment.id });
    expect(row).toMatchObject({ status: "pending", attempts: 2, gatewayRefundId: "rfnd_Stub00000001", failureReason: null });
    // At the bank now: its state comes from the webhooks; neither the sweep nor a send calls Razorpay again.
    expect(await sweepRefunds(db, new Date(Date.now() + 10 * 60_000))).toMatchObject({ sent: 0 });
    await sendRefund(refundId);
    expect(await refundRows({ paymentOrderId: payment.id })).toEqual([row]);

    expect(seen).toHaveLength(2);
    const key = `sagwan-unplaced_${payment.id}`;
    for (const request of seen) {
      expect(request.method).toBe("POST");
      expect(request.url).toBe(`/v1/payments/${payment.paymentId}/refund`);
      expect(request.headers["x-refund-idempotency"]).toBe(key);
      expect(request.headers.authorization).toBe(`Basic ${Buffer.from("rzp_test_refunds:refunds-secret").toString("base64")}`);
      expect(request.body).toEqual({
        amount: 245000,
        speed: "normal",
        notes: { shop_refund_id: String(refundId), shop_refund_key: key },
        receipt: `refund-${refundId}`,
      });
    }

    // A forged webhook writes nothing; the signed one settles it; a replay and a late failure change nothing.
    const processed = refundEvent("refund.processed", { id: "rfnd_Stub00000001", payment_id: payment.paymentId, status: "processed" });
    const before = { refunds: await refundRows({ paymentOrderId: payment.id }), audit: await countRows("auditLog") };
    expectApiError(await sendWebhook(processed, signWebhook(processed, "not-the-secret")), 400);
    expectApiError(await sendWebhook(processed, null), 400);
    expect({ refunds: await refundRows({ paymentOrderId: payment.id }), audit: await countRows("auditLog") }).toEqual(before);

    expect((await sendWebhook(processed)).status).toBe(200);
    [row] = await refundRows({ paymentOrderId: payment.id });
    expect(row).toMatchObject({ status: "processed" });
    expect(row!.processedAt).not.toBeNull();
    expect((await sendWebhook(processed)).status).toBe(200);
    expect(
      (await sendWebhook(refundEvent("refund.failed", { id: "rfnd_Stub00000001", payment_id: payment.paymentId, status: "failed" })))
        .status,
    ).toBe(200);
    expect(await refundRows({ paymentOrderId: payment.id })).toEqual([row]);
    expect(await refundMails(customer)).toHaveLength(1);
    expect(seen).toHaveLength(2);
  });

  it("answer lost: the webhook finds it by the key in its notes; refund.failed fails it; the staff's retry sends a new key", async () => {
    useRazorpay();
    const customer = await newCustomer("rf-rzp-fail");
    const payment = await refusedRazorpayPayment(customer, 1800);
    script.push("drop");
    const refundId = await refundUnplacedPayment(payment.id, SYSTEM_ACTOR);
    const key = `sagwan-unplaced_${payment.id}`;

    const failed = refundEvent("refund.failed", {
      id: "rfnd_Stub00000002",
      payment_id: payment.paymentId,
      status: "failed",
      notes: { shop_refund_key: key },
    });
    expect((await sendWebhook(failed)).status).toBe(200);
    let [row] = await refundRows({ paymentOrderId: payment.id });
    expect(row).toMatchObject({
      status: "failed",
      gatewayRefundId: "rfnd_Stub00000002",
      failureReason: "Razorpay reported the refund failed",
    });
    expect((await paymentsNeedingAction()).rows.map((p) => p.paymentOrderId)).not.toContain(payment.id);

    // The staff's queue lists it; 'Retry refund' sends it again under a new key, which Razorpay refuses this time.
    const adminCookie = mergeCookies([await grantAdmin(getRequest("/"))]);
    const page = asRecord((await call(adminRefunds.loader, getRequest("/admin/refunds?status=failed", { Cookie: adminCookie }))).body);
    expect((page.list as { rows: { id: number }[] }).rows.map((r) => r.id)).toContain(refundId);
    script.push({
      status: 400,
      body: { error: { code: "BAD_REQUEST_ERROR", description: "The refund amount provided is greater than amount captured" } },
    });
    const retried = await call(
      adminRefunds.action,
      formRequest("/admin/refunds", { intent: "retry", refundId: String(refundId), status: "failed" }, { Cookie: adminCookie }),
    );
    expect(retried.status).toBe(302);
    expect(retried.headers.get("Location")).toBe("/admin/refunds?status=failed");
    expect(seen.at(-1)!.headers["x-refund-idempotency"]).toMatch(new RegExp(`^${key}-r\\d+$`));
    [row] = await refundRows({ paymentOrderId: payment.id });
    expect(row).toMatchObject({
      status: "failed",
      gatewayRefundId: null,
      failureReason: "The refund amount provided is greater than amount captured",
    });

    // Retried again, Razorpay processes it at once.
    script.push({ status: 200, body: { id: "rfnd_Stub00000003", entity: "refund", payment_id: payment.paymentId, status: "processed" } });
    await call(
      adminRefunds.action,
      formRequest("/admin/refunds", { intent: "retry", refundId: String(refundId) }, { Cookie: adminCookie }),
    );
    [row] = await refundRows({ paymentOrderId: payment.id });
    expect(row).toMatchObject({ status: "processed", gatewayRefundId: "rfnd_Stub00000003" });
    const actions = (await auditOf(refundId)).map((a) => a.summary);
    expect(actions.filter((s) => s.includes("retried by the staff"))).toHaveLength(2);
    // A processed refund cannot be retried.
    const again = await call(
      adminRefunds.action,
      formRequest("/admin/refunds", { intent: "retry", refundId: String(refundId) }, { Cookie: adminCookie }),
    );
    expect(again.status).toBe(409);
    await settleMail();
  });
});

describe("the staff's refund queue (/admin/refunds)", () => {
  it("lists a paid payment whose order was refused, and 'Refund now' refunds it once; others are refused", async () => {
    const customer = await newCustomer("rf-queue");
    await addToCart(customer, await item("queue-lamp", 2100, 4), 1);
    const paymentOrderId = await paymentOrderFor(customer);
    const proof = proofFor(paymentOrderId);
    // The cart changed after paying: the order is refused, the payment recorded (the customer may still place it).
    await addToCart(customer, await item("queue-extra", 900, 4), 1);
    expectApiError(await placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...proof })), 409);

    const adminCookie = mergeCookies([await grantAdmin(getRequest("/"))]);
    const view = async () => asRecord((await call(adminRefunds.loader, getRequest("/admin/refunds", { Cookie: adminCookie }))).body);
    const needing = (await view()).list as { needing: { rows: { paymentOrderId: string; status: string }[] } };
    expect(needing.needing.rows).toContainEqual(expect.objectContaining({ paymentOrderId, status: "paid" }));

    const post = (fields: Record<string, string>, cookie = adminCookie) =>
      call(adminRefunds.action, formRequest("/admin/refunds", fields, { Cookie: cookie }));
    const refunded = await post({ intent: "refund-payment", paymentOrderId });
    expect(refunded.status).toBe(302);
    const rows = await refundRows({ paymentOrderId });
    expect(rows).toMatchObject([{ reason: "unplaced", status: "processed", actor: "admin", idempotencyKey: `unplaced:${paymentOrderId}` }]);
    expect((await auditOf(rows[0]!.id))[0]!.summary).toContain("by the staff");
    expect(((await view()).list as typeof needing).needing.rows.map((r) => r.paymentOrderId)).not.toContain(paymentOrderId);
    // The customer can no longer place it; a second 'Refund now' is refused.
    expectApiError(await placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...proof })), 409);
    expect((await post({ intent: "refund-payment", paymentOrderId })).status).toBe(409);
    expect(await refundRows({ paymentOrderId })).toHaveLength(1);

    // Bad input: an unknown intent, a bad id; without Admin Access: 403, nothing written.
    expect((await post({ intent: "refund-everything" })).status).toBe(400);
    expect((await post({ intent: "retry", refundId: "abc" })).status).toBe(400);
    const stranger = await post({ intent: "refund-payment", paymentOrderId }, "").catch((e: unknown) => e);
    expect(stranger instanceof Response ? stranger.status : (stranger as { status: number }).status).toBe(403);
    expect((await call(adminRefunds.loader, getRequest("/admin/refunds"))).status).toBe(302);
    await settleMail();
  });

  it("refunds a refused payment by itself after REFUSED_PAYMENT_HOURS", async () => {
    const customer = await newCustomer("rf-sweep");
    const payment = await refusedRazorpayPayment(customer, 1200);
    // Not yet a day old: left for the customer.
    expect((await sweepRefunds(db, new Date())).refunded).toBe(0);
    // Not a test payment and no keys: the refund is refused at once, and shown as failed for the staff.
    expect((await sweepRefunds(db, new Date(Date.now() + 25 * 60 * 60 * 1000))).refunded).toBeGreaterThanOrEqual(1);
    expect(await refundRows({ paymentOrderId: payment.id })).toMatchObject([{ status: "failed", actor: "system", reason: "unplaced" }]);
  });
});

describe("migration 2026-11-25-0014-refunds", () => {
  it("down drops the table; up makes it again, empty and working", async () => {
    const raw = db.withoutPlugins() as unknown as Parameters<typeof m0014.up>[0];
    await m0014.down(raw);
    await expect(db.selectFrom("refunds").select("id").execute()).rejects.toThrow();
    await m0014.up(raw);
    expect(await db.selectFrom("refunds").select("id").execute()).toEqual([]);
    const customer = await newCustomer("rf-migration");
    const { orderId } = await paidOrder(customer, 1500);
    expect((await cancelViaApi(customer, orderId)).status).toBe(200);
    expect(await refundRows({ orderId })).toMatchObject([{ status: "processed" }]);
    await settleMail();
  });
});
