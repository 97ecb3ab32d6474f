// Coupons (ADR 0019; docs/product.md, Coupons) on SQLite and on PostgreSQL (scripts/test-pg.sh):
// every refusal in its own words with nothing written, codes without case, guessing rate-limited,
// the money of a discounted order, 20 racing orders placing exactly the limit, the per-customer
// limit, a cancellation giving the use back, the code checked again at order time, a paid payment
// honoured at its price, the staff's form (its messages, idempotent create, pause, audit), the API,
// and the migration's down and up. Payment orders hold a use as they hold stock:
// parallel payment orders of one customer or of many never pass a limit, a late
// payment whose coupon no longer applies is refunded, and unknown codes have a shop-wide ceiling.
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db, toCount } from "~/lib/db.server";
import { offlinePayment } from "~/lib/payments.server";
import { env } from "~/lib/env.server";
import { purgeExpired } from "~/lib/housekeeping.server";
import { settleMail } from "~/lib/mail.server";
import { clientOf, SHOP_WIDE, SLOWDOWN, UNKNOWN_CLIENT } from "~/lib/rate-limit.server";
import { PAYMENT_CALLBACK_PATH } from "~/lib/request-rules";
import { deleteCoupon, listCouponsPage } from "~/models/coupons/admin.server";
import { createTestCoupon } from "../support/coupons";
import { createPaymentOrder } from "~/models/payments/start.server";
import { gatewayFailureFields } from "~/models/payments/test-gateway.server";
import { REFUSED_PAYMENT_HOURS } from "~/models/payments/unplaced.server";
import type { OrderDiscount } from "~/models/coupons/uses.server";
import { applyCoupon } from "~/models/coupons/apply.server";
import { countCouponUse, keepCouponHoldForPayment } from "~/models/coupons/uses.server";
import { PAID_HOLD_HOURS } from "~/models/coupons/check.server";
import { changeOrderStatus } from "~/models/orders/status.server";
import { requestReturn } from "~/models/returns/request.server";
import * as adminCoupons from "~/routes/admin.coupons";
import * as cartCouponApi from "~/routes/api.cart.coupon";
import * as changeStatus from "~/routes/api.orders_.changeStatus";
import * as cartPage from "~/routes/cart";
import * as createPayment from "~/routes/rzp.create-order";
import * as paymentCallback from "~/routes/rzp.payment-callback";
import * as testGatewayPay from "~/routes/rzp.test-gateway.$paymentOrderId_.pay";
import * as verifyPaymentApi from "~/routes/rzp.verify-payment";
import { grantAdmin } from "~/web/sign-in.server";
import { COUPON_MESSAGES } from "~/utils/coupon-fields";
import type { CouponInput } from "~/utils/coupon-schemas";
import { couponDiscount, discountedTotals, gstOn, paidValue } from "~/utils/pricing";
import * as m0019 from "../../migrations/2026-11-26-0019-coupons";
import * as m0021 from "../../migrations/2026-11-26-0021-coupon-holds";
import * as m0027 from "../../migrations/2026-11-29-0027-dashboard-figure-indexes";
import * as m0029 from "../../migrations/2026-11-29-0029-dashboard-summaries";
import { adminWindow } from "../support/paging";
import { mailsTo } from "../support/outbox";
import { formRequest, getRequest, jsonRequest, mergeCookies } from "../support/requests";
import { asRecord, call, expectApiError } from "../support/route-calls";
import type { Customer } from "../support/orders";
import { addToCart, cartOf, checkoutFields, itemMaker, newCustomer, newCustomers, placeViaApi, SHIPPING } from "../support/orders";
import { BUILTIN_OWNER } from "~/models/staff/staff.server";

const item = itemMaker("cpn");
let categories: { id: number; title: string }[] = [];

beforeAll(async () => {
  await ready;
  categories = await db.selectFrom("categories").select(["id", "title"]).orderBy("id").execute();
});

let serial = 0;
/** A coupon of this test's own (a unique code), straight through the staff's model. */
async function coupon(over: Partial<CouponInput> = {}) {
  serial += 1;
  return createTestCoupon(`T${serial}X${Date.now().toString(36).toUpperCase()}`, over);
}

function applyApi(customer: Customer, couponCode: unknown) {
  return call(cartCouponApi.action, jsonRequest("POST", "/api/cart/coupon", { couponCode }, customer.auth));
}

const cartCode = async (customer: Customer) =>
  (await db.selectFrom("carts").select("couponCode").where("userId", "=", customer.user.id).executeTakeFirst())?.couponCode ?? null;

async function couponRow(id: number) {
  const row = await db.selectFrom("coupons").select(["uses"]).where("id", "=", id).executeTakeFirstOrThrow();
  const used = await db
    .selectFrom("couponUses")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("couponId", "=", id)
    .executeTakeFirstOrThrow();
  return { uses: row.uses, useRows: toCount(used.n) };
}

function cancel(customer: Customer, orderId: number) {
  return call(changeStatus.action, jsonRequest("PUT", "/api/orders/changeStatus", { orderId, status: "cancelled" }, customer.auth));
}

/** A customer with one piece (₹price, in the first category) in the cart. */
async function shopper(tag: string, price = 10000, categoryIndex = 0): Promise<Customer> {
  const customer = await newCustomer(tag);
  const itemId = await item(tag, price, 1000);
  if (categoryIndex > 0)
    await db.updateTable("items").set({ categoryId: categories[categoryIndex]!.id }).where("id", "=", itemId).execute();
  await addToCart(customer, itemId, 1);
  return customer;
}

