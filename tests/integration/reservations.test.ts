// Stock held while a customer pays (docs/decisions/0023): a payment order holds
// its cart's units until RESERVATION_MINUTES pass, its payment fails or it becomes an order; held
// units are sold to nobody else (cart adds, cash orders, other payment orders), and the product
// page and the cart say 'Only N left' from the stock less what others hold. A payment that comes
// after its hold expired is placed if the stock allows, else marked failed (a refund owed). Runs
// on SQLite and on PostgreSQL (scripts/test-pg.sh).
import { defaultVariantId } from "../support/items";
import { beforeAll, describe, expect, it } from "vitest";
import * as m0032 from "../../migrations/2026-11-29-0032-product-variants";
import * as m0033 from "../../migrations/2026-11-29-0033-product-photos";
import * as m0034 from "../../migrations/2026-11-29-0034-variant-facets";
import * as m0035 from "../../migrations/2026-11-29-0035-variant-low-stock-index";
import * as m0013 from "../../migrations/2026-11-25-0013-stock-reservations";
import { ready } from "~/lib/boot.server";
import { db, toCount } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { purgeExpired } from "~/lib/housekeeping.server";
import { settleMail } from "~/lib/mail.server";
import { offlinePayment, signWebhook } from "~/lib/payments.server";
import { PAYMENT_CALLBACK_PATH } from "~/lib/request-rules";
import { createPaymentOrder } from "~/models/payments/start.server";
import { gatewayFailureFields } from "~/models/payments/test-gateway.server";
import { placeCodOrder } from "~/models/orders/checkout.server";
import { holdUnits, MAX_HELD_PER_PIECE } from "~/models/reservations.server";
import { LIMITS } from "~/lib/rate-limit.server";
import * as cartAdd from "~/routes/api.cart.add";
import * as cartPage from "~/routes/cart";
import * as login from "~/routes/login";
import * as payPage from "~/routes/pay.$paymentOrderId";
import * as productPage from "~/routes/product.$slug";
import * as createOrder from "~/routes/rzp.create-order";
import * as callback from "~/routes/rzp.payment-callback";
import * as webhook from "~/routes/rzp.webhook";
import { formatDateTime } from "~/utils/dates";
import { stockNote } from "~/utils/stock";
import { formRequest, getRequest, jsonRequest, ORIGIN } from "../support/requests";
import type { Answer } from "../support/route-calls";
import { asRecord, call, cookieJar, expectApiError } from "../support/route-calls";
import type { Customer } from "../support/orders";
import {
  addToCart,
  cartLines,
  cartOf,
  checkoutFields,
  itemMaker,
  newCustomer,
  newCustomers,
  PASSWORD,
  placeViaApi,
  setStock,
  SHIPPING,
  stockOf,
} from "../support/orders";

beforeAll(async () => {
  await ready;
});

const item = itemMaker("hold");

/** Many customers, a few at a time (the password hashing admits only so many at once). */
async function customersInTurn(tag: string, n: number): Promise<Customer[]> {
  const customers: Customer[] = [];
  while (customers.length < n) customers.push(...(await newCustomers(`${tag}${customers.length}-`, Math.min(4, n - customers.length))));
  return customers;
}
const MINUTE = 60 * 1000;

interface Proof {
  razorpay_order_id: string;
  razorpay_payment_id: string;
  razorpay_signature: string;
}

/** POST /rzp/create-order for the customer's cart. */
function createPaymentApi(customer: Customer): Promise<Answer> {
  return call(createOrder.action, jsonRequest("POST", "/rzp/create-order", {}, customer.auth));
}

/** A payment order for the customer's cart (it must be made), and the test gateway's proof of paying it. */
async function holdAndProof(customer: Customer): Promise<{ id: string; reservedUntil: string; proof: Proof }> {
  const created = await createPaymentApi(customer);
  expect(created.status).toBe(200);
  const body = asRecord(created.body) as { id: string; reservedUntil: string };
  return { id: body.id, reservedUntil: body.reservedUntil, proof: proofFor(body.id) };
}

/** POST /api/cart/add, whatever it answers. */
function addApi(customer: Customer, itemId: number, quantity: number): Promise<Answer> {
  return call(cartAdd.action, jsonRequest("POST", "/api/cart/add", { itemId, quantity }, customer.auth));
}

