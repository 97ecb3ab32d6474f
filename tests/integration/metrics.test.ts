// The metrics GET /metrics serves (app/lib/metrics.server.ts), read after driving each event they
// count, in this process: an order placed, a payment that failed, a refund pending, a stock hold,
// a rate-limit refusal, a mail that failed, a page-cache hit, database queries. The production
// server's side (who may read /metrics, the count by route) is tests/integration/observability.test.ts.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ready } from "~/lib/boot.server";
import { db, isPostgres } from "~/lib/db.server";
import { queueMail } from "~/lib/mail.server";
import { countPageCache, metricsText } from "~/lib/metrics.server";
import { drainOutbox } from "~/lib/outbox.server";
import { offlinePayment } from "~/lib/payments.server";
import { LIMITS, rateLimitUser } from "~/lib/rate-limit.server";
import { queueRefund } from "~/models/refunds/queue.server";
import { registerShopGauges } from "~/models/shop-gauges.server";
import * as createOrder from "~/routes/rzp.create-order";
import * as verifyRoute from "~/routes/rzp.verify-payment";
import { createPageCache } from "../../server/page-cache";
import { jsonRequest } from "../support/requests";
import { asRecord, call } from "../support/route-calls";
import type { Customer } from "../support/orders";
import { addToCart, checkoutFields, itemMaker, newCustomer, placeViaApi } from "../support/orders";
import { BUILTIN_OWNER } from "~/models/staff/staff.server";