describe("applying a code", () => {
  it("every refusal says why, beside the field, and writes nothing", async () => {
    const customer = await shopper("cpn-refuse", 4000);
    const day = 24 * 60 * 60 * 1000;
    const iso = (ms: number) => new Date(Date.now() + ms).toISOString();
    const future = await coupon({ validFrom: iso(2 * day) });
    const past = await coupon({ validUntil: iso(-day) });
    const paused = await coupon();
    await db.updateTable("coupons").set({ paused: 1 }).where("id", "=", paused.id).execute();
    const usedUp = await coupon({ usageLimit: 1 });
    await db.updateTable("coupons").set({ uses: 1 }).where("id", "=", usedUp.id).execute();
    const minimum = await coupon({ minSubtotal: 5000 });
    const bedroomOnly = await coupon({ categoryIds: [categories[1]!.id, categories[2]!.id] });
    const cases: [unknown, number, string][] = [
      ["", 400, COUPON_MESSAGES.empty],
      ["no", 400, COUPON_MESSAGES.malformed],
      ["bad code!", 400, COUPON_MESSAGES.malformed],
      ["NOSUCHCODE", 404, COUPON_MESSAGES.unknown("NOSUCHCODE")],
      [future.code, 409, COUPON_MESSAGES.notYet(future.code, iso(2 * day))],
      [past.code, 409, COUPON_MESSAGES.expired(past.code, iso(-day))],
      [paused.code, 409, COUPON_MESSAGES.paused(paused.code)],
      [usedUp.code, 409, COUPON_MESSAGES.usedUp(usedUp.code)],
      [minimum.code, 409, COUPON_MESSAGES.belowMinimum(minimum.code, 5000, 1000)],
      [bedroomOnly.code, 409, COUPON_MESSAGES.notApplicable(bedroomOnly.code, [categories[1]!.title, categories[2]!.title].sort())],
    ];
    for (const [code, status, message] of cases) {
      const answer = expectApiError(await applyApi(customer, code), status);
      expect(answer.errors?.couponCode, String(code)).toBe(message);
      expect(await cartCode(customer)).toBeNull();
    }
    expect(COUPON_MESSAGES.expired("X", iso(-day))).toMatch(/^The code X expired on \d{1,2} \w+ \d{4}\.$/);
    expect(COUPON_MESSAGES.belowMinimum("X", 5000, 1000)).toBe(
      "The code X needs a subtotal of at least ₹5,000. Add ₹1,000 more to use it.",
    );
    // Not signed in: 401, and the cart page's box sends a guest to log in.
    expect((await call(cartCouponApi.action, jsonRequest("POST", "/api/cart/coupon", { couponCode: minimum.code }))).status).toBe(401);
  });

  it("codes are matched without case; the cart shows the discount and totals after it; removing it is idempotent", async () => {
    const customer = await shopper("cpn-case", 30000);
    const c = await coupon({ value: 20, maxDiscount: 5000 });
    const answer = await applyApi(customer, `  ${c.code.toLowerCase()} `);
    expect(answer.status).toBe(200);
    expect(await cartCode(customer)).toBe(c.code);
    const cart = asRecord(answer.body);
    // 20% of ₹30,000 is ₹6,000, capped at ₹5,000: ₹25,000 left is not above ₹25,000, so shipping ₹1; GST on ₹25,000.
    expect(cart).toMatchObject({ subtotal: 30000, discount: 5000, shipping: 1, gst: 4500, total: 25000 + 1 + 4500 });
    expect(cart.coupon).toMatchObject({ code: c.code, deal: "20% off (at most ₹5,000)", problem: null });
    expect(await applyApi(customer, c.code)).toMatchObject({ status: 200 });
    for (let i = 0; i < 2; i++) {
      const removed = await call(cartCouponApi.action, jsonRequest("DELETE", "/api/cart/coupon", undefined, customer.auth));
      expect(asRecord(removed.body)).toMatchObject({ discount: 0, coupon: null, total: 30000 + 0 + gstOn(30000) });
    }
  });

  it("guessing is rate-limited per account (LIMITS.coupon: 20 a quarter hour)", async () => {
    const customer = await shopper("cpn-guess", 1000);
    for (let i = 0; i < 20; i++) expect((await applyApi(customer, `GUESS${i}`)).status).toBe(404);
    const limited = expectApiError(await applyApi(customer, "GUESS21"), 429);
    expect(limited.message).toMatch(/Too many attempts/);
  });

  it("guessing is rate-limited per address too (60 a quarter hour), whichever account tries", async () => {
    const trusted = env.TRUST_PROXY;
    env.TRUST_PROXY = true;
    try {
      const from = clientOf(getRequest("/cart", { "X-Forwarded-For": "203.0.113.77" }));
      const guessers = await Promise.all(["cpn-ip-a", "cpn-ip-b", "cpn-ip-c", "cpn-ip-d"].map((t) => shopper(t, 1000)));
      const guess = (customer: Customer, i: number) => applyCoupon(customer.user.id, `IPGUESS${i}`, from).catch((e: unknown) => e);
      for (const customer of guessers.slice(0, 3)) {
        for (let i = 0; i < 20; i++) expect(await guess(customer, i)).toMatchObject({ status: 404 });
      }
      // A fourth account from the same address: its first try is over the address's 60.
      expect(await guess(guessers[3]!, 0)).toMatchObject({ status: 429 });
      // From another address it is not held.
      const elsewhere = clientOf(getRequest("/cart", { "X-Forwarded-For": "198.51.100.77" }));
      await expect(applyCoupon(guessers[3]!.user.id, "IPGUESSX", elsewhere)).rejects.toMatchObject({ status: 404 });
    } finally {
      env.TRUST_PROXY = trusted;
    }
  });

  it("the cart page's form works without JavaScript: applied, refused beside the field, removed", async () => {
    const customer = await shopper("cpn-page", 8000);
    const c = await coupon({ kind: "fixed", value: 500 });
    const cookie = await browserCookie(customer);
    const applied = await call(
      cartPage.action,
      formRequest("/cart", { intent: "apply-coupon", couponCode: c.code.toLowerCase() }, { Cookie: cookie }),
    );
    expect(applied.status).toBe(302);
    expect(applied.headers.get("Location")).toBe("/cart");
    const page = asRecord((await call(cartPage.loader, getRequest("/cart", { Cookie: cookie }))).body);
    expect(page).toMatchObject({
      subtotal: 8000,
      discount: 500,
      shipping: 1,
      gst: gstOn(7500),
      total: 7500 + 1 + gstOn(7500),
      signedIn: true,
    });
    const refused = await call(
      cartPage.action,
      formRequest("/cart", { intent: "apply-coupon", couponCode: "NOPE123" }, { Cookie: cookie }),
    );
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual({
      ok: false,
      fieldErrors: { couponCode: COUPON_MESSAGES.unknown("NOPE123") },
      values: { couponCode: "NOPE123" },
    });
    expect(await cartCode(customer)).toBe(c.code);
    const removed = await call(cartPage.action, formRequest("/cart", { intent: "remove-coupon" }, { Cookie: cookie }));
    expect(removed.status).toBe(302);
    expect(await cartCode(customer)).toBeNull();
  });
});

