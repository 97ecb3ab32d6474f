// One of two servers killed (SIGKILL) while customers shop through nginx (ADR 0020): the
// other keeps serving, and nothing is lost. Customers order in cash and pay online (the offline test
// gateway, whose key secret the operator sets on both servers: TEST_GATEWAY_SECRET, so the clients
// can sign payments as the gateway does); a request cut by the kill is retried as a client does
// after a network error (the same idempotency key, the same payment proof). Afterwards:
// - every order a client was told was placed exists, and is the customer's;
// - every one of them has exactly one confirmation mail (eventually: the outbox's worker on the
//   server left standing sends what the killed one had not, after its claim runs out);
// - every payment the gateway verified is placed or refunded;
// - requests that started after the kill were all answered (no 5xx, no broken connection).
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Answer, Customer } from "../support/cluster/client";
import { adminClient, createProduct, eventually, mailsTo, registerCustomer, SHIPPING } from "../support/cluster/client";
import { ADMIN_PASSWORD, query, clusterForFile } from "../support/cluster/setup";

const GATEWAY_SECRET = crypto.randomBytes(32).toString("hex");
const cluster = clusterForFile({ TEST_GATEWAY_SECRET: GATEWAY_SECRET });

const CUSTOMERS = 8;
const TRAFFIC_MS = 5000;
const KILL_AT_MS = 1500;
/**
 * Orders each customer places, spread over the traffic (browsing in between): within the shop's
 * 5 unpaid orders (cash or test payments) a customer may have waiting to ship.
 */
const PLACEMENTS = 4;
/** A claim of a mail by a worker that died runs out after 2 minutes (app/lib/outbox.server.ts CLAIM_MS). */
const MAIL_WAIT_MS = 150_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Sent {
  started: number;
  what: string;
  /** the status, or 0 for a connection that broke */
  status: number;
}

/** The gateway's answer for a payment order: a new payment id, signed with the test gateway's key secret. */
function gatewayPayment(paymentOrderId: string) {
  const paymentId = `pay_TEST${crypto.randomBytes(8).toString("hex").slice(0, 10)}`;
  const signature = crypto.createHmac("sha256", GATEWAY_SECRET).update(`${paymentOrderId}|${paymentId}`).digest("hex");
  return { razorpay_order_id: paymentOrderId, razorpay_payment_id: paymentId, razorpay_signature: signature };
}