beforeAll(async () => {
  await ready;
  registerShopGauges();
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** The value of one series in the metrics text; 0 when it is absent. */
async function metric(name: string, labels: Record<string, string> = {}): Promise<number> {
  const { body } = await metricsText();
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of body.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = line.slice(name.length).startsWith("{") ? line.slice(name.length + 1, line.indexOf("}")) : "";
    const have = labelText ? labelText.split(",") : [];
    if (wanted.every((w) => have.includes(w)) && have.length === wanted.length) return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return 0;
}

const item = itemMaker("metrics");

async function paymentOrderFor(customer: Customer): Promise<string> {
  const created = await call(createOrder.action, jsonRequest("POST", "/rzp/create-order", {}, customer.auth));
  expect(created.status).toBe(200);
  return (asRecord(created.body) as { id: string }).id;
}

describe("the metrics, after the events they count", () => {
  it("a stock hold, an order placed, a refund pending", async () => {
    const customer = await newCustomer("metrics-order");
    await addToCart(customer, await item("chair", 3000, 5), 1);
    const holds = await metric("shop_stock_holds_total");
    const paymentOrderId = await paymentOrderFor(customer);
    expect(await metric("shop_stock_holds_total")).toBe(holds + 1);
    expect(await metric("shop_stock_holds", { kind: "holds" })).toBeGreaterThanOrEqual(1);
    expect(await metric("shop_stock_holds", { kind: "units" })).toBeGreaterThanOrEqual(1);

    const placed = await metric("shop_orders_placed_total", { payment_method: "online" });
    const paid = offlinePayment(paymentOrderId);
    const proof = { razorpay_order_id: paymentOrderId, razorpay_payment_id: paid.paymentId, razorpay_signature: paid.signature };
    const answer = await placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...proof }));
    expect(answer.status).toBe(201);
    expect(await metric("shop_orders_placed_total", { payment_method: "online" })).toBe(placed + 1);

    const pending = await metric("shop_refunds_pending");
    const order = asRecord(answer.body) as { id: number; total: number };
    await db.transaction().execute((trx) =>
      queueRefund(trx, {
        paymentOrderId,
        orderId: order.id,
        reason: "returned",
        actor: "admin",
        staff: BUILTIN_OWNER,
        amount: order.total,
        key: "metrics:1",
      }),
    );
    expect(await metric("shop_refunds_pending")).toBe(pending + 1);
    expect(await metric("shop_refunds_oldest_pending_seconds")).toBeGreaterThanOrEqual(0);
  });

  it("a payment whose signature does not verify", async () => {
    const customer = await newCustomer("metrics-pay");
    await addToCart(customer, await item("bed", 5000, 5), 1);
    const paymentOrderId = await paymentOrderFor(customer);
    const failed = await metric("shop_payments_failed_total", { reason: "signature" });
    const proof = { razorpay_order_id: paymentOrderId, razorpay_payment_id: "pay_NotReal000001", razorpay_signature: "0".repeat(64) };
    const answer = await call(verifyRoute.action, jsonRequest("POST", "/rzp/verify-payment", proof, customer.auth));
    expect(answer.status).toBe(400);
    expect(await metric("shop_payments_failed_total", { reason: "signature" })).toBe(failed + 1);
  });

  it("a rate-limit refusal, by the limit's name", async () => {
    const customer = await newCustomer("metrics-limit");
    const refused = await metric("shop_rate_limit_refusals_total", { limit: "order-status" });
    for (let i = 0; i < LIMITS.orderStatus.max; i++) await rateLimitUser(LIMITS.orderStatus, customer.user.id);
    await expect(rateLimitUser(LIMITS.orderStatus, customer.user.id)).rejects.toMatchObject({ status: 429 });
    expect(await metric("shop_rate_limit_refusals_total", { limit: "order-status" })).toBe(refused + 1);
  });

  it("a mail that failed: the failure counted, the outbox's failed depth read from the database", async () => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const retries = await metric("shop_mail_send_failures_total", { outcome: "retry" });
    const gaveUp = await metric("shop_mail_send_failures_total", { outcome: "failed" });
    const failedRows = await metric("shop_mail_outbox_messages", { status: "failed" });
    const later = await queueMail(db, { to: "later@metrics.example.com", subject: "Later", text: "x" });
    const never = await queueMail(db, { to: "never@metrics.example.com", subject: "Never", text: "x" });
    const refusal = Object.assign(new Error("550 5.1.1 User unknown"), { responseCode: 550, command: "RCPT TO" });
    const lost = Object.assign(new Error("connection lost"), { code: "ECONNECTION" });
    await drainOutbox(db, "metrics-worker", async (row) => {
      if (row.id === never) throw refusal;
      if (row.id === later) throw lost;
    });
    expect(await metric("shop_mail_send_failures_total", { outcome: "retry" })).toBe(retries + 1);
    expect(await metric("shop_mail_send_failures_total", { outcome: "failed" })).toBe(gaveUp + 1);
    expect(await metric("shop_mail_outbox_messages", { status: "failed" })).toBe(failedRows + 1);
    expect(await metric("shop_mail_outbox_messages", { status: "pending" })).toBeGreaterThanOrEqual(1);
  });

  it("a page-cache hit and miss", async () => {
    const cache = createPageCache({ generation: () => 1, onAnswer: countPageCache });
    const render = async () =>
      new Response('<p>page</p><script nonce="AAAAAAAAAAAAAAAAAAAAAA=="></script>', {
        headers: { "Content-Type": "text/html", "Content-Security-Policy": "script-src 'nonce-AAAAAAAAAAAAAAAAAAAAAA=='" },
      });
    const hits = await metric("shop_page_cache_requests_total", { result: "hit" });
    const misses = await metric("shop_page_cache_requests_total", { result: "miss" });
    await (await cache.handle(new Request("http://localhost:3000/about"), render)).text();
    await (await cache.handle(new Request("http://localhost:3000/about"), render)).text();
    expect(await metric("shop_page_cache_requests_total", { result: "miss" })).toBe(misses + 1);
    expect(await metric("shop_page_cache_requests_total", { result: "hit" })).toBe(hits + 1);
  });

  it("database queries by operation, the pool on PostgreSQL, and Node's own process metrics", async () => {
    const selects = await metric("shop_db_query_duration_seconds_count", { operation: "select", outcome: "ok" });
    await db.selectFrom("items").select("id").limit(1).execute();
    expect(await metric("shop_db_query_duration_seconds_count", { operation: "select", outcome: "ok" })).toBeGreaterThan(selects);
    // The pg pool's connections; SQLite has no pool, and no such series.
    if (isPostgres(db)) expect(await metric("shop_db_pool_connections", { state: "total" })).toBeGreaterThanOrEqual(1);
    else expect((await metricsText()).body).not.toMatch(/^shop_db_pool_connections\{/m);
    const { body, contentType } = await metricsText();
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(body).toMatch(/^process_cpu_seconds_total /m);
    expect(body).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });
});