/** The test gateway's proof of paying a payment order. */
function proofFor(id: string): Proof {
  const paid = offlinePayment(id);
  return { razorpay_order_id: id, razorpay_payment_id: paid.paymentId, razorpay_signature: paid.signature };
}

/** Units held now (live rows), of one product or of one payment order. */
async function heldUnits(filter: { itemId?: number; paymentOrderId?: string }): Promise<number> {
  let query = db
    .selectFrom("stockReservations")
    .select((eb) => eb.fn.sum<number | string>("quantity").as("n"))
    .where("expiresAt", ">", new Date().toISOString());
  if (filter.itemId !== undefined) query = query.where("itemId", "=", filter.itemId);
  if (filter.paymentOrderId !== undefined) query = query.where("paymentOrderId", "=", filter.paymentOrderId);
  return toCount((await query.executeTakeFirstOrThrow()).n);
}

/** Rows of a payment order, live or not. */
async function rowsOf(paymentOrderId: string) {
  return db.selectFrom("stockReservations").selectAll().where("paymentOrderId", "=", paymentOrderId).execute();
}

/** Time passes: the payment order's hold expired a minute ago. */
async function expire(paymentOrderId: string): Promise<void> {
  await db
    .updateTable("stockReservations")
    .set({ expiresAt: new Date(Date.now() - MINUTE).toISOString() })
    .where("paymentOrderId", "=", paymentOrderId)
    .execute();
}

async function unitsOrdered(itemId: number): Promise<number> {
  const row = await db
    .selectFrom("orderItems")
    .innerJoin("orders", "orders.id", "orderItems.orderId")
    .select((eb) => eb.fn.sum<number | string>("orderItems.quantity").as("n"))
    .where("orderItems.itemId", "=", itemId)
    .where("orders.status", "!=", "cancelled")
    .executeTakeFirstOrThrow();
  return toCount(row.n);
}

function paymentOrderRow(id: string) {
  return db.selectFrom("paymentOrders").select(["status", "paymentId", "failure"]).where("id", "=", id).executeTakeFirstOrThrow();
}

async function browserOf(customer: Customer): Promise<string> {
  const answer = await call(login.action, formRequest("/login", { email: customer.email, password: PASSWORD }));
  expect([302, 303]).toContain(answer.status);
  return cookieJar(answer);
}

function cod(customer: Customer): Promise<Answer> {
  return placeViaApi(customer, checkoutFields({ paymentMethod: "cod" }));
}

function payOnline(customer: Customer, proof: Proof): Promise<Answer> {
  return placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...proof }));
}

async function slugOf(itemId: number): Promise<string> {
  return (await db.selectFrom("items").select("slug").where("id", "=", itemId).executeTakeFirstOrThrow()).slug;
}