/** A browser session of the customer's (the pages read the session cookie). */
async function browserCookie(customer: Customer): Promise<string> {
  const login = await import("~/routes/login");
  const answer = await call(login.action, formRequest("/login", { email: customer.email, password: "secret12" }));
  return mergeCookies(answer.headers.getSetCookie());
}

describe("ordering with a code", () => {
  it("the order keeps the discount, its lines' shares, and GST and shipping on the discounted subtotal", async () => {
    const customer = await newCustomer("cpn-order");
    const sofa = await item("cpn-sofa", 20000, 50);
    const lamp = await item("cpn-lamp", 1999, 50);
    await db.updateTable("items").set({ categoryId: categories[1]!.id }).where("id", "=", lamp).execute();
    await addToCart(customer, sofa, 1);
    await addToCart(customer, lamp, 3);
    const c = await coupon({ value: 15, categoryIds: [categories[1]!.id] });
    const placed = await placeViaApi(customer, checkoutFields({ couponCode: c.code.toLowerCase() }));
    expect(placed.status).toBe(201);
    const order = asRecord(placed.body) as {
      id: number;
      subtotal: number;
      discount: number;
      couponCode: string;
      shipping: number;
      gst: number;
      total: number;
      items: { price: number; discount: number }[];
    };
    const lines = [
      { price: 20000, quantity: 1, categoryId: categories[0]!.id },
      { price: 1999, quantity: 3, categoryId: categories[1]!.id },
    ];
    const expected = couponDiscount(lines, {
      kind: "percent",
      value: 15,
      minSubtotal: 0,
      maxDiscount: null,
      categoryIds: [categories[1]!.id],
    });
    expect(expected).toEqual({ ok: true, amount: 899, lines: [0, 899] });
    expect(discountedTotals(lines, 899)).toMatchObject({ shipping: 0, total: 25098 + gstOn(25098) });
    // ₹25,997 less ₹899 = ₹25,098: above ₹25,000 after the discount, so shipping is free.
    expect(order).toMatchObject({
      subtotal: 25997,
      discount: 899,
      couponCode: c.code,
      shipping: 0,
      gst: gstOn(25098),
      total: 25098 + gstOn(25098),
    });
    expect(order.items.map((l) => [l.price, l.discount])).toEqual([
      [20000, 0],
      [1999, 899],
    ]);
    expect(await couponRow(c.id)).toEqual({ uses: 1, useRows: 1 });
    // The confirmation mail lists the discount between the subtotal and the shipping.
    await settleMail();
    const [mail] = (await mailsTo(customer.email)).filter((m) => m.subject.includes(`order #${order.id} confirmed`));
    expect(mail?.text).toContain(`Subtotal: ₹25,997\nDiscount (${c.code}): −₹899\nShipping: Free`);
    // The code left the cart with its lines.
    expect(await cartCode(customer)).toBeNull();
  });

  it("20 racing orders place exactly the coupon's limit; the others are refused and write nothing", async () => {
    const limit = 5;
    const c = await coupon({ usageLimit: limit });
    const piece = await item("cpn-race", 3000, 1000);
    const customers = await newCustomers("cpn-race", 20);
    for (const customer of customers) {
      await addToCart(customer, piece, 1);
      await applyCoupon(customer.user.id, c.code, UNKNOWN_CLIENT);
    }
    const before = toCount(
      (
        await db
          .selectFrom("orders")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const answers = await Promise.all(customers.map((customer) => placeViaApi(customer, checkoutFields())));
    const placed = answers.filter((a) => a.status === 201);
    expect(placed).toHaveLength(limit);
    for (const refused of answers.filter((a) => a.status !== 201)) {
      expect(expectApiError(refused, 409).errors?.couponCode).toBe(
        `${COUPON_MESSAGES.usedUp(c.code)} Please remove the code to order without it.`,
      );
    }
    expect(await couponRow(c.id)).toEqual({ uses: limit, useRows: limit });
    const after = toCount(
      (
        await db
          .selectFrom("orders")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(after - before).toBe(limit);
    for (const a of placed) expect(asRecord(a.body)).toMatchObject({ discount: 300, couponCode: c.code });
  });

  it("the per-customer limit holds, and a cancelled order gives its use back (and the customer may use it again)", async () => {
    const c = await coupon({ perCustomerLimit: 1, usageLimit: 10 });
    const customer = await shopper("cpn-once", 5000);
    const first = await placeViaApi(customer, checkoutFields({ couponCode: c.code }));
    expect(first.status).toBe(201);
    const orderId = (asRecord(first.body) as { id: number }).id;
    await addToCart(customer, await item("cpn-once-2", 5000, 10), 1);
    const again = expectApiError(await applyApi(customer, c.code), 409);
    expect(again.errors?.couponCode).toBe(COUPON_MESSAGES.perCustomer(c.code, 1));
    expect(await couponRow(c.id)).toEqual({ uses: 1, useRows: 1 });
    expect((await cancel(customer, orderId)).status).toBe(200);
    expect(await couponRow(c.id)).toEqual({ uses: 0, useRows: 0 });
    const second = await placeViaApi(customer, checkoutFields({ couponCode: c.code }));
    expect(second.status).toBe(201);
    expect(await couponRow(c.id)).toEqual({ uses: 1, useRows: 1 });
  });

  it("a code paused or used up after it was applied is refused at order time, and nothing is written", async () => {
    const c = await coupon({ usageLimit: 3 });
    const customer = await shopper("cpn-stale", 6000);
    await applyCoupon(customer.user.id, c.code, UNKNOWN_CLIENT);
    await db.updateTable("coupons").set({ paused: 1 }).where("id", "=", c.id).execute();
    const cart = await cartOf(customer);
    expect(cart).toMatchObject({ total: 6000 + 1 + gstOn(6000) });
    const refused = expectApiError(await placeViaApi(customer, checkoutFields()), 409);
    expect(refused.errors?.couponCode).toBe(`${COUPON_MESSAGES.paused(c.code)} Please remove the code to order without it.`);
    expect(await couponRow(c.id)).toEqual({ uses: 0, useRows: 0 });
    expect((await cartOf(customer)).items).toHaveLength(1);
  });

  it("an online payment's amount includes the discount; paid, it is honoured though the code was paused since, and counted", async () => {
    const c = await coupon({ kind: "fixed", value: 1000, usageLimit: 1 });
    const customer = await shopper("cpn-paid", 9000);
    expect((await applyApi(customer, c.code)).status).toBe(200);
    const created = await call(createPayment.action, jsonRequest("POST", "/rzp/create-order", {}, customer.auth));
    const payment = asRecord(created.body) as { id: string; amount: number };
    expect(payment.amount).toBe((8000 + 1 + gstOn(8000)) * 100);
    // A code sent with an online order is refused: the payment order's price decides.
    const paid = offlinePayment(payment.id);
    const proof = { razorpay_order_id: payment.id, razorpay_payment_id: paid.paymentId, razorpay_signature: paid.signature };
    expect(
      expectApiError(await placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...proof, couponCode: c.code })), 400).errors
        ?.couponCode,
    ).toBeTruthy();
    await db.updateTable("coupons").set({ paused: 1, uses: 1 }).where("id", "=", c.id).execute();
    const placed = await placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...proof }));
    expect(placed.status).toBe(201);
    expect(asRecord(placed.body)).toMatchObject({ discount: 1000, couponCode: c.code, total: 8000 + 1 + gstOn(8000) });
    expect(await couponRow(c.id)).toEqual({ uses: 2, useRows: 1 });
  });
});

