// The offline test gateway as Razorpay's Checkout (docs/decisions/0012): its API
// for clients (POST /rzp/test-gateway/{id}/pay), its page, and the shop's redirect callback
// (/rzp/payment-callback), which verifies the three fields with Razorpay's own check and writes
// nothing without a valid signature.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { settleMail } from "~/lib/mail.server";
import { isValidPaymentSignature } from "~/lib/payments.server";
import { isSameSite, PAYMENT_CALLBACK_PATH } from "~/lib/request-rules";
import { PAYMENT_FAILED } from "~/models/payments/verify.server";
import * as ordersAdd from "~/routes/api.orders_.add";
import * as checkoutPage from "~/routes/checkout";
import * as login from "~/routes/login";
import * as payPage from "~/routes/pay.$paymentOrderId";
import * as createOrder from "~/routes/rzp.create-order";
import * as callback from "~/routes/rzp.payment-callback";
import * as gatewayPage from "~/routes/test-gateway.$paymentOrderId";
import * as gatewayPay from "~/routes/rzp.test-gateway.$paymentOrderId_.pay";
import * as verifyRoute from "~/routes/rzp.verify-payment";
import { formRequest, getRequest, jsonRequest, ORIGIN } from "../support/requests";
import type { Answer } from "../support/route-calls";
import { asRecord, call, cookieJar, expectApiError } from "../support/route-calls";
import type { Customer } from "../support/orders";
import {
  addToCart,
  checkoutFields,
  countOrders,
  newCustomer,
  PASSWORD,
  placeViaApi,
  snapshot,
  itemMaker,
  SHIPPING,
} from "../support/orders";
import { COD_LIMITS, COD_MESSAGES, TEST_PAYMENT_MESSAGES } from "~/utils/checkout";

beforeAll(async () => {
  await ready;
});

afterEach(() => {
  env.RAZORPAY_KEY_ID = undefined;
  env.RAZORPAY_KEY_SECRET = undefined;
});

const item = itemMaker("gw");

interface Proof {
  razorpay_order_id: string;
  razorpay_payment_id: string;
  razorpay_signature: string;
}

/** Razorpay keys set: the shop is in Razorpay mode (no network is used by these tests). */
function withRazorpayKeys() {
  env.RAZORPAY_KEY_ID = "rzp_test_gatewaytest";
  env.RAZORPAY_KEY_SECRET = "gateway-test-secret";
}

function gatewayApi(id: string, body: unknown, headers: Record<string, string>) {
  return call(gatewayPay.action, jsonRequest("POST", `/rzp/test-gateway/${id}/pay`, body, headers), { paymentOrderId: id });
}

async function paymentOrderFor(customer: Customer): Promise<string> {
  const created = await call(createOrder.action, jsonRequest("POST", "/rzp/create-order", {}, customer.auth));
  expect(created.status).toBe(200);
  return (asRecord(created.body) as { id: string }).id;
}

function paymentOrderRow(id: string) {
  return db.selectFrom("paymentOrders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

async function browserOf(customer: Customer): Promise<string> {
  const answer = await call(login.action, formRequest("/login", { email: customer.email, password: PASSWORD }));
  expect([302, 303]).toContain(answer.status);
  return cookieJar(answer);
}

/** The checkout page's Place Order with online payment: the payment order (with its shipping) it makes. */
async function onlineCheckout(cookie: string): Promise<string> {
  const page = asRecord((await call(checkoutPage.loader, getRequest("/checkout", { Cookie: cookie }))).body);
  const fields = checkoutFields({ paymentMethod: "online", idempotencyKey: page.idempotencyKey, expectedTotal: page.total });
  const answer = await call(
    checkoutPage.action,
    formRequest("/checkout", Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, String(v)])), { Cookie: cookie }),
  );
  expect(answer.status).toBe(303);
  const match = /^\/pay\/(order_TEST[A-Za-z0-9]{10})$/.exec(answer.headers.get("Location") ?? "");
  expect(match).not.toBeNull();
  return match![1]!;
}

function gatewayView(cookie: string, id: string) {
  return call(gatewayPage.loader, getRequest(`/test-gateway/${id}`, cookie ? { Cookie: cookie } : {}), { paymentOrderId: id });
}

/** What Razorpay's page posts to the callback URL: a form from Razorpay's origin, without the shop's cookie (SameSite=Lax). */
function postCallback(fields: Record<string, string>, headers: Record<string, string> = { Origin: "https://api.razorpay.com" }) {
  return call(callback.action, formRequest(PAYMENT_CALLBACK_PATH, fields, headers));
}

