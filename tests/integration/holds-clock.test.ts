// Holds by the database's clock (ADRs 0023 and 0019): with several app servers their
// clocks differ, so on PostgreSQL who gets the last unit or the last coupon use is decided by
// `clock_timestamp()` read under the locks (db.server's dbNow), never by the app server's own clock.
// Here the app clock is set an hour slow while a hold is made, and an hour fast while another
// customer tries for the same last unit or use: by the app clock the hold would have ended long
// before it began. On SQLite (one server, one clock) the app clock is the clock: the file is skipped.
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ready } from "~/lib/boot.server";
import { db, dbNow, isPostgresUrl } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { purgeExpired } from "~/lib/housekeeping.server";
import { createTestCoupon } from "../support/coupons";
import * as cartCouponApi from "~/routes/api.cart.coupon";
import * as createPayment from "~/routes/rzp.create-order";
import { jsonRequest } from "../support/requests";
import { asRecord, call } from "../support/route-calls";
import type { Customer } from "../support/orders";
import { addToCart, checkoutFields, itemMaker, newCustomers, placeViaApi } from "../support/orders";

const HOUR = 60 * 60 * 1000;
const item = itemMaker("clock");

beforeAll(async () => {
  await ready;
});

afterEach(() => {
  vi.useRealTimers();
});

/** This app server's clock runs `offset` ms off the database's (only Date is faked: timers and sockets run as ever). */
function skewAppClock(offset: number) {
  vi.useRealTimers();
  const real = Date.now();
  vi.useFakeTimers({ toFake: ["Date"], now: real + offset });
}

function createPaymentApi(customer: Customer) {
  return call(createPayment.action, jsonRequest("POST", "/rzp/create-order", {}, customer.auth));
}

describe.skipIf(!isPostgresUrl(process.env.DATABASE_URL ?? ""))("holds are judged by the database's clock", () => {
  it("a slow server's stock hold ends RESERVATION_MINUTES after the database's now; a fast server cannot sell its unit", async () => {
    const itemId = await item("last", 5000, 1);
    const [alice, bob] = await newCustomers("clock-stock", 2);
    await addToCart(bob, itemId, 1);
    await addToCart(alice, itemId, 1);

    skewAppClock(-HOUR);
    const created = await createPaymentApi(alice);
    expect(created.status).toBe(200);
    const reservedUntil = String(asRecord(created.body).reservedUntil);
    vi.useRealTimers();
    const dbClock = Date.parse(await dbNow(db));
    const row = await db.selectFrom("stockReservations").select("expiresAt").where("itemId", "=", itemId).executeTakeFirstOrThrow();
    expect(row.expiresAt).toBe(reservedUntil);
    const left = Date.parse(reservedUntil) - dbClock;
    expect(left).toBeGreaterThan(env.RESERVATION_MINUTES * 60_000 - 30_000);
    expect(left).toBeLessThanOrEqual(env.RESERVATION_MINUTES * 60_000);

    // By its own clock Alice's hold ended 45 minutes ago; by the database's it holds the last unit.
    skewAppClock(HOUR);
    const placed = await placeViaApi(bob, checkoutFields());
    expect(placed.status).toBe(409);
    expect(await db.selectFrom("items").select("stock").where("id", "=", itemId).executeTakeFirstOrThrow()).toEqual({ stock: 1 });
    // Nor does the fast server's housekeeping delete the hold that is live by the database's clock.
    await purgeExpired(db);
    const held = await db.selectFrom("stockReservations").select("itemId").where("itemId", "=", itemId).execute();
    expect(held).toHaveLength(1);
  });

  it("a coupon's last use held by a slow server's payment order is refused to a fast server's customers, to pay or to order", async () => {
    const code = `CLOCK${Date.now().toString(36).toUpperCase()}`;
    const coupon = await createTestCoupon(code, { usageLimit: 1 });
    const customers = await newCustomers("clock-coupon", 3);
    for (const customer of customers) {
      await addToCart(customer, await item("cpn", 8000, 100), 1);
      const applied = await call(cartCouponApi.action, jsonRequest("POST", "/api/cart/coupon", { couponCode: code }, customer.auth));
      expect(applied.status).toBe(200);
    }
    const [alice, bob, carol] = customers as [Customer, Customer, Customer];

    skewAppClock(-HOUR);
    expect((await createPaymentApi(alice)).status).toBe(200);
    vi.useRealTimers();
    const dbClock = Date.parse(await dbNow(db));
    const hold = await db.selectFrom("couponHolds").select("expiresAt").where("couponId", "=", coupon.id).executeTakeFirstOrThrow();
    expect(Date.parse(hold.expiresAt) - dbClock).toBeGreaterThan(env.RESERVATION_MINUTES * 60_000 - 30_000);

    skewAppClock(HOUR);
    // Paying: holdCouponUse's check, under the coupon's lock.
    expect((await createPaymentApi(bob)).status).toBe(409);
    // Ordering with cash: countCouponUse's check, under the coupon's lock.
    expect((await placeViaApi(carol, checkoutFields())).status).toBe(409);
    vi.useRealTimers();
    expect(await db.selectFrom("coupons").select("uses").where("id", "=", coupon.id).executeTakeFirstOrThrow()).toEqual({ uses: 0 });
    expect(await db.selectFrom("couponHolds").select("paymentOrderId").where("couponId", "=", coupon.id).execute()).toHaveLength(1);
  });
});