describe("returns of a discounted order", () => {
  it("a partial return refunds what was paid for those units (their share of the discount off), all returns the total", async () => {
    const customer = await newCustomer("cpn-return");
    const lamp = await item("cpn-ret-lamp", 1999, 20);
    await addToCart(customer, lamp, 3);
    const c = await coupon({ kind: "fixed", value: 899 });
    const placed = await placeViaApi(customer, checkoutFields({ couponCode: c.code }));
    expect(placed.status).toBe(201);
    const order = asRecord(placed.body) as { id: number; total: number };
    expect(order.total).toBe(discountedTotals([{ price: 1999, quantity: 3 }], 899).total);
    const admin = { actor: "admin" as const, userId: null, staff: BUILTIN_OWNER };
    await changeOrderStatus(order.id, "shipped", admin);
    await changeOrderStatus(order.id, "delivered", admin);
    const [line] = await db.selectFrom("orderItems").select(["id", "discount"]).where("orderId", "=", order.id).execute();
    expect(line!.discount).toBe(899);
    const one = await requestReturn(customer.user.id, order.id, {
      reason: "damaged",
      details: "Cracked shade.",
      lines: [{ orderItemId: line!.id, quantity: 1 }],
    });
    // ₹1,999 less ⌈899 / 3⌉ = ₹300 of the discount: ₹1,699 paid, and its GST.
    expect(paidValue({ price: 1999, quantity: 3, discount: 899 }, 1)).toBe(1699);
    expect(one.refundAmount).toBe(1699 + gstOn(1699));
    const rest = await requestReturn(customer.user.id, order.id, {
      reason: "damaged",
      details: "The other two too.",
      lines: [{ orderItemId: line!.id, quantity: 2 }],
    });
    expect(one.refundAmount + rest.refundAmount).toBe(order.total);
  });
});

