// Returns (ADR 0025): a customer asks within 48 hours of delivery, the staff
// approve or reject, an approved return becomes `returned` when the goods arrive: stock goes back
// then, and an online payment's refund follows, once. Bad input: a clear 4xx and nothing written.
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { settleMail } from "~/lib/mail.server";
import { changeOrderStatus } from "~/models/orders/status.server";
import { decideReturn, listReturnsPage } from "~/models/returns/admin.server";
import { requestReturn } from "~/models/returns/request.server";
import { returnableFor, returnsForOrder } from "~/models/returns/read.server";
import * as adminReturnsPage from "~/routes/admin.returns";
import * as adminOrderPage from "~/routes/admin.orders_.$orderId";
import * as orderPage from "~/routes/order-confirmation.$orderId";
import * as returnsApi from "~/routes/api.orders_.$id.returns";
import * as returnStatusApi from "~/routes/api.returns.changeStatus";
import * as login from "~/routes/login";
import * as createOrder from "~/routes/rzp.create-order";
import * as gatewayPay from "~/routes/rzp.test-gateway.$paymentOrderId_.pay";
import { grantAdmin } from "~/web/sign-in.server";
import { gstOn } from "~/utils/pricing";
import { RETURN_MESSAGES } from "~/utils/returns";
import { adminWindow } from "../support/paging";
import { mailsTo } from "../support/outbox";
import { formRequest, getRequest, jsonRequest, mergeCookies } from "../support/requests";
import { asRecord, call, cookieJar } from "../support/route-calls";
import type { Customer } from "../support/orders";
import { addToCart, checkoutFields, itemMaker, newCustomer, PASSWORD, placeViaApi, stockOf } from "../support/orders";
import { BUILTIN_OWNER } from "~/models/staff/staff.server";

beforeAll(async () => {
  await ready;
});

const item = itemMaker("ret");
const ADMIN = { actor: "admin" as const, userId: null, staff: BUILTIN_OWNER };

/** A cash-on-delivery order of these lines, shipped and delivered (delivered `hoursAgo` ago). */
async function deliveredOrder(customer: Customer, lines: [number, number][], hoursAgo = 1): Promise<number> {
  for (const [itemId, quantity] of lines) await addToCart(customer, itemId, quantity);
  const placed = await placeViaApi(customer, checkoutFields());
  expect(placed.status).toBe(201);
  const orderId = (asRecord(placed.body) as { id: number }).id;
  await changeOrderStatus(orderId, "shipped", ADMIN);
  await changeOrderStatus(orderId, "delivered", ADMIN);
  const at = new Date(Date.now() - hoursAgo * 60 * 60 * 1000).toISOString();
  await db.updateTable("orderEvents").set({ createdAt: at }).where("orderId", "=", orderId).where("toStatus", "=", "delivered").execute();
  return orderId;
}

async function linesOf(orderId: number) {
  return db
    .selectFrom("orderItems")
    .select(["id", "itemId", "quantity", "unitPrice"])
    .where("orderId", "=", orderId)
    .orderBy("id")
    .execute();
}

async function countReturns(orderId: number) {
  return (await db.selectFrom("returnRequests").select("id").where("orderId", "=", orderId).execute()).length;
}

async function browserOf(customer: Customer): Promise<string> {
  const answer = await call(login.action, formRequest("/login", { email: customer.email, password: PASSWORD }));
  return cookieJar(answer);
}