describe("a payment order holds its cart's units", () => {
  it("race: 50 customers, 3 units, payment and cash orders at once: never over 3 sold or held; holders' payments place", async () => {
    const lamp = await item("race-lamp", 4200, 3);
    const customers = await customersInTurn("hold-race", 50);
    for (const customer of customers) await addToCart(customer, lamp, 1);

    // Everyone at once asks for a payment order (a hold), straight to the model verb (no request parsing
    // spreads them out): three get one, the others a 409 about the stock.
    const first = await Promise.allSettled(customers.map((c) => createPaymentOrder(c.user.id, SHIPPING)));
    expect(first.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    for (const r of first) if (r.status === "rejected") expect(r.reason).toMatchObject({ status: 409, code: "STOCK_SHORTAGE" });
    expect(await heldUnits({ itemId: lamp })).toBe(3);
    expect(await stockOf(lamp)).toBe(3);

    // The holders pay (through the API) while everyone else tries again at once, half by cash on delivery, half
    // by another payment order: the held units go to the holders only.
    const holders = customers.flatMap((c, i) => {
      const result = first[i]!;
      return result.status === "fulfilled" ? [{ c, id: result.value.id }] : [];
    });
    const losers = customers.filter((_, i) => first[i]!.status === "rejected");
    const second = await Promise.allSettled([
      ...holders.map(({ c, id }) => payOnline(c, proofFor(id)).then((a) => a.status)),
      ...losers.map((c, i) => (i % 2 === 0 ? placeCodOrder(c.user.id, SHIPPING, null) : createPaymentOrder(c.user.id, SHIPPING))),
    ]);
    expect(second.slice(0, holders.length)).toEqual(holders.map(() => ({ status: "fulfilled", value: 201 })));
    for (const r of second.slice(holders.length))
      expect(r).toMatchObject({ status: "rejected", reason: { status: 409, code: "STOCK_SHORTAGE" } });
    expect(await unitsOrdered(lamp)).toBe(3);
    expect(await stockOf(lamp)).toBe(0);
    expect(await heldUnits({ itemId: lamp })).toBe(0);
    await settleMail();
  }, 60_000);

  it("holds for RESERVATION_MINUTES: create-order answers until when; the rows are the cart's; others see only the rest", async () => {
    const [alice, bob] = await newCustomers("hold-basic", 2);
    const chair = await item("basic-chair", 3100, 3);
    const stool = await item("basic-stool", 1200, 10);
    await addToCart(alice, chair, 2);
    await addToCart(alice, stool, 1);
    const before = Date.now();
    const { id, reservedUntil } = await holdAndProof(alice);
    const until = Date.parse(reservedUntil);
    expect(until).toBeGreaterThanOrEqual(before + env.RESERVATION_MINUTES * MINUTE - 1000);
    expect(until).toBeLessThanOrEqual(Date.now() + env.RESERVATION_MINUTES * MINUTE + 1000);
    const rows = await rowsOf(id);
    expect(rows.map((r) => [r.itemId, r.quantity, r.userId, r.expiresAt]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([
      [chair, 2, alice.user.id, reservedUntil],
      [stool, 1, alice.user.id, reservedUntil],
    ]);
    // Stock on hand is untouched; Bob may have 1 chair, Alice all 3 (her own hold is hers).
    expect(await stockOf(chair)).toBe(3);
    await addToCart(bob, chair, 1);
    const refused = expectApiError(await addApi(bob, chair, 1), 409);
    expect(refused.message).toBe(`Only 1 of Test ${await slugOf(chair)} left in stock`);
    expect((await cartOf(alice)).items.find((l) => l.itemId === chair)).toMatchObject({ item: { stock: 3, available: 3 } });
    expect((await cartOf(bob)).items.find((l) => l.itemId === chair)).toMatchObject({ item: { stock: 3, available: 1 } });
  });

  it("a second payment order for one cart (a retry) holds the units once; the first one's payment still places the order", async () => {
    const [alice, bob] = await newCustomers("hold-retry", 2);
    const desk = await item("retry-desk", 9999, 3);
    await addToCart(alice, desk, 2);
    const older = await holdAndProof(alice);
    const newer = await holdAndProof(alice);
    expect(await heldUnits({ itemId: desk })).toBe(2);
    expect(await rowsOf(older.id)).toEqual([]);
    expect(await heldUnits({ paymentOrderId: newer.id })).toBe(2);
    // Bob still finds the one unit nobody holds, and no more.
    await addToCart(bob, desk, 1);
    expect((await cartOf(bob)).items[0]).toMatchObject({ item: { available: 1 } });

    // Alice pays the older one (a second tab): her own hold counts for her; the order is placed and the hold ends.
    const placed = await payOnline(alice, older.proof);
    expect(placed.status).toBe(201);
    expect(await stockOf(desk)).toBe(1);
    expect(await heldUnits({ itemId: desk })).toBe(0);
    expect((await cod(bob)).status).toBe(201);
    expect(await stockOf(desk)).toBe(0);
    await settleMail();
  });

  it("cash on delivery respects others' holds: more than the rest is 409 in the 'Only N left' words, the rest is sold", async () => {
    const [alice, bob, carol] = await newCustomers("hold-cod", 3);
    const bed = await item("cod-bed", 24999, 3);
    await addToCart(alice, bed, 2);
    await addToCart(bob, bed, 2);
    await addToCart(carol, bed, 1);
    const { id } = await holdAndProof(alice);

    const refused = expectApiError(await cod(bob), 409);
    expect(refused.message).toBe(`Only 1 of Test ${await slugOf(bed)} left in stock. Please lower the quantity in your cart.`);
    expect(await cartLines(bob)).toEqual([[bed, 2]]);
    // Another payment order for more than the rest is refused alike, and holds nothing.
    expect(expectApiError(await createPaymentApi(bob), 409).message).toBe(refused.message);
    expect(await heldUnits({ itemId: bed })).toBe(2);

    expect((await cod(carol)).status).toBe(201);
    expect(await stockOf(bed)).toBe(2);
    // All the rest is held: a new add is refused with the word on held units.
    const held = expectApiError(await addApi(carol, bed, 1), 409);
    expect(held.message).toBe(
      `Test ${await slugOf(bed)} is held for customers who are paying for it now. Please try again in a few minutes.`,
    );
    expect(await heldUnits({ paymentOrderId: id })).toBe(2);
    await settleMail();
  });

  it("the product page and the cart say 'Only N left' from the stock less others' holds", async () => {
    const [alice, bob] = await newCustomers("hold-left", 2);
    const sofa = await item("left-sofa", 32999, 4);
    const slug = await slugOf(sofa);
    const page = async (cookie?: string) =>
      asRecord((await call(productPage.loader, getRequest(`/product/${slug}`, cookie ? { Cookie: cookie } : {}), { slug })).body) as {
        available: number;
        item: { stock: number };
      };
    expect(await page()).toMatchObject({ available: 4, item: { stock: 4 } });

    await addToCart(alice, sofa, 3);
    await holdAndProof(alice);
    // A guest and Bob see 1 left; Alice, whose hold it is, all 4. The item's `stock` stays the units on hand.
    expect(await page()).toMatchObject({ available: 1, item: { stock: 4 } });
    const bobCookie = await browserOf(bob);
    expect((await page(bobCookie)).available).toBe(1);
    expect((await page(await browserOf(alice))).available).toBe(4);

    await addToCart(bob, sofa, 1);
    const cart = asRecord((await call(cartPage.loader, getRequest("/cart", { Cookie: bobCookie }))).body) as {
      items: { item: { available: number } }[];
    };
    expect(cart.items[0]!.item.available).toBe(1);
    expect(stockNote(1, 4)).toBe("Only 1 left");
    expect(stockNote(0, 4)).toBe("Held for customers who are paying now. Please check again in a few minutes.");
    expect(stockNote(0, 0)).toBeNull();
    expect(stockNote(6, 6)).toBeNull();
  });
});

describe("a hold ends", () => {
  it("when it expires: the units count again for others, and housekeeping deletes the row", async () => {
    const [alice, bob] = await newCustomers("hold-expiry", 2);
    const table = await item("expiry-table", 15999, 2);
    await addToCart(alice, table, 2);
    const { id } = await holdAndProof(alice);
    expect(expectApiError(await addApi(bob, table, 1), 409).message).toMatch(/is held for customers/);

    // The payment page says until when (India's time); once expired, that they are no longer held.
    const aliceCookie = await browserOf(alice);
    const payPageOf = async () =>
      asRecord((await call(payPage.loader, getRequest(`/pay/${id}`, { Cookie: aliceCookie }), { paymentOrderId: id })).body).heldUntil;
    const until = (await rowsOf(id))[0]!.expiresAt;
    expect(await payPageOf()).toBe(formatDateTime(until));

    await expire(id);
    expect(await payPageOf()).toBeNull();
    expect(await rowsOf(id)).toHaveLength(1);
    await addToCart(bob, table, 2);
    expect((await cartOf(bob)).items[0]).toMatchObject({ item: { available: 2 } });
    await purgeExpired(db);
    expect(await rowsOf(id)).toEqual([]);
    // A live hold survives housekeeping.
    const live = await holdAndProof(bob);
    await purgeExpired(db);
    expect(await heldUnits({ paymentOrderId: live.id })).toBe(2);
  });

  it("when the payment fails: its customer's failure post or the payment.failed webhook; a stranger's post does not", async () => {
    const [alice, bob] = await newCustomers("hold-fail", 2);
    const cabinet = await item("fail-cabinet", 8999, 5);
    await addToCart(alice, cabinet, 2);
    await addToCart(bob, cabinet, 1);
    const aliceHold = await holdAndProof(alice);
    const fields = gatewayFailureFields(aliceHold.id, "pay_TESTfailedpay01");

    // Razorpay's cross-site post carries no session, and Bob's session is not Alice's: the hold stays.
    const foreign = await call(callback.action, formRequest(PAYMENT_CALLBACK_PATH, fields, { Origin: "https://api.razorpay.com" }));
    expect(foreign.headers.get("Location")).toBe(`/pay/${aliceHold.id}?payment=failed`);
    await call(callback.action, formRequest(PAYMENT_CALLBACK_PATH, fields, { Cookie: await browserOf(bob) }));
    expect(await heldUnits({ paymentOrderId: aliceHold.id })).toBe(2);

    // The test gateway's page is the shop's own: its failure post carries Alice's session.
    const own = await call(callback.action, formRequest(PAYMENT_CALLBACK_PATH, fields, { Cookie: await browserOf(alice) }));
    expect(own.headers.get("Location")).toBe(`/pay/${aliceHold.id}?payment=failed`);
    expect(await rowsOf(aliceHold.id)).toEqual([]);
    expect(await paymentOrderRow(aliceHold.id)).toMatchObject({ status: "created", paymentId: null });

    // Razorpay's signed payment.failed webhook ends Bob's hold.
    const bobHold = await holdAndProof(bob);
    expect(await heldUnits({ paymentOrderId: bobHold.id })).toBe(1);
    const raw = JSON.stringify({
      event: "payment.failed",
      payload: { payment: { entity: { id: "pay_TESTfailedpay02", order_id: bobHold.id, amount: 1, status: "failed" } } },
    });
    const hook = await call(
      webhook.action,
      new Request(`${ORIGIN}/rzp/webhook`, {
        method: "POST",
        headers: { Host: "localhost:3000", "Content-Type": "application/json", "X-Razorpay-Signature": signWebhook(raw) },
        body: raw,
      }),
    );
    expect(hook.body).toEqual({ received: true });
    expect(await rowsOf(bobHold.id)).toEqual([]);

    // A payment after its failure is a late one: placed, the stock allowing.
    expect((await payOnline(alice, aliceHold.proof)).status).toBe(201);
    expect(await stockOf(cabinet)).toBe(3);
    await settleMail();
  });

  it("when it becomes an order: the stock is taken and the hold deleted in one transaction", async () => {
    const alice = await newCustomer("hold-order");
    const bench = await item("order-bench", 6500, 2);
    await addToCart(alice, bench, 2);
    const { id, proof } = await holdAndProof(alice);
    expect(await heldUnits({ itemId: bench })).toBe(2);
    expect((await payOnline(alice, proof)).status).toBe(201);
    expect(await rowsOf(id)).toEqual([]);
    expect(await stockOf(bench)).toBe(0);
    await settleMail();
  });
});

describe("a payment that arrives after its hold expired", () => {
  it("is placed when the stock still allows", async () => {
    const alice = await newCustomer("late-placed");
    const rack = await item("late-rack", 5400, 2);
    await addToCart(alice, rack, 2);
    const { id, proof } = await holdAndProof(alice);
    await expire(id);
    const placed = await payOnline(alice, proof);
    expect(placed.status).toBe(201);
    expect(await stockOf(rack)).toBe(0);
    expect(await paymentOrderRow(id)).toMatchObject({ status: "paid", failure: null });
    await settleMail();
  });

  it("is refused when others took the units meanwhile: the payment order is failed (a refund owed) and the customer is told", async () => {
    const [alice, bob, carol] = await newCustomers("late-refused", 3);
    const lounger = await item("late-lounger", 17999, 2);
    await addToCart(alice, lounger, 2);
    const { id, proof } = await holdAndProof(alice);
    await expire(id);
    // Bob buys one meanwhile: the stock no longer covers Alice's payment.
    await addToCart(bob, lounger, 1);
    expect((await cod(bob)).status).toBe(201);

    const refused = expectApiError(await payOnline(alice, proof), 409);
    const reason = `Only 1 of Test ${await slugOf(lounger)} left in stock. Please lower the quantity in your cart.`;
    expect(refused.message).toBe(`This payment could not become an order (${reason.replace(/\.$/, "")}). It will be refunded.`);
    expect(await paymentOrderRow(id)).toEqual({ status: "failed", paymentId: proof.razorpay_payment_id, failure: reason });
    expect(await cartLines(alice)).toEqual([[lounger, 2]]);
    expect(await stockOf(lounger)).toBe(1);
    // The same proof again changes nothing; the payment page says a refund is owed.
    expectApiError(await payOnline(alice, proof), 409);
    const pay = asRecord(
      (await call(payPage.loader, getRequest(`/pay/${id}`, { Cookie: await browserOf(alice) }), { paymentOrderId: id })).body,
    );
    expect(pay.failure).toBe(refused.message);

    // Through the gateway's callback (the browser, from the checkout page's payment order): the last unit
    // went meanwhile, so Carol's late payment is failed as well, and her payment page says so.
    await addToCart(carol, lounger, 1);
    const carolOrder = await createPaymentOrder(carol.user.id, SHIPPING);
    await expire(carolOrder.id);
    await setStock(lounger, 0);
    const carolProof = proofFor(carolOrder.id);
    const answer = await call(
      callback.action,
      formRequest(PAYMENT_CALLBACK_PATH, { ...carolProof }, { Origin: "https://api.razorpay.com" }),
    );
    expect(answer.headers.get("Location")).toBe(`/pay/${carolOrder.id}?payment=refused`);
    expect(await paymentOrderRow(carolOrder.id)).toMatchObject({ status: "failed", paymentId: carolProof.razorpay_payment_id });
    const carolPage = await call(payPage.loader, getRequest(`/pay/${carolOrder.id}?payment=refused`, { Cookie: await browserOf(carol) }), {
      paymentOrderId: carolOrder.id,
    });
    expect(asRecord(carolPage.body).failure).toMatch(
      /^This payment could not become an order \(Test .+ is out of stock.*It will be refunded\.$/,
    );
    await settleMail();
  });
});

describe("migration 2026-11-25-0013-stock-reservations", () => {
  it("down drops the table and keeps the payment orders; up makes it again, empty and working", async () => {
    const raw = db.withoutPlugins() as unknown as Parameters<typeof m0013.up>[0];
    const alice = await newCustomer("hold-migration");
    const shelf = await item("migration-shelf", 7200, 2);
    await addToCart(alice, shelf, 1);
    const { id } = await holdAndProof(alice);

    // The holds' later shape (per variant, migration 0032) and what is built on the variants since
    // go first, newest first, and come back last, in order.
    const later = [m0032, m0033, m0034, m0035];
    for (const m of [...later].reverse()) await m.down(raw);
    await m0013.down(raw);
    try {
      await expect(db.selectFrom("stockReservations").select("itemId").execute()).rejects.toThrow();
      expect(await paymentOrderRow(id)).toMatchObject({ status: "created" });
    } finally {
      await m0013.up(raw);
      for (const m of later) await m.up(raw);
    }
    expect(await rowsOf(id)).toEqual([]);
    const again = await holdAndProof(alice);
    expect(await heldUnits({ paymentOrderId: again.id })).toBe(1);
  });
});

describe("what one account can hold (uncapped, one free account could keep products held for ever)", () => {
  it(`a payment order holds at most ${MAX_HELD_PER_PIECE} units of a product`, async () => {
    const customer = await newCustomer("hold-cap-units");
    const piece = await item("cap-units", 4000, 40);
    const id = `order_TESTcap${Date.now().toString(36)}`;
    const now = new Date().toISOString();
    await db
      .insertInto("paymentOrders")
      .values({
        id,
        userId: customer.user.id,
        amountPaise: 100,
        currency: "INR",
        status: "created",
        paymentId: null,
        checkout: null,
        failure: null,
        createdAt: now,
        updatedAt: now,
      })
      .execute();
    const variantId = await defaultVariantId(piece);
    await db.transaction().execute((trx) =>
      holdUnits(trx, {
        paymentOrderId: id,
        userId: customer.user.id,
        lines: [{ itemId: piece, variantId, quantity: 25 }],
        expiresAt: new Date(Date.now() + 15 * MINUTE).toISOString(),
        now,
      }),
    );
    expect(await heldUnits({ paymentOrderId: id })).toBe(MAX_HELD_PER_PIECE);
  });

  it(`past ${LIMITS.stockHoldDay.max} holds a day a payment order holds nothing, and can still be paid`, async () => {
    const customer = await newCustomer("hold-cap-day");
    const piece = await item("cap-day", 3000, 10);
    await addToCart(customer, piece, 2);
    for (let i = 0; i < LIMITS.stockHoldDay.max; i++) {
      const { id, reservedUntil } = await holdAndProof(customer);
      expect(reservedUntil).not.toBeNull();
      expect(await heldUnits({ paymentOrderId: id })).toBe(2);
    }
    const created = await createPaymentApi(customer);
    expect(created.status).toBe(200);
    const body = asRecord(created.body) as { id: string; reservedUntil: string | null };
    expect(body.reservedUntil).toBeNull();
    expect(await heldUnits({ itemId: piece })).toBe(0);
    const placed = await placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...proofFor(body.id) }));
    expect(placed.status).toBe(201);
    expect(await stockOf(piece)).toBe(8);
    await settleMail();
  });
});