describe("the staff's coupons", () => {
  let cookie = "";
  beforeAll(async () => {
    cookie = mergeCookies([await grantAdmin(getRequest("/"))]);
  });
  const post = (fields: Record<string, string>) => call(adminCoupons.action, formRequest("/admin/coupons", fields, { Cookie: cookie }));
  const form = (over: Record<string, string> = {}) => ({
    intent: "create",
    code: `adm${Date.now().toString(36)}`,
    kind: "percent",
    value: "10",
    minSubtotal: "",
    maxDiscount: "",
    validFrom: "",
    validUntil: "",
    usageLimit: "",
    perCustomerLimit: "",
    ...over,
  });

  it("refuses bad fields beside them and writes nothing", async () => {
    const count = async () =>
      toCount(
        (
          await db
            .selectFrom("coupons")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const cases: [Record<string, string>, string, string][] = [
      [{ value: "101" }, "value", "A percentage must be a whole number from 1 to 100"],
      [{ value: "0" }, "value", "Value must be a whole number from 1 to 1,00,00,000"],
      [{ value: "" }, "value", "Value is required"],
      [{ kind: "fixed", value: "12.5" }, "value", "Value must be a whole number from 1 to 1,00,00,000"],
      [{ kind: "fixed", value: "500", maxDiscount: "100" }, "maxDiscount", "A fixed amount is its own maximum: leave this empty"],
      [{ validFrom: "2026-12-10", validUntil: "2026-12-09" }, "validUntil", "Valid until must be on or after valid from"],
      [{ validFrom: "2026-02-30" }, "validFrom", "Valid from must be a date"],
      [{ code: "a b" }, "code", COUPON_MESSAGES.malformed],
      [{ usageLimit: "2", perCustomerLimit: "3" }, "perCustomerLimit", "Uses per customer cannot be more than the total uses"],
    ];
    for (const [over, field, message] of cases) {
      const answer = await post(form(over));
      expect(answer.status, JSON.stringify(over)).toBe(400);
      expect(asRecord(asRecord(answer.body).fieldErrors)[field]).toBe(message);
    }
    expect(await count()).toBe(before);
  });

  it("refuses a misnamed field rather than ignoring it: categoryIds[] would have made a whole-cart coupon", async () => {
    const fields: Record<string, string> = form({ code: "only-beds", "categoryIds[]": String(categories[1]!.id) });
    const answer = await post(fields);
    expect(answer.status).toBe(400);
    expect(asRecord(answer.body)).toMatchObject({
      formError: "Unknown field: categoryIds[]",
      fieldErrors: { "categoryIds[]": "Unknown field: categoryIds[]" },
    });
    expect(await db.selectFrom("coupons").select("id").where("code", "=", "ONLY-BEDS").execute()).toEqual([]);
    // The form's own name writes the categories.
    const { "categoryIds[]": misnamed, ...named } = fields;
    expect((await post({ ...named, categoryIds: misnamed! })).status).toBe(302);
    const list = asRecord((await call(adminCoupons.loader, getRequest("/admin/coupons?q=only-beds", { Cookie: cookie }))).body);
    expect(asRecord(list.list).rows).toMatchObject([{ code: "ONLY-BEDS", categoryIds: [categories[1]!.id] }]);
  });

  it("creates once for a repeated post, pauses and resumes, and audits each change", async () => {
    const fields = form({
      code: "welcome-5",
      kind: "fixed",
      value: "500",
      minSubtotal: "2,000",
      validFrom: "2026-11-01",
      validUntil: "2026-12-31",
      categoryIds: String(categories[0]!.id),
    });
    expect((await post(fields)).status).toBe(302);
    expect((await post(fields)).status).toBe(302);
    const rows = await db.selectFrom("coupons").selectAll().where("code", "=", "WELCOME-5").execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: "fixed",
      value: 500,
      minSubtotal: 2000,
      limited: 1,
      validFrom: "2026-10-31T18:30:00.000Z",
      validUntil: "2026-12-31T18:30:00.000Z",
    });
    const taken = await post({ ...fields, value: "600" });
    expect(taken.status).toBe(409);
    expect(asRecord(asRecord(taken.body).fieldErrors).code).toMatch(/exists already/);
    const id = String(rows[0]!.id);
    expect((await post({ intent: "pause", id })).status).toBe(302);
    expect((await post({ intent: "pause", id })).status).toBe(302);
    expect((await db.selectFrom("coupons").select("paused").where("id", "=", rows[0]!.id).executeTakeFirstOrThrow()).paused).toBe(1);
    expect((await post({ intent: "resume", id })).status).toBe(302);
    const audit = await db
      .selectFrom("auditLog")
      .select(["action", "summary"])
      .where("entity", "=", "coupon")
      .where("entityId", "=", id)
      .orderBy("id")
      .execute();
    expect(audit).toEqual([
      { action: "create", summary: "Created coupon WELCOME-5: ₹500 off" },
      { action: "status", summary: "Paused coupon WELCOME-5" },
      { action: "status", summary: "Resumed coupon WELCOME-5" },
    ]);
    const list = asRecord((await call(adminCoupons.loader, getRequest("/admin/coupons?q=welcome", { Cookie: cookie }))).body);
    expect(asRecord(list.list).rows).toMatchObject([{ code: "WELCOME-5", uses: 0, paused: false, categoryIds: [categories[0]!.id] }]);
    // Without the admin flag: 403, nothing changes.
    const stranger = await call(adminCoupons.action, formRequest("/admin/coupons", { intent: "pause", id })).catch((e: unknown) => e);
    expect(stranger instanceof Response ? stranger.status : (stranger as { status: number }).status).toBe(403);
  });
});

describe("migration 2026-11-26-0019-coupons", () => {
  it("down drops the tables and columns; up makes them again, empty and working", async () => {
    const raw = db.withoutPlugins() as unknown as Parameters<typeof m0019.up>[0];
    // 0021's holds name coupons, 0027's indexes and 0029's triggers hold the discount columns: down in reverse order, up in order.
    await m0029.down(raw);
    await m0027.down(raw);
    await m0021.down(raw);
    await m0019.down(raw);
    await expect(db.selectFrom("coupons").select("id").execute()).rejects.toThrow();
    await expect(db.selectFrom("orders").select("discount").execute()).rejects.toThrow();
    await m0019.up(raw);
    await m0021.up(raw);
    await m0027.up(raw);
    await m0029.up(raw);
    expect(await db.selectFrom("coupons").select("id").execute()).toEqual([]);
    const c = await coupon({ kind: "fixed", value: 100 });
    const customer = await shopper("cpn-migration", 2000);
    const placed = await placeViaApi(customer, checkoutFields({ couponCode: c.code }));
    expect(placed.status).toBe(201);
    expect(asRecord(placed.body)).toMatchObject({ discount: 100 });
    expect(await couponRow(c.id)).toEqual({ uses: 1, useRows: 1 });
  });
});

// ---- payment orders hold a use (ADR 0019) ---------------------------------------------------

/** POST /rzp/create-order for the customer's cart. */
function createPaymentApi(customer: Customer) {
  return call(createPayment.action, jsonRequest("POST", "/rzp/create-order", {}, customer.auth));
}

/** The reviewer's path: the test gateway's proof for a payment order, then POST /api/orders/add with it. */
async function payThroughGateway(customer: Customer, paymentOrderId: string) {
  const paid = await call(testGatewayPay.action, jsonRequest("POST", `/rzp/test-gateway/${paymentOrderId}/pay`, {}, customer.auth), {
    paymentOrderId,
  });
  expect(paid.status).toBe(200);
  return placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...asRecord(paid.body) }));
}

function proofOf(paymentOrderId: string) {
  const paid = offlinePayment(paymentOrderId);
  return { razorpay_order_id: paymentOrderId, razorpay_payment_id: paid.paymentId, razorpay_signature: paid.signature };
}

const holdsOf = (couponId: number) => db.selectFrom("couponHolds").selectAll().where("couponId", "=", couponId).execute();

/** Time passes: the payment order's holds (its units and its coupon use) ended a minute ago. */
async function expireHolds(paymentOrderId: string) {
  const past = new Date(Date.now() - 60_000).toISOString();
  await db.updateTable("couponHolds").set({ expiresAt: past }).where("paymentOrderId", "=", paymentOrderId).execute();
  await db.updateTable("stockReservations").set({ expiresAt: past }).where("paymentOrderId", "=", paymentOrderId).execute();
}

async function paymentOrderState(id: string) {
  return db.selectFrom("paymentOrders").select(["status", "failure"]).where("id", "=", id).executeTakeFirstOrThrow();
}

