// An online order and the record of its payment commit together (crash safety, ADR 0007). The
// crash test (scripts/crash-test.mjs) looks for a payment that is paid, has no order, and was
// never refused (no reason, no refund flag): the payment used to be recorded in a write of its
// own before the order's transaction, so a process killed between the two kept it so. Here the
// order's insert fails as a killed process would (a trigger), after the payment's record.
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db, isPostgresUrl } from "~/lib/db.server";
import { offlinePayment } from "~/lib/payments.server";
import type { Customer } from "../support/orders";
import {
  addToCart,
  cartLines,
  checkoutFields,
  countOrders,
  itemMaker,
  newCustomer,
  placeViaApi,
  SHIPPING,
  stockOf,
} from "../support/orders";
import { createPaymentOrder } from "~/models/payments/start.server";
import { placeOnlineOrder, placeRecordedPayment } from "~/models/payments/place.server";
import { AMOUNT_MISMATCH } from "~/models/orders/place.server";

beforeAll(async () => {
  await ready;
});

const item = itemMaker("paycrash");

function paymentOrderRow(id: string) {
  return db.selectFrom("paymentOrders").select(["status", "paymentId", "failure"]).where("id", "=", id).executeTakeFirstOrThrow();
}

/** A payment order for the customer's cart and the test gateway's signed payment of it. */
async function paidCart(customer: Customer) {
  const { id } = await createPaymentOrder(customer.user.id, SHIPPING);
  const paid = offlinePayment(id);
  return { id, proof: { razorpay_order_id: id, razorpay_payment_id: paid.paymentId, razorpay_signature: paid.signature } };
}

/** Until `undo`, every insert into orders fails, as if the process died there. */
async function ordersDie(): Promise<() => Promise<void>> {
  if (isPostgresUrl(process.env.DATABASE_URL ?? "")) {
    await sql`create function crash_here() returns trigger language plpgsql
      as $$ begin raise exception 'the process died here'; end $$`.execute(db);
    await sql`create trigger orders_die before insert on orders for each row execute function crash_here()`.execute(db);
    return async () => {
      await sql`drop trigger orders_die on orders`.execute(db);
      await sql`drop function crash_here()`.execute(db);
    };
  }
  await sql`create trigger orders_die before insert on orders begin select raise(abort, 'the process died here'); end`.execute(db);
  return async () => void (await sql`drop trigger orders_die`.execute(db));
}

describe("an online order and its payment's record", () => {
  it("are written together: a placement that dies after recording the payment records nothing", async () => {
    const customer = await newCustomer("paycrash-dies");
    const chair = await item("chair", 4000, 5);
    await addToCart(customer, chair, 2);
    const { id, proof } = await paidCart(customer);

    const undo = await ordersDie();
    try {
      // The test gateway's page and the API both place through placeOnlineOrder.
      await expect(placeOnlineOrder(proof, customer.user.id, null)).rejects.toThrow("the process died here");
      const viaApi = await placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...proof }));
      expect(viaApi.status).toBe(500);
    } finally {
      await undo();
    }
    // Before the fix: status "paid" with this payment id, and no order (nor any reason or refund flag).
    expect(await paymentOrderRow(id)).toEqual({ status: "created", paymentId: null, failure: null });
    expect(await countOrders(customer.user.id)).toBe(0);
    expect(await stockOf(chair)).toBe(5);
    expect(await cartLines(customer)).toEqual([[chair, 2]]);

    // The client's retry with the same proof (after the restart) places the order, once.
    const retried = await placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...proof }));
    expect(retried.status).toBe(201);
    expect(await paymentOrderRow(id)).toEqual({ status: "paid", paymentId: proof.razorpay_payment_id, failure: null });
    expect(await countOrders(customer.user.id)).toBe(1);
    expect(await stockOf(chair)).toBe(3);
    const again = await placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...proof }));
    expect(again.status).toBe(409);
    expect(await countOrders(customer.user.id)).toBe(1);
  });

  it("a refused order still keeps the payment, with the reason, and it becomes the order once the cart matches", async () => {
    const customer = await newCustomer("paycrash-refused");
    const lamp = await item("lamp", 3000, 5);
    await addToCart(customer, lamp, 1);
    const { id, proof } = await paidCart(customer);
    // The cart changes after paying: the payment no longer matches it.
    await addToCart(customer, lamp, 1);
    await expect(placeOnlineOrder(proof, customer.user.id, null)).rejects.toThrow(AMOUNT_MISMATCH);
    expect(await paymentOrderRow(id)).toEqual({ status: "paid", paymentId: proof.razorpay_payment_id, failure: AMOUNT_MISMATCH });
    expect(await countOrders(customer.user.id)).toBe(0);
    expect(await stockOf(lamp)).toBe(5);

    // 'Place my order' once the cart holds what was paid for again.
    await db
      .updateTable("cartLines")
      .set({ quantity: 1 })
      .where("itemId", "=", lamp)
      .where("cartId", "=", (await db.selectFrom("carts").select("id").where("userId", "=", customer.user.id).executeTakeFirstOrThrow()).id)
      .execute();
    const order = await placeRecordedPayment(id, customer.user.id);
    expect(order.paymentId).toBe(proof.razorpay_payment_id);
    expect(await paymentOrderRow(id)).toEqual({ status: "paid", paymentId: proof.razorpay_payment_id, failure: null });
    expect(await stockOf(lamp)).toBe(4);
  });
});