describe("a customer's return, the staff's decision, the goods back", () => {
  it("request (page form) → approve → returned: stock back only then, the refund amount by the money rule, a timeline, mails", async () => {
    const customer = await newCustomer("ret-happy");
    const chair = await item("chair", 12000, 10);
    const lamp = await item("lamp", 3000, 10);
    const orderId = await deliveredOrder(customer, [
      [chair, 2],
      [lamp, 1],
    ]);
    const [chairLine, lampLine] = await linesOf(orderId);
    const cookie = await browserOf(customer);

    // The page offers the form while the window is open.
    const page = asRecord(
      (await call(orderPage.loader, getRequest(`/order-confirmation/${orderId}`, { Cookie: cookie }), { orderId: String(orderId) })).body,
    );
    expect(page.returnable).toMatchObject({ open: true });

    const asked = await call(
      orderPage.action,
      formRequest(
        `/order-confirmation/${orderId}`,
        {
          intent: "request-return",
          [`qty-${chairLine!.id}`]: "1",
          [`qty-${lampLine!.id}`]: "0",
          reason: "damaged",
          details: "The left armrest arrived cracked.",
        },
        { Cookie: cookie },
      ),
      { orderId: String(orderId) },
    );
    expect(asked.status).toBe(302);
    expect(asked.headers.get("Location")).toBe(`/order-confirmation/${orderId}`);
    const [ret] = await returnsForOrder(orderId);
    expect(ret).toMatchObject({ status: "requested", reason: "damaged", refundAmount: 12000 + gstOn(12000) });
    expect(ret!.lines).toEqual([{ orderItemId: chairLine!.id, title: expect.any(String), quantity: 1, price: 12000 }]);
    expect(await stockOf(chair)).toBe(8);

    await decideReturn(ret!.id, "approved", null, BUILTIN_OWNER);
    expect(await stockOf(chair)).toBe(8);
    const received = await decideReturn(ret!.id, "returned", null, BUILTIN_OWNER);
    expect(received.status).toBe("returned");
    expect(await stockOf(chair)).toBe(9);
    expect(await stockOf(lamp)).toBe(9);
    expect(received.events.map((e) => [e.from, e.status, e.actor])).toEqual([
      [null, "requested", "customer"],
      ["requested", "approved", "admin"],
      ["approved", "returned", "admin"],
    ]);
    const audit = await db
      .selectFrom("auditLog")
      .select("summary")
      .where("entity", "=", "return")
      .where("entityId", "=", String(ret!.id))
      .execute();
    expect(audit).toHaveLength(2);
    await settleMail();
    const subjects = (await mailsTo(customer.email)).map((m) => m.subject);
    expect(subjects.some((s) => s.includes(`return #${ret!.id}`) && s.includes("Return approved"))).toBe(true);
    expect(subjects.some((s) => s.includes(`return #${ret!.id}`) && s.includes("Returned"))).toBe(true);
    // The order itself stays delivered; its last event is still its status.
    expect((await db.selectFrom("orders").select("status").where("id", "=", orderId).executeTakeFirstOrThrow()).status).toBe("delivered");
  });

  it("bad requests: a clear 4xx each, and nothing written", async () => {
    const customer = await newCustomer("ret-bad");
    const stranger = await newCustomer("ret-stranger");
    const sofa = await item("sofa", 20000, 10);
    const orderId = await deliveredOrder(customer, [[sofa, 2]]);
    const [line] = await linesOf(orderId);
    const ask = (lines: { orderItemId: number; quantity: number }[], who = customer) =>
      requestReturn(who.user.id, orderId, { reason: "defective", details: "It wobbles.", lines });

    await expect(ask([{ orderItemId: line!.id, quantity: 3 }])).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining("You can return at most 2 of"),
    });
    await expect(ask([{ orderItemId: 999_999, quantity: 1 }])).rejects.toMatchObject({ status: 400, message: RETURN_MESSAGES.unknownLine });
    await expect(ask([{ orderItemId: line!.id, quantity: 1 }], stranger)).rejects.toMatchObject({ status: 404 });
    expect(await countReturns(orderId)).toBe(0);

    // The page's form: nothing chosen, no reason, empty details: 400 with the message beside the field.
    const cookie = await browserOf(customer);
    const empty = await call(
      orderPage.action,
      formRequest(
        `/order-confirmation/${orderId}`,
        { intent: "request-return", [`qty-${line!.id}`]: "0", details: "" },
        { Cookie: cookie },
      ),
      { orderId: String(orderId) },
    );
    expect(empty.status).toBe(400);
    expect(asRecord(empty.body).fieldErrors).toMatchObject({ lines: RETURN_MESSAGES.nothingChosen });
    expect(await countReturns(orderId)).toBe(0);

    // Both units asked for, then asked again: already being returned. A rejection frees them.
    const first = await ask([{ orderItemId: line!.id, quantity: 2 }]);
    await expect(ask([{ orderItemId: line!.id, quantity: 1 }])).rejects.toMatchObject({
      status: 409,
      message: expect.stringContaining("already being returned"),
    });
    await expect(decideReturn(first.id, "returned", null, BUILTIN_OWNER)).rejects.toMatchObject({ status: 409 });
    await decideReturn(first.id, "rejected", "The photos show no damage.", BUILTIN_OWNER);
    await expect(decideReturn(first.id, "approved", null, BUILTIN_OWNER)).rejects.toMatchObject({ status: 409 });
    const second = await ask([{ orderItemId: line!.id, quantity: 1 }]);
    expect(second.status).toBe("requested");
    const [rejected] = await returnsForOrder(orderId);
    expect(rejected).toMatchObject({ status: "rejected", staffNote: "The photos show no damage." });
  });

  it("the 48-hour window and the order's state", async () => {
    const customer = await newCustomer("ret-window");
    const table = await item("table", 15000, 10);
    const late = await deliveredOrder(customer, [[table, 1]], 49);
    const [line] = await linesOf(late);
    const refused = requestReturn(customer.user.id, late, {
      reason: "damaged",
      details: "Scratched top.",
      lines: [{ orderItemId: line!.id, quantity: 1 }],
    });
    await expect(refused).rejects.toMatchObject({ status: 409, message: expect.stringContaining("within 48 hours of delivery") });
    expect(await returnableFor({ id: late, status: "delivered" })).toMatchObject({ open: false });
    expect(await countReturns(late)).toBe(0);

    // Shipped, not delivered: no return (and a shipped order cancelled keeps its units out of stock).
    await addToCart(customer, table, 1);
    const placed = asRecord((await placeViaApi(customer, checkoutFields())).body) as { id: number };
    await changeOrderStatus(placed.id, "shipped", ADMIN);
    const [shippedLine] = await linesOf(placed.id);
    await expect(
      requestReturn(customer.user.id, placed.id, {
        reason: "damaged",
        details: "x",
        lines: [{ orderItemId: shippedLine!.id, quantity: 1 }],
      }),
    ).rejects.toMatchObject({ status: 409, message: RETURN_MESSAGES.notDelivered });
    const before = await stockOf(table);
    await changeOrderStatus(placed.id, "cancelled", ADMIN);
    expect(await stockOf(table)).toBe(before);
  });

  it("two requests at once for the same units: one is taken, the other refused", async () => {
    const customer = await newCustomer("ret-race");
    const bed = await item("bed", 30000, 10);
    const orderId = await deliveredOrder(customer, [[bed, 1]]);
    const [line] = await linesOf(orderId);
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () =>
        requestReturn(customer.user.id, orderId, {
          reason: "defective",
          details: "Broken slat.",
          lines: [{ orderItemId: line!.id, quantity: 1 }],
        }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await countReturns(orderId)).toBe(1);
  });
});