function location(answer: Answer): string {
  return answer.headers.get("Location") ?? "";
}

function ordersOf(userId: number) {
  return db.selectFrom("orders").select(["id", "paymentOrderId", "paymentId", "paymentMethod"]).where("userId", "=", userId).execute();
}

describe("POST /rzp/test-gateway/{id}/pay (the gateway for API clients)", () => {
  it("answers Razorpay's three fields; /rzp/verify-payment accepts them and /api/orders/add places the order", async () => {
    const customer = await newCustomer("gw-api");
    await addToCart(customer, await item("api-chair", 3100, 5), 2);
    const id = await paymentOrderFor(customer);

    const answer = await gatewayApi(id, {}, customer.auth);
    expect(answer.status).toBe(200);
    const proof = asRecord(answer.body) as unknown as Proof;
    expect(Object.keys(proof).sort()).toEqual(["razorpay_order_id", "razorpay_payment_id", "razorpay_signature"]);
    expect(proof.razorpay_order_id).toBe(id);
    expect(proof.razorpay_payment_id).toMatch(/^pay_TEST[A-Za-z0-9]{10}$/);
    expect(isValidPaymentSignature(proof.razorpay_order_id, proof.razorpay_payment_id, proof.razorpay_signature)).toBe(true);
    // The gateway itself writes nothing.
    expect(await paymentOrderRow(id)).toMatchObject({ status: "created", paymentId: null });

    const verified = await call(verifyRoute.action, jsonRequest("POST", "/rzp/verify-payment", proof, customer.auth));
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ success: true });
    const placed = await call(
      ordersAdd.action,
      jsonRequest("POST", "/api/orders/add", checkoutFields({ paymentMethod: "online", ...proof }), customer.auth),
    );
    expect(placed.status).toBe(201);
    expect(asRecord(placed.body)).toMatchObject({ paymentMethod: "online", paymentId: proof.razorpay_payment_id });
    expect(await ordersOf(customer.user.id)).toHaveLength(1);

    // Razorpay takes no second payment for a paid order.
    expect(expectApiError(await gatewayApi(id, {}, customer.auth), 409).message).toBe("This payment order has already been paid");
    await settleMail();
  });

  it("paying again before the order is placed hands over the same payment: no refund as paid twice", async () => {
    // Before, every call minted a new payment: placing with the first and verifying the others
    // refunded the whole order once per extra proof (no money moved, but the order, the refunds
    // queue and the customer's mails said so).
    const customer = await newCustomer("gw-again");
    await addToCart(customer, await item("again-chair", 2900, 5), 1);
    const id = await paymentOrderFor(customer);
    const proofs = [];
    for (let i = 0; i < 3; i++) proofs.push(asRecord((await gatewayApi(id, {}, customer.auth)).body) as unknown as Proof);
    expect(new Set(proofs.map((p) => p.razorpay_payment_id)).size).toBe(1);
    const placed = await call(
      ordersAdd.action,
      jsonRequest("POST", "/api/orders/add", checkoutFields({ paymentMethod: "online", ...proofs[0]! }), customer.auth),
    );
    expect(placed.status).toBe(201);
    for (const proof of proofs.slice(1)) await call(verifyRoute.action, jsonRequest("POST", "/rzp/verify-payment", proof, customer.auth));
    expect(await db.selectFrom("refunds").select("id").where("paymentOrderId", "=", id).execute()).toEqual([]);
    await settleMail();
  });

  it('{ "outcome": "failed" }: a signature that never verifies; verify-payment is 400 and orders/add writes nothing', async () => {
    const customer = await newCustomer("gw-fail");
    const sofa = await item("fail-sofa", 5200, 5);
    await addToCart(customer, sofa, 1);
    const id = await paymentOrderFor(customer);
    const before = await snapshot(customer, [sofa]);

    const answer = await gatewayApi(id, { outcome: "failed" }, customer.auth);
    expect(answer.status).toBe(200);
    const proof = asRecord(answer.body) as unknown as Proof;
    expect(proof.razorpay_order_id).toBe(id);
    expect(isValidPaymentSignature(proof.razorpay_order_id, proof.razorpay_payment_id, proof.razorpay_signature)).toBe(false);

    const verified = await call(verifyRoute.action, jsonRequest("POST", "/rzp/verify-payment", proof, customer.auth));
    expect(verified.status).toBe(400);
    expect(verified.body).toEqual({ success: false, message: PAYMENT_FAILED });
    const placed = await call(
      ordersAdd.action,
      jsonRequest("POST", "/api/orders/add", checkoutFields({ paymentMethod: "online", ...proof }), customer.auth),
    );
    expect(expectApiError(placed, 400).message).toBe(PAYMENT_FAILED);
    expect(await paymentOrderRow(id)).toMatchObject({ status: "created", paymentId: null, failure: null });
    expect(await snapshot(customer, [sofa])).toEqual(before);
    expect(await countOrders(customer.user.id)).toBe(0);
  });

  it("404 for an unknown or malformed id, another customer's order, and any order with Razorpay keys set; 401, 400, 403", async () => {
    const [owner, other] = [await newCustomer("gw-owner"), await newCustomer("gw-other")];
    await addToCart(owner, await item("own-lamp", 800, 5), 1);
    const id = await paymentOrderFor(owner);

    for (const [customer, paymentOrderId] of [
      [other, id],
      [owner, "order_NOSUCHORDER1"],
      [owner, "not-an-id"],
    ] as const) {
      expect(expectApiError(await gatewayApi(paymentOrderId, {}, customer.auth), 404).message).toBe("That payment order was not found");
    }
    withRazorpayKeys();
    expect(expectApiError(await gatewayApi(id, {}, owner.auth), 404).message).toBe("That payment order was not found");
    env.RAZORPAY_KEY_ID = env.RAZORPAY_KEY_SECRET = undefined;

    expectApiError(await gatewayApi(id, {}, {}), 401);
    const badOutcome = expectApiError(await gatewayApi(id, { outcome: "maybe" }, owner.auth), 400);
    expect(badOutcome.errors?.outcome).toBe("outcome must be paid or failed");
    // A browser's cross-site post with the owner's cookie is refused before anything else.
    const cookie = await browserOf(owner);
    expectApiError(await gatewayApi(id, {}, { Cookie: cookie, Origin: "https://evil.example" }), 403);
    // The owner's session works as well as a token.
    expect((await gatewayApi(id, {}, { Cookie: cookie })).status).toBe(200);
    expect(await paymentOrderRow(id)).toMatchObject({ status: "created", paymentId: null });
  });
});