describe("a server killed mid-traffic", () => {
  it("loses no order, no mail and no payment, and the other server keeps serving", { timeout: 300_000 }, async () => {
    const c = cluster();
    const shop = c.url;
    const admin = await adminClient(shop, ADMIN_PASSWORD);
    const [category] = await query<{ id: number }>(c, "select id from categories order by id limit 1");
    const title = `Kill test chair ${crypto.randomBytes(4).toString("hex")}`;
    await createProduct(admin, shop, { title, categoryId: category!.id, price: 3499, stock: 1000 });
    const [item] = await query<{ id: number }>(c, "select id from items where title = $1", [title]);
    const customers: Customer[] = [];
    for (let i = 0; i < CUSTOMERS; i += 1) customers.push(await registerCustomer(shop, shop, c.mailDir, `kill${i}`));

    const sent: Sent[] = [];
    /** order id → the customer told it was placed */
    const told = new Map<number, Customer>();
    /** payment order id → its customer, for every payment the shop verified (or placed) */
    const verified = new Map<string, { customer: Customer; proof: ReturnType<typeof gatewayPayment> }>();
    const began = Date.now();
    let killedAt = Infinity;
    let postsInFlight = 0;

    /** One request through nginx; a broken connection is status 0. */
    const send = async (customer: Customer, method: string, path: string, json?: unknown): Promise<Answer | null> => {
      const entry: Sent = { started: Date.now(), what: `${method} ${path}`, status: 0 };
      sent.push(entry);
      if (method === "POST") postsInFlight += 1;
      try {
        const answer = await customer.send(shop, method, path, json === undefined ? {} : { json });
        entry.status = answer.status;
        return answer;
      } catch {
        return null;
      } finally {
        if (method === "POST") postsInFlight -= 1;
      }
    };
    /** Retried (the same body) while the answer is lost or a 5xx, as a client does after a network error. */
    const sendUntilAnswered = async (
      customer: Customer,
      method: string,
      path: string,
      json?: unknown,
    ): Promise<Answer & { tries: number }> => {
      for (let attempt = 0; ; attempt += 1) {
        const answer = await send(customer, method, path, json);
        if (answer && answer.status < 500) return { ...answer, tries: attempt + 1 };
        if (attempt >= 10) throw new Error(`${method} ${path}: no answer after ${attempt + 1} tries`);
        await sleep(200);
      }
    };
    /**
     * The order a placement's answer tells of: 201 with it, or, for a placement retried after its
     * first answer was lost to the kill, 409 naming the order the first try placed (the same
     * idempotency key, or the same payment).
     */
    const noteOrder = (customer: Customer, answer: Answer & { tries: number }) => {
      const again = /order #(\d+)/.exec(String(answer.body?.message ?? ""));
      if (answer.status === 409 && answer.tries > 1 && again) told.set(Number(again[1]), customer);
      else {
        expect(answer.status, answer.text).toBe(201);
        told.set(answer.body.id as number, customer);
      }
    };

    const shopper = async (customer: Customer, index: number) => {
      let nextOrderAt = began + ((index * 173) % 700);
      for (let n = 0; Date.now() - began < TRAFFIC_MS;) {
        if (n >= PLACEMENTS || Date.now() < nextOrderAt) {
          // Between orders the customer looks at the cart and the orders.
          const looked = await sendUntilAnswered(customer, "GET", n % 2 === 0 ? "/api/cart/get" : "/api/orders?pageSize=5");
          expect(looked.status, looked.text).toBe(200);
          await sleep(60 + ((index * 41) % 90));
          continue;
        }
        nextOrderAt = Date.now() + TRAFFIC_MS / PLACEMENTS;
        n += 1;
        const added = await sendUntilAnswered(customer, "POST", "/api/cart/add", { itemId: item!.id, quantity: 1 + (n % 2) });
        expect(added.status, added.text).toBeLessThan(300);
        if ((index + n) % 2 === 0) {
          const key = crypto.randomBytes(12).toString("hex");
          const placed = await sendUntilAnswered(customer, "POST", "/api/orders/add", {
            ...SHIPPING,
            paymentMethod: "cod",
            idempotencyKey: key,
          });
          noteOrder(customer, placed);
        } else {
          // A payment order lost with a cut answer is simply never paid: the customer starts another.
          const created = await sendUntilAnswered(customer, "POST", "/rzp/create-order", {});
          expect(created.status, created.text).toBe(200);
          const proof = gatewayPayment(created.body.id as string);
          const checked = await sendUntilAnswered(customer, "POST", "/rzp/verify-payment", proof);
          expect(checked.status, checked.text).toBe(200);
          verified.set(proof.razorpay_order_id, { customer, proof });
          const placed = await sendUntilAnswered(customer, "POST", "/api/orders/add", { ...SHIPPING, paymentMethod: "online", ...proof });
          noteOrder(customer, placed);
        }
      }
    };
    let killStarted = Infinity;
    const killer = (async () => {
      await sleep(KILL_AT_MS);
      // At a moment when writes are under way (half of them on B, nginx's round-robin), if one comes soon.
      for (const until = Date.now() + 1000; postsInFlight < 4 && Date.now() < until;) await sleep(2);
      killStarted = Date.now();
      await c.servers[1]!.kill();
      // The process is gone: from now on B refuses every connection.
      killedAt = Date.now();
    })();
    await Promise.all([...customers.map(shopper), killer]);

    const cut = sent.filter((s) => s.status === 0 || s.status >= 500).length;
    console.info(
      `kill test: ${sent.length} requests (${cut} cut by the kill and retried), ${told.size} orders told placed, ` +
        `${verified.size} payments verified; B killed ${killStarted - began} ms in, gone after ${killedAt - killStarted} ms`,
    );
    // The kill happened mid-traffic, and traffic went on well after it.
    expect(sent.filter((s) => s.started < killStarted).length).toBeGreaterThan(10);
    const after = sent.filter((s) => s.started > killedAt);
    expect(after.length).toBeGreaterThan(20);
    // What started after the kill was served by the other server: no 5xx, no broken connection.
    expect(after.filter((s) => s.status === 0 || s.status >= 500).map((s) => `${s.what} ${s.status}`)).toEqual([]);

    // Every order a client was told was placed exists, and is its customer's.
    expect(told.size).toBeGreaterThan(10);
    const rows = await query<{ id: number; email: string }>(
      c,
      "select o.id, u.email from orders o join users u on u.id = o.user_id where o.id = any($1::int[])",
      [[...told.keys()]],
    );
    expect(new Map(rows.map((r) => [r.id, r.email]))).toEqual(new Map([...told].map(([id, customer]) => [id, customer.email])));

    // Every verified payment is placed or refunded.
    expect(verified.size).toBeGreaterThan(3);
    const settled = await query<{ id: string }>(
      c,
      `select p.id from payment_orders p
        where p.id = any($1::text[])
          and (exists (select 1 from orders o where o.payment_order_id = p.id)
               or exists (select 1 from refunds r where r.payment_order_id = p.id))`,
      [[...verified.keys()]],
    );
    expect(settled.map((r) => r.id).sort()).toEqual([...verified.keys()].sort());

    // Every told order has its confirmation mail, exactly one, in the end.
    for (const [orderId, customer] of told) {
      const confirmations = async () =>
        (await mailsTo(customer.email, c.mailDir)).filter((m) => m.subject.includes(`order #${orderId} confirmed`));
      await eventually(confirmations, (mails) => mails.length >= 1, `the confirmation mail of order #${orderId}`, MAIL_WAIT_MS);
      expect(await confirmations()).toHaveLength(1);
    }

    // The killed server comes back and takes traffic again.
    await c.servers[1]!.start();
    const back = await fetch(new URL("/healthz", c.servers[1]!.url));
    expect(back.status).toBe(200);
  });
});