describe("the refund follows an online order's return, once", () => {
  it("paid on the test gateway: the returns of every unit refund the order's total; receiving again is 409, no second refund", async () => {
    const customer = await newCustomer("ret-online");
    const desk = await item("desk", 9000, 10);
    await addToCart(customer, desk, 2);
    const created = asRecord((await call(createOrder.action, jsonRequest("POST", "/rzp/create-order", {}, customer.auth))).body) as {
      id: string;
    };
    const proof = asRecord(
      (
        await call(gatewayPay.action, jsonRequest("POST", `/rzp/test-gateway/${created.id}/pay`, {}, customer.auth), {
          paymentOrderId: created.id,
        })
      ).body,
    );
    const placed = asRecord((await placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...proof }))).body) as {
      id: number;
      total: number;
    };
    await changeOrderStatus(placed.id, "shipped", { ...ADMIN, shipUnpaid: true });
    await changeOrderStatus(placed.id, "delivered", ADMIN);
    const [line] = await linesOf(placed.id);

    const one = await requestReturn(customer.user.id, placed.id, {
      reason: "damaged",
      details: "Dented leg.",
      lines: [{ orderItemId: line!.id, quantity: 1 }],
    });
    expect(one.refundAmount).toBe(9000 + gstOn(9000));
    const two = await requestReturn(customer.user.id, placed.id, {
      reason: "damaged",
      details: "The other too.",
      lines: [{ orderItemId: line!.id, quantity: 1 }],
    });
    // The last units back: the rest of the total (its shipping too), never more than was paid.
    expect(one.refundAmount + two.refundAmount).toBe(placed.total);

    // Through the admin page's form, as the staff do it.
    const adminCookie = mergeCookies([await grantAdmin(getRequest("/"))]);
    const adminPost = (fields: Record<string, string>) =>
      call(adminOrderPage.action, formRequest(`/admin/orders/${placed.id}`, fields, { Cookie: adminCookie }), {
        orderId: String(placed.id),
      });
    const reject = await adminPost({ intent: "reject-return", returnId: String(one.id), note: "" });
    expect(reject.status).toBe(400);
    expect((await returnsForOrder(placed.id))[0]!.status).toBe("requested");
    for (const r of [one, two]) {
      expect((await adminPost({ intent: "approve-return", returnId: String(r.id) })).status).toBe(302);
      expect((await adminPost({ intent: "receive-return", returnId: String(r.id) })).status).toBe(302);
    }
    expect((await adminPost({ intent: "receive-return", returnId: String(one.id) })).status).toBe(409);
    const refunds = await db.selectFrom("refunds").selectAll().where("orderId", "=", placed.id).orderBy("id").execute();
    expect(refunds.map((r) => [r.amount, r.reason])).toEqual([
      [one.refundAmount, "returned"],
      [two.refundAmount, "returned"],
    ]);
    expect(await stockOf(desk)).toBe(10);
    await settleMail();
  });
});