describe("the gateway page and the redirect callback", () => {
  it("pays like Razorpay's redirect flow: the page's form posted from another origin places the stored checkout's order", async () => {
    const customer = await newCustomer("gw-page");
    const cookie = await browserOf(customer);
    const table = await item("page-table", 4400, 5);
    await addToCart(customer, table, 2);
    const id = await onlineCheckout(cookie);

    const view = await gatewayView(cookie, id);
    expect(view.status).toBe(200);
    expect(view.headers.get("Cache-Control")).toBe("no-store");
    const page = asRecord(view.body) as { amountPaise: number; callback: string; paid: Proof; failed: Record<string, string> };
    expect(page.amountPaise).toBe((await paymentOrderRow(id)).amountPaise);
    expect(page.amountPaise).toBeGreaterThanOrEqual(8800 * 100);
    expect(page.callback).toBe("/rzp/payment-callback");
    expect(page.paid.razorpay_order_id).toBe(id);
    expect(await paymentOrderRow(id)).toMatchObject({ status: "created", paymentId: null });

    const answer = await postCallback({ ...page.paid });
    expect(answer.status).toBe(303);
    const match = /^\/order-confirmation\/(\d+)$/.exec(location(answer));
    expect(match, location(answer)).not.toBeNull();
    const orders = await ordersOf(customer.user.id);
    expect(orders).toEqual([
      { id: Number(match![1]), paymentOrderId: id, paymentId: page.paid.razorpay_payment_id, paymentMethod: "online" },
    ]);
    const shipped = await db
      .selectFrom("orders")
      .select(["shipName", "shipCity", "total"])
      .where("id", "=", orders[0]!.id)
      .executeTakeFirst();
    expect(shipped).toEqual({ shipName: SHIPPING.name, shipCity: SHIPPING.city, total: page.amountPaise / 100 });

    // The same post again (a reload): the same order, nothing more.
    const again = await postCallback({ ...page.paid });
    expect(location(again)).toBe(location(answer));
    expect(await ordersOf(customer.user.id)).toHaveLength(1);
    // The gateway page of a paid order leads back to the shop's payment page (and so to the order).
    expect(location(await gatewayView(cookie, id))).toBe(`/pay/${id}`);
    await settleMail();
  });

  it("a forged signature or Razorpay's failure fields write nothing; the payment page says 'Payment verification failed'", async () => {
    const customer = await newCustomer("gw-forged");
    const cookie = await browserOf(customer);
    const bed = await item("forged-bed", 9900, 5);
    await addToCart(customer, bed, 1);
    const id = await onlineCheckout(cookie);
    const page = asRecord((await gatewayView(cookie, id)).body) as { paid: Proof; failed: Record<string, string> };
    const before = await snapshot(customer, [bed]);
    const row = await paymentOrderRow(id);

    const forged = { ...page.paid, razorpay_signature: "f".repeat(64) };
    const otherPayment = { ...page.paid, razorpay_payment_id: "pay_TESTotherpay123" };
    for (const fields of [forged, otherPayment, page.failed]) {
      const answer = await postCallback(fields);
      expect(answer.status).toBe(303);
      expect(location(answer)).toBe(`/pay/${id}?payment=failed`);
    }
    expect(page.failed).toMatchObject({ "error[code]": "BAD_REQUEST_ERROR", "error[metadata][order_id]": id });
    expect(await paymentOrderRow(id)).toEqual(row);
    expect(await snapshot(customer, [bed])).toEqual(before);
    expect(await countOrders(customer.user.id)).toBe(0);

    const shown = await call(payPage.loader, getRequest(`/pay/${id}?payment=failed`, { Cookie: cookie }), { paymentOrderId: id });
    expect(asRecord(shown.body).callbackError).toBe("Payment verification failed");
    // The page names no words of the poster's: an unknown code shows nothing.
    const odd = await call(payPage.loader, getRequest(`/pay/${id}?payment=<b>hi</b>`, { Cookie: cookie }), { paymentOrderId: id });
    expect(asRecord(odd.body).callbackError).toBeNull();

    // Malformed fields: the API's error shape, nothing written.
    expectApiError(await postCallback({ razorpay_signature: "abc" }), 400);
    expect(await paymentOrderRow(id)).toEqual(row);
  });

  it("bound to the payment order's customer: a valid proof posted with another customer's cookie places its owner's order", async () => {
    const [payer, victim] = [await newCustomer("gw-payer"), await newCustomer("gw-victim")];
    const [payerCookie, victimCookie] = [await browserOf(payer), await browserOf(victim)];
    await addToCart(payer, await item("bound-desk", 2700, 5), 1);
    await addToCart(victim, await item("bound-rack", 1300, 5), 1);
    const id = await onlineCheckout(payerCookie);
    const page = asRecord((await gatewayView(payerCookie, id)).body) as { paid: Proof };

    // The victim cannot see the payer's gateway page.
    expect((await gatewayView(victimCookie, id)).status).toBe(404);
    const answer = await postCallback({ ...page.paid }, { Origin: "https://evil.example", Cookie: victimCookie });
    expect(answer.status).toBe(303);
    expect(await countOrders(victim.user.id)).toBe(0);
    expect(await ordersOf(payer.user.id)).toHaveLength(1);
    await settleMail();
  });

  it("a paid payment whose order is refused (the cart changed) is recorded; the payment page shows why", async () => {
    const customer = await newCustomer("gw-refused");
    const cookie = await browserOf(customer);
    await addToCart(customer, await item("refused-shelf", 3600, 5), 1);
    const id = await onlineCheckout(cookie);
    const page = asRecord((await gatewayView(cookie, id)).body) as { paid: Proof };
    await addToCart(customer, await item("refused-stool", 700, 5), 1);

    const answer = await postCallback({ ...page.paid });
    expect(location(answer)).toBe(`/pay/${id}?payment=refused`);
    const row = await paymentOrderRow(id);
    expect(row).toMatchObject({ status: "paid", paymentId: page.paid.razorpay_payment_id });
    expect(row.failure).toBeTruthy();
    expect(await countOrders(customer.user.id)).toBe(0);
    const shown = await call(payPage.loader, getRequest(`/pay/${id}?payment=refused`, { Cookie: cookie }), { paymentOrderId: id });
    expect(asRecord(shown.body)).toMatchObject({ paid: true, callbackError: row.failure });
  });

  it("the page: a 404 for another customer, an unknown id, or with Razorpay keys set; sign-in first", async () => {
    const [owner, other] = [await newCustomer("gw-view"), await newCustomer("gw-view-other")];
    const [ownerCookie, otherCookie] = [await browserOf(owner), await browserOf(other)];
    await addToCart(owner, await item("view-bench", 1900, 5), 1);
    const id = await onlineCheckout(ownerCookie);
    // The payment page's Pay button opens the gateway's page (its owner only).
    const open = (cookie: string) =>
      call(payPage.action, formRequest(`/pay/${id}`, { intent: "gateway" }, { Cookie: cookie }), { paymentOrderId: id });
    expect(location(await open(ownerCookie))).toBe(`/test-gateway/${id}`);
    expect((await open(otherCookie)).status).toBe(404);
    expect((await gatewayView(otherCookie, id)).status).toBe(404);
    expect((await gatewayView(ownerCookie, "order_NOSUCHORDER1")).status).toBe(404);
    expect((await gatewayView(ownerCookie, "junk")).status).toBe(404);
    expect(location(await gatewayView("", id))).toMatch(/^\/login/);
    withRazorpayKeys();
    expect((await gatewayView(ownerCookie, id)).status).toBe(404);
  });

  it("only the callback, and only its POST, is exempt from the same-site rule", () => {
    const crossSite = (method: string, pathname: string) =>
      isSameSite({
        method,
        pathname,
        trustProxy: false,
        header: (name: string) => ({ host: "localhost:3000", origin: "https://api.razorpay.com", cookie: "__session=x" })[name] ?? null,
      });
    expect(crossSite("POST", PAYMENT_CALLBACK_PATH)).toBe(true);
    expect(crossSite("PUT", PAYMENT_CALLBACK_PATH)).toBe(false);
    expect(crossSite("POST", `${PAYMENT_CALLBACK_PATH}/`)).toBe(false);
    expect(crossSite("POST", "/rzp/verify-payment")).toBe(false);
    expect(crossSite("POST", "/rzp/test-gateway/order_TESTabcdefghij/pay")).toBe(false);
    expect(crossSite("POST", "/pay/order_TESTabcdefghij")).toBe(false);
    expect(ORIGIN).toBe("http://localhost:3000");
  });
});