describe("payment orders hold a coupon use while their customer pays", () => {
  it("one customer's second and third payment orders are refused; one order gets the discount", async () => {
    const c = await coupon({ kind: "fixed", value: 500, usageLimit: 1, perCustomerLimit: 1 });
    const customer = await newCustomer("cpn-repro");
    const chair = await item("cpn-repro", 12000, 50);
    await addToCart(customer, chair, 1);
    expect((await applyApi(customer, c.code)).status).toBe(200);
    const first = await createPaymentApi(customer);
    expect(first.status).toBe(200);
    const { id, amount, reservedUntil } = asRecord(first.body) as { id: string; amount: number; reservedUntil: string };
    expect(amount).toBe((11500 + 1 + gstOn(11500)) * 100);
    const hold = await holdsOf(c.id);
    expect(hold).toMatchObject([{ paymentOrderId: id, userId: customer.user.id, expiresAt: reservedUntil, paidAt: null }]);
    for (let i = 0; i < 2; i++) {
      const refused = expectApiError(await createPaymentApi(customer), 409);
      expect(refused.errors?.couponCode).toBe(
        `${COUPON_MESSAGES.heldForYou(c.code, reservedUntil)} Please remove the code to order without it.`,
      );
    }
    expect(await holdsOf(c.id)).toHaveLength(1);
    // A cash order with the code is refused the same way while the payment holds it.
    expect(expectApiError(await placeViaApi(customer, checkoutFields()), 409).errors?.couponCode).toMatch(/holds the code/);
    // The one payment order is paid: the order has the discount, the use is counted and the hold is gone.
    const placed = await payThroughGateway(customer, id);
    expect(placed.status).toBe(201);
    expect(asRecord(placed.body)).toMatchObject({ discount: 500, couponCode: c.code });
    expect(await couponRow(c.id)).toEqual({ uses: 1, useRows: 1 });
    expect(await holdsOf(c.id)).toEqual([]);
    // Re-adding the piece: the code is spent (its one use).
    await addToCart(customer, chair, 1);
    expect(expectApiError(await applyApi(customer, c.code), 409).errors?.couponCode).toBe(COUPON_MESSAGES.usedUp(c.code));
  });

  it("total limit 1: a second customer is refused while the first's hold is live, allowed after; a late payment is refunded", async () => {
    const c = await coupon({ kind: "fixed", value: 700, usageLimit: 1 });
    const [alice, bob] = await newCustomers("cpn-late", 2);
    const desk = await item("cpn-late", 9000, 50);
    for (const customer of [alice, bob]) {
      await addToCart(customer, desk, 1);
      expect((await applyApi(customer, c.code)).status).toBe(200);
    }
    const alicePayment = asRecord((await createPaymentApi(alice)).body) as { id: string; reservedUntil: string };
    const allHeld = `${COUPON_MESSAGES.allHeld(c.code, alicePayment.reservedUntil)} Please remove the code to order without it.`;
    expect(expectApiError(await createPaymentApi(bob), 409).errors?.couponCode).toBe(allHeld);
    expect(expectApiError(await placeViaApi(bob, checkoutFields()), 409).errors?.couponCode).toBe(allHeld);
    // Bob's cart says why the code takes nothing off now.
    expect((await cartOf(bob)) as unknown).toMatchObject({
      discount: 0,
      coupon: { code: c.code, problem: COUPON_MESSAGES.allHeld(c.code, alicePayment.reservedUntil) },
    });

    // Alice's hold ends unpaid: Bob's payment order now holds the use, and Bob pays it.
    await expireHolds(alicePayment.id);
    const bobPayment = await createPaymentApi(bob);
    expect(bobPayment.status).toBe(200);
    const placed = await payThroughGateway(bob, (asRecord(bobPayment.body) as { id: string }).id);
    expect(placed.status).toBe(201);
    expect(asRecord(placed.body)).toMatchObject({ discount: 700, couponCode: c.code });

    // Alice pays late: the code is used up, so no order; her payment is failed and refunded whole.
    const late = expectApiError(await payThroughGateway(alice, alicePayment.id), 409);
    const reason = COUPON_MESSAGES.lapsed(COUPON_MESSAGES.usedUp(c.code));
    expect(late.message).toBe(`This payment could not become an order (${reason.replace(/\.$/, "")}). It will be refunded.`);
    expect(await paymentOrderState(alicePayment.id)).toEqual({ status: "failed", failure: reason });
    const refunds = await db
      .selectFrom("refunds")
      .select(["amount", "reason", "orderId"])
      .where("paymentOrderId", "=", alicePayment.id)
      .execute();
    expect(refunds).toEqual([{ amount: 8300 + 1 + gstOn(8300), reason: "unplaced", orderId: null }]);
    expect(await db.selectFrom("orders").select("id").where("paymentOrderId", "=", alicePayment.id).execute()).toEqual([]);
    expect(await couponRow(c.id)).toEqual({ uses: 1, useRows: 1 });
    expect(await holdsOf(c.id)).toEqual([]);
    expect((await cartOf(alice)).items).toHaveLength(1);
    await settleMail();
  });

  it("a late payment whose code still applies is placed and counted; one verified within its hold is honoured after it", async () => {
    const c = await coupon({ kind: "fixed", value: 300, usageLimit: 2 });
    const [carol, dev, erin] = await newCustomers("cpn-kept", 3);
    const stool = await item("cpn-kept", 4000, 50);
    for (const customer of [carol, dev, erin]) {
      await addToCart(customer, stool, 1);
      expect((await applyApi(customer, c.code)).status).toBe(200);
    }
    // Carol pays after her hold ended, but a use is still free: she gets her order and the use is counted.
    const carolPayment = asRecord((await createPaymentApi(carol)).body) as { id: string };
    await expireHolds(carolPayment.id);
    const carolOrder = await payThroughGateway(carol, carolPayment.id);
    expect(carolOrder.status).toBe(201);
    expect(asRecord(carolOrder.body)).toMatchObject({ discount: 300 });
    // Dev's payment is verified while held (POST /rzp/verify-payment), the order placed later.
    const devPayment = asRecord((await createPaymentApi(dev)).body) as { id: string };
    const proof = proofOf(devPayment.id);
    expect((await call(verifyPaymentApi.action, jsonRequest("POST", "/rzp/verify-payment", proof, dev.auth))).status).toBe(200);
    await expireHolds(devPayment.id);
    // Its use stays held, so the last use is not Erin's.
    expect(expectApiError(await createPaymentApi(erin), 409).errors?.couponCode).toBe(
      `${COUPON_MESSAGES.allHeld(c.code, null)} Please remove the code to order without it.`,
    );
    await db.updateTable("coupons").set({ paused: 1 }).where("id", "=", c.id).execute();
    const devOrder = await placeViaApi(dev, checkoutFields({ paymentMethod: "online", ...proof }));
    expect(devOrder.status).toBe(201);
    expect(asRecord(devOrder.body)).toMatchObject({ discount: 300, couponCode: c.code });
    expect(await couponRow(c.id)).toEqual({ uses: 2, useRows: 2 });
    expect(await holdsOf(c.id)).toEqual([]);
  });

  it("a hold is live by the clock read under the coupon lock, a paid mark only from a committed verification", async () => {
    // The race this guards against (PostgreSQL): Ann's order transaction began just before her
    // hold ended and waited on a product's lock; meanwhile Ben took the last use; Ann's order then
    // honoured her hold by the clock read when it began (and by a paid mark written in its own
    // transaction): two uses of a limit of 1.
    const c = await coupon({ kind: "fixed", value: 400, usageLimit: 1 });
    const [ann, ben] = await newCustomers("cpn-stale", 2);
    const lamp = await item("cpn-stale", 6000, 50);
    for (const customer of [ann, ben]) {
      await addToCart(customer, lamp, 1);
      expect((await applyApi(customer, c.code)).status).toBe(200);
    }
    const annPayment = asRecord((await createPaymentApi(ann)).body) as { id: string };
    // Inside an order's own transaction nothing marks the hold paid (the order decides there).
    await db.transaction().execute((trx) => keepCouponHoldForPayment(trx, annPayment.id));
    expect((await holdsOf(c.id))[0]).toMatchObject({ paymentOrderId: annPayment.id, paidAt: null });
    const beganBeforeItEnded = new Date(Date.now() - 120_000).toISOString();
    await expireHolds(annPayment.id);
    const benPayment = asRecord((await createPaymentApi(ben)).body) as { id: string };
    expect((await payThroughGateway(ben, benPayment.id)).status).toBe(201);
    const annUse = { couponId: c.id, code: c.code, amount: 400, lines: [], paymentOrderId: annPayment.id } as unknown as OrderDiscount;
    await expect(
      db.transaction().execute((trx) => countCouponUse(trx, annUse, 2147483000, ann.user.id, beganBeforeItEnded)),
    ).rejects.toMatchObject({ status: 409, code: "COUPON_LAPSED" });
    expect(await couponRow(c.id)).toEqual({ uses: 1, useRows: 1 });
    // A verification after the hold ended marks nothing either: the payment is a late one.
    await keepCouponHoldForPayment(db, annPayment.id);
    expect((await holdsOf(c.id)).find((h) => h.paymentOrderId === annPayment.id)).toMatchObject({ paidAt: null });
    await settleMail();
  });

  it("a payment verified and never placed holds the use for PAID_HOLD_HOURS only", async () => {
    expect(PAID_HOLD_HOURS).toBe(REFUSED_PAYMENT_HOURS);
    const c = await coupon({ kind: "fixed", value: 250, usageLimit: 1 });
    const [fay, gus] = await newCustomers("cpn-paidhold", 2);
    const shelf = await item("cpn-paidhold", 5000, 50);
    for (const customer of [fay, gus]) {
      await addToCart(customer, shelf, 1);
      expect((await applyApi(customer, c.code)).status).toBe(200);
    }
    const fayPayment = asRecord((await createPaymentApi(fay)).body) as { id: string };
    const proof = proofOf(fayPayment.id);
    expect((await call(verifyPaymentApi.action, jsonRequest("POST", "/rzp/verify-payment", proof, fay.auth))).status).toBe(200);
    await expireHolds(fayPayment.id);
    expect((await createPaymentApi(gus)).status).toBe(409);
    // A day passes and Fay never places her order: the use is free for Gus.
    const dayAgo = new Date(Date.now() - (PAID_HOLD_HOURS * 60 + 1) * 60 * 1000).toISOString();
    await db.updateTable("couponHolds").set({ paidAt: dayAgo }).where("paymentOrderId", "=", fayPayment.id).execute();
    const gusPayment = await createPaymentApi(gus);
    expect(gusPayment.status).toBe(200);
    expect((await payThroughGateway(gus, (asRecord(gusPayment.body) as { id: string }).id)).status).toBe(201);
    // Fay places hers at last: a late payment now, and the code is used up, so it is refunded.
    const late = expectApiError(await placeViaApi(fay, checkoutFields({ paymentMethod: "online", ...proof })), 409);
    expect(late.message).toMatch(/^This payment could not become an order \(.+\)\. It will be refunded\.$/);
    expect(await paymentOrderState(fayPayment.id)).toMatchObject({ status: "failed" });
    expect(await couponRow(c.id)).toEqual({ uses: 1, useRows: 1 });
    await settleMail();
  });

  it("20 racing payment orders on a coupon limited to 5 hold exactly 5; the others are refused and write nothing", async () => {
    const limit = 5;
    const c = await coupon({ usageLimit: limit });
    const piece = await item("cpn-hold-race", 3000, 1000);
    const customers = await newCustomers("cpn-hold-race", 20);
    for (const customer of customers) {
      await addToCart(customer, piece, 1);
      await applyCoupon(customer.user.id, c.code, UNKNOWN_CLIENT);
    }
    const before = await db.selectFrom("paymentOrders").select("id").execute();
    const answers = await Promise.allSettled(customers.map((customer) => createPaymentOrder(customer.user.id, SHIPPING)));
    const held = answers.filter((a) => a.status === "fulfilled");
    expect(held).toHaveLength(limit);
    for (const refused of answers.filter((a) => a.status === "rejected")) {
      expect(refused.reason).toMatchObject({ status: 409 });
      expect((refused.reason as { fieldErrors?: Record<string, string> }).fieldErrors?.couponCode).toMatch(
        /^Every use of the code .+ left is held by customers paying now\./,
      );
    }
    expect(await holdsOf(c.id)).toHaveLength(limit);
    expect((await db.selectFrom("paymentOrders").select("id").execute()).length - before.length).toBe(limit);
    expect(await couponRow(c.id)).toEqual({ uses: 0, useRows: 0 });
  });

  it("a failed payment ends its hold; a coupon a payment holds cannot be deleted", async () => {
    const c = await coupon({ usageLimit: 1 });
    const customer = await shopper("cpn-fail", 5000);
    expect((await applyApi(customer, c.code)).status).toBe(200);
    const payment = asRecord((await createPaymentApi(customer)).body) as { id: string };
    await expect(deleteCoupon(c.id, BUILTIN_OWNER)).rejects.toMatchObject({ status: 409, message: expect.stringMatching(/holds a use/) });
    const listed = async () => (await listCouponsPage({ q: c.code }, adminWindow(1))).rows[0];
    expect(await listed()).toMatchObject({ uses: 0, held: 1 });
    // The gateway's failure fields, posted by the customer's own session (the test gateway's page), end it.
    const fields = gatewayFailureFields(payment.id, "pay_TESTcpnfailed01");
    await call(paymentCallback.action, formRequest(PAYMENT_CALLBACK_PATH, fields, { Cookie: await browserCookie(customer) }));
    expect(await holdsOf(c.id)).toEqual([]);
    expect(await listed()).toMatchObject({ uses: 0, held: 0 });
    expect((await createPaymentApi(customer)).status).toBe(200);
  });
});