describe("the returns API", () => {
  it("POST /api/orders/{id}/returns (201), GET lists them; PUT /api/returns/changeStatus is the shop's (403 for a customer)", async () => {
    const customer = await newCustomer("ret-api");
    const stool = await item("stool", 4000, 10);
    const orderId = await deliveredOrder(customer, [[stool, 3]]);
    const [line] = await linesOf(orderId);
    const post = (body: unknown, who: Customer = customer) =>
      call(returnsApi.action, jsonRequest("POST", `/api/orders/${orderId}/returns`, body, who.auth), { id: String(orderId) });

    const bad = await post({ reason: "bored", details: "", lines: [] });
    expect(bad.status).toBe(400);
    expect(asRecord(bad.body).errors).toMatchObject({ reason: RETURN_MESSAGES.reason });
    expect(
      (await post({ reason: "damaged", details: "x", lines: [{ orderItemId: line!.id, quantity: 1 }] }, await newCustomer("ret-api-other")))
        .status,
    ).toBe(404);

    const created = await post({ reason: "defective", details: "One leg is shorter.", lines: [{ orderItemId: line!.id, quantity: 2 }] });
    expect(created.status).toBe(201);
    const ret = asRecord(created.body) as { id: number; status: string; refundAmount: number };
    expect(ret).toMatchObject({ status: "requested", refundAmount: 8000 + gstOn(8000) });

    const listed = asRecord(
      (await call(returnsApi.loader, getRequest(`/api/orders/${orderId}/returns`, customer.auth), { id: String(orderId) })).body,
    );
    expect((listed.returns as { id: number }[]).map((r) => r.id)).toEqual([ret.id]);
    expect((listed.returnable as { lines: { left: number }[] }).lines[0]!.left).toBe(1);

    const decide = (body: unknown, headers: Record<string, string>) =>
      call(returnStatusApi.action, jsonRequest("PUT", "/api/returns/changeStatus", body, headers));
    expect((await decide({ returnId: ret.id, status: "approved" }, customer.auth)).status).toBe(403);
    const adminCookie = mergeCookies([await grantAdmin(getRequest("/"))]);
    expect((await decide({ returnId: ret.id, status: "rejected" }, { Cookie: adminCookie })).status).toBe(400);
    expect((await decide({ returnId: ret.id, status: "approved" }, { Cookie: adminCookie })).status).toBe(200);
    const done = await decide({ returnId: ret.id, status: "returned" }, { Cookie: adminCookie });
    expect(asRecord(asRecord(done.body).return)).toMatchObject({ status: "returned" });
    expect((await decide({ returnId: ret.id, status: "returned" }, { Cookie: adminCookie })).status).toBe(409);
    expect(await stockOf(stool)).toBe(9);
    await settleMail();
  });
});

describe("the staff's returns queue", () => {
  it("lists waiting returns oldest first, pages of 10, by state; the page is the shop's only", async () => {
    const customer = await newCustomer("ret-queue");
    const vase = await item("vase", 2000, 50);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const orderId = await deliveredOrder(customer, [[vase, 1]]);
      const [line] = await linesOf(orderId);
      ids.push(
        (
          await requestReturn(customer.user.id, orderId, {
            reason: "damaged",
            details: `Chipped ${i}`,
            lines: [{ orderItemId: line!.id, quantity: 1 }],
          })
        ).id,
      );
    }
    await decideReturn(ids[1]!, "rejected", "No damage in the photos.", BUILTIN_OWNER);
    const open = await listReturnsPage({ status: "open" }, adminWindow(1));
    const mine = open.rows.filter((r) => ids.includes(r.id)).map((r) => r.id);
    expect(mine).toEqual([ids[0], ids[2]]);
    expect(open.rows.find((r) => r.id === ids[0])).toMatchObject({
      customer: customer.email,
      units: 1,
      refundAmount: 2000 + 1 + gstOn(2000),
    }); // the whole order: its ₹1 shipping too
    expect((await listReturnsPage({ status: "rejected" }, adminWindow(1))).rows.map((r) => r.id)).toContain(ids[1]);

    const adminCookie = mergeCookies([await grantAdmin(getRequest("/"))]);
    const page = await call(adminReturnsPage.loader, getRequest("/admin/returns?status=nonsense", { Cookie: adminCookie }));
    expect(asRecord(page.body)).toMatchObject({ status: "open", error: null });
    expect((await call(adminReturnsPage.loader, getRequest("/admin/returns?page=-3", { Cookie: adminCookie }))).status).toBe(404);
    const guest = await call(adminReturnsPage.loader, getRequest("/admin/returns", { Cookie: await browserOf(customer) }));
    expect(guest.status).toBe(302);
    expect(guest.headers.get("Location")).toBe("/");
  });
});