describe("a test payment takes no money, so cash on delivery's caps hold for it", () => {
  const pay = async (customer: Customer) => {
    const id = await paymentOrderFor(customer);
    const proof = asRecord((await gatewayApi(id, {}, customer.auth)).body);
    return call(
      ordersAdd.action,
      jsonRequest("POST", "/api/orders/add", checkoutFields({ paymentMethod: "online", ...proof }), customer.auth),
    );
  };

  it("more than 10 of a piece: the payment order is refused (400) before any unit is held, and nothing is written", async () => {
    const customer = await newCustomer("gw-cap-units");
    const piece = await item("cap-units", 3000, 40);
    await addToCart(customer, piece, COD_LIMITS.unitsPerPiece + 1);
    const before = await snapshot(customer, [piece]);
    const refused = await call(createOrder.action, jsonRequest("POST", "/rzp/create-order", {}, customer.auth));
    const { title } = await db.selectFrom("items").select("title").where("id", "=", piece).executeTakeFirstOrThrow();
    expect(expectApiError(refused, 400).message).toBe(TEST_PAYMENT_MESSAGES.tooManyUnits(title));
    expect(await snapshot(customer, [piece])).toEqual(before);
    expect(await db.selectFrom("paymentOrders").select("id").where("userId", "=", customer.user.id).execute()).toHaveLength(0);
  });

  it(`at most ${COD_LIMITS.openOrders} unpaid orders waiting, cash on delivery and test payments together`, async () => {
    const customer = await newCustomer("gw-cap-open");
    const piece = await item("cap-open", 2000, 100);
    for (let i = 0; i < COD_LIMITS.openOrders - 2; i++) {
      await addToCart(customer, piece, 1);
      expect((await placeViaApi(customer, checkoutFields({ paymentMethod: "cod" }))).status).toBe(201);
    }
    for (let i = 0; i < 2; i++) {
      await addToCart(customer, piece, 1);
      expect((await pay(customer)).status).toBe(201);
    }
    await addToCart(customer, piece, 1);
    const refused = await call(createOrder.action, jsonRequest("POST", "/rzp/create-order", {}, customer.auth));
    expect(expectApiError(refused, 409).message).toBe(TEST_PAYMENT_MESSAGES.tooManyOpen);
    expect(expectApiError(await placeViaApi(customer, checkoutFields({ paymentMethod: "cod" })), 409).message).toBe(
      COD_MESSAGES.tooManyOpen,
    );
    expect(await countOrders(customer.user.id)).toBe(COD_LIMITS.openOrders);
    await settleMail();
  });
});
