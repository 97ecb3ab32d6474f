// A paid payment order raced by two placements of it and a cart change, through the real route
// actions: placement A fails on a piece that sold out and decides the payment "never became an
// order" (a full refund), while the customer removes that piece and placement B places the order
// from the same payment. Whatever the interleaving, each payment order ends either with exactly
// one order and no refund of the whole payment, or with no order and that refund once. On
// PostgreSQL a second connection holds the cart's row while the three requests queue behind it,
// so they start in the order A, R, B the moment it is let go; on SQLite they simply run at once.
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db, toCount } from "~/lib/db.server";
import * as cartClearLine from "~/routes/api.cart.clear_.$id";
import * as createOrder from "~/routes/rzp.create-order";
import * as verifyRoute from "~/routes/rzp.verify-payment";
import { offlinePayment } from "~/lib/payments.server";
import { queueRefund } from "~/models/refunds/queue.server";
import { lockHolder, untilWaiting } from "../support/pg-locks";
import { jsonRequest } from "../support/requests";
import { asRecord, call } from "../support/route-calls";
import { addToCart, cartOf, checkoutFields, directCustomer, itemMaker, placeViaApi, setStock } from "../support/orders";

const ROUNDS = 50;
const item = itemMaker("race");
let holder: pg.Client | null = null;

beforeAll(async () => {
  await ready;
  holder = await lockHolder();
});

afterAll(async () => {
  await holder?.end();
});

/** What one payment order became: its orders, and the refunds of its whole payment as unplaced. */
async function outcome(paymentOrderId: string) {
  const orders = await db.selectFrom("orders").select("id").where("paymentOrderId", "=", paymentOrderId).execute();
  const refunds = await db
    .selectFrom("refunds")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("paymentOrderId", "=", paymentOrderId)
    .where("reason", "=", "unplaced")
    .executeTakeFirstOrThrow();
  const row = await db.selectFrom("paymentOrders").select(["status", "orderId"]).where("id", "=", paymentOrderId).executeTakeFirstOrThrow();
  return { orders: orders.map((o) => o.id), refunds: toCount(refunds.n), status: row.status, orderId: row.orderId };
}

describe("a paid payment order raced by two placements and a cart change", () => {
  it(`places one order or refunds once, never both, in ${ROUNDS} rounds`, { timeout: 240_000 }, async () => {
    const tally = { placed: 0, refunded: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const buyer = await directCustomer(`race-${round}`);
      const piece = await item("paid", 3000, 5);
      const cheap = await item("cheap", 400, 1);
      await addToCart(buyer, piece, 1);
      const created = await call(createOrder.action, jsonRequest("POST", "/rzp/create-order", {}, buyer.auth));
      expect(created.status).toBe(200);
      const paymentOrderId = (asRecord(created.body) as { id: string }).id;
      const paid = offlinePayment(paymentOrderId);
      const proof = { razorpay_order_id: paymentOrderId, razorpay_payment_id: paid.paymentId, razorpay_signature: paid.signature };
      const verified = await call(verifyRoute.action, jsonRequest("POST", "/rzp/verify-payment", proof, buyer.auth));
      expect(verified.status).toBe(200);
      // A cheap piece joins the cart, and someone else takes its last unit.
      await addToCart(buyer, cheap, 1);
      await setStock(cheap, 0);
      const line = (await cartOf(buyer)).items.find((l) => l.itemId === cheap)!;

      const place = () => placeViaApi(buyer, checkoutFields({ paymentMethod: "online", ...proof }));
      const remove = () =>
        call(cartClearLine.action, jsonRequest("DELETE", `/api/cart/clear/${line.id}`, undefined, buyer.auth), { id: String(line.id) });
      let answers;
      if (holder) {
        await holder.query("begin");
        await holder.query("select id from carts where user_id = $1 for update", [buyer.user.id]);
        const a = place();
        await untilWaiting(holder, 1);
        const r = remove();
        await untilWaiting(holder, 2);
        const b = place();
        await untilWaiting(holder, 3);
        await holder.query("commit");
        answers = await Promise.all([a, r, b]);
      } else {
        answers = await Promise.all([place(), remove(), place()]);
      }
      for (const answer of [answers[0], answers[2]]) expect([201, 409]).toContain(answer.status);
      expect(answers[1].status).toBe(200);

      const result = await outcome(paymentOrderId);
      if (result.orders.length === 1) {
        expect(result, `round ${round}: an order and a full refund`).toMatchObject({
          refunds: 0,
          status: "paid",
          orderId: result.orders[0],
        });
        tally.placed++;
      } else {
        expect(result, `round ${round}: neither an order nor one refund`).toMatchObject({
          orders: [],
          refunds: 1,
          status: "failed",
          orderId: null,
        });
        tally.refunded++;
      }
    }
    console.info(`${ROUNDS} rounds: ${tally.placed} placed one order, ${tally.refunded} refunded once`);
    expect(tally.placed + tally.refunded).toBe(ROUNDS);
  });

  it("never queues a refund of a placed order's payment as never placed", async () => {
    const buyer = await directCustomer(`race-${ROUNDS}`);
    await addToCart(buyer, await item("placed", 2500, 2), 1);
    const created = await call(createOrder.action, jsonRequest("POST", "/rzp/create-order", {}, buyer.auth));
    const paymentOrderId = (asRecord(created.body) as { id: string; amount: number }).id;
    const paid = offlinePayment(paymentOrderId);
    const proof = { razorpay_order_id: paymentOrderId, razorpay_payment_id: paid.paymentId, razorpay_signature: paid.signature };
    expect((await placeViaApi(buyer, checkoutFields({ paymentMethod: "online", ...proof }))).status).toBe(201);
    const refund = db.transaction().execute((trx) =>
      queueRefund(trx, {
        paymentOrderId,
        orderId: null,
        amount: 2500,
        reason: "unplaced",
        key: `unplaced:${paymentOrderId}`,
        actor: "system",
      }),
    );
    await expect(refund).rejects.toMatchObject({ status: 409 });
    expect((await outcome(paymentOrderId)).refunds).toBe(0);
  });
});