describe("housekeeping", () => {
  it("deletes coupon holds that ended unpaid, and keeps a payment's verified within its hold", async () => {
    const c = await coupon();
    const [unpaid, verified] = await newCustomers("cpn-purge", 2);
    const lamp = await item("cpn-purge", 1500, 50);
    const ids: string[] = [];
    for (const customer of [unpaid!, verified!]) {
      await addToCart(customer, lamp, 1);
      expect((await applyApi(customer, c.code)).status).toBe(200);
      ids.push((asRecord((await createPaymentApi(customer)).body) as { id: string }).id);
    }
    await call(verifyPaymentApi.action, jsonRequest("POST", "/rzp/verify-payment", proofOf(ids[1]!), verified!.auth));
    for (const id of ids) await expireHolds(id);
    await purgeExpired(db);
    expect((await holdsOf(c.id)).map((h) => h.paymentOrderId)).toEqual([ids[1]]);
  });
});

describe("guessing codes: unknown answers have a shop-wide ceiling", () => {
  it("past it, guessing addresses are refused whatever the code (even a real one); another address passes after a pause", async () => {
    const ceiling = SHOP_WIDE["coupon-unknown"]!;
    const saved = { max: ceiling.max, ...SLOWDOWN, trusted: env.TRUST_PROXY };
    ceiling.max = 6;
    SLOWDOWN.ms = 150;
    env.TRUST_PROXY = true;
    const key = `${ceiling.name}:all`;
    await db.deleteFrom("rateLimits").where("key", "=", key).execute();
    const count = async () => (await db.selectFrom("rateLimits").select("count").where("key", "=", key).executeTakeFirst())?.count ?? 0;
    try {
      const real = await coupon();
      const from = (ip: string) => clientOf(getRequest("/cart", { "X-Forwarded-For": ip }));
      const [a, b, fresh] = await Promise.all(["cpn-ceil-a", "cpn-ceil-b", "cpn-ceil-c"].map((t) => shopper(t, 1000)));
      // A real code never counts toward the ceiling.
      await expect(applyCoupon(a!.user.id, real.code, from("192.0.2.10"))).resolves.toBe(real.code);
      expect(await count()).toBe(0);
      for (const [customer, ip] of [
        [a!, "192.0.2.10"],
        [b!, "192.0.2.11"],
      ] as const) {
        for (let i = 0; i < 3; i++)
          await expect(applyCoupon(customer.user.id, `CEIL${ip.slice(-2)}X${i}`, from(ip))).rejects.toMatchObject({ status: 404 });
      }
      expect(await count()).toBe(6);
      // The ceiling is spent: a guessing address is refused, for an unknown code and a real one alike.
      await expect(applyCoupon(a!.user.id, "CEILMORE", from("192.0.2.10"))).rejects.toMatchObject({ status: 429 });
      await expect(applyCoupon(b!.user.id, real.code, from("192.0.2.11"))).rejects.toMatchObject({ status: 429 });
      // A customer on another address applies the real code, a little slower, and gives the try back.
      const started = Date.now();
      await expect(applyCoupon(fresh!.user.id, real.code, from("198.51.100.40"))).resolves.toBe(real.code);
      expect(Date.now() - started).toBeGreaterThanOrEqual(140);
      // The two refused tries stay counted; the real code's try was counted (9), then given back.
      expect(await count()).toBe(8);
    } finally {
      ceiling.max = saved.max;
      Object.assign(SLOWDOWN, { ms: saved.ms, fairShare: saved.fairShare });
      env.TRUST_PROXY = saved.trusted;
    }
  });
});

describe("migration 2026-11-26-0021-coupon-holds", () => {
  it("down drops the holds and keeps the payment orders; up makes the table again, empty and working", async () => {
    const raw = db.withoutPlugins() as unknown as Parameters<typeof m0021.up>[0];
    await m0021.down(raw);
    await expect(db.selectFrom("couponHolds").select("paymentOrderId").execute()).rejects.toThrow();
    expect((await db.selectFrom("paymentOrders").select("id").limit(1).execute()).length).toBe(1);
    await m0021.up(raw);
    expect(await db.selectFrom("couponHolds").select("paymentOrderId").execute()).toEqual([]);
    const c = await coupon({ usageLimit: 1 });
    const customer = await shopper("cpn-holds-migration", 2000);
    expect((await applyApi(customer, c.code)).status).toBe(200);
    expect((await createPaymentApi(customer)).status).toBe(200);
    expect(await holdsOf(c.id)).toHaveLength(1);
  });
});
