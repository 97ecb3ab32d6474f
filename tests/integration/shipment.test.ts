// Shipment details: the shop records the carrier and tracking number when it
// marks an order shipped (admin page and API); the customer sees them on /orders and in the
// 'shipped' mail. Markup or an over-long value is a 400 beside the field, and nothing is written.
import { beforeAll, describe, expect, it } from "vitest";
import { grantAdmin } from "~/web/sign-in.server";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { settleMail } from "~/lib/mail.server";
import { offlinePayment } from "~/lib/payments.server";
import { getOrder } from "~/models/orders/read.server";
import { changeOrderStatus, SHIP_UNPAID_REFUSED, SHIPMENT_ONLY_WHEN_SHIPPED } from "~/models/orders/status.server";
import { can, PERMISSION_REFUSED, ROLES } from "~/utils/staff-permissions";
import * as orderPage from "~/routes/admin.orders_.$orderId";
import * as changeStatus from "~/routes/api.orders_.changeStatus";
import * as loginRoute from "~/routes/login";
import * as customerOrders from "~/routes/orders";
import * as createOrder from "~/routes/rzp.create-order";
import * as m0009 from "../../migrations/2026-11-23-0009-shipment-details";
import { mailsTo } from "../support/outbox";
import { formRequest, getRequest, jsonRequest, mergeCookies } from "../support/requests";
import type { Answer } from "../support/route-calls";
import { asRecord, call, cookieJar, expectApiError } from "../support/route-calls";
import type { Customer } from "../support/orders";
import { addToCart, checkoutFields, itemMaker, newCustomer, PASSWORD, placeViaApi } from "../support/orders";

let adminCookie = "";

beforeAll(async () => {
  await ready;
  adminCookie = mergeCookies([await grantAdmin(getRequest("/"))]);
});

const item = itemMaker("ship");

async function codOrder(customer: Customer): Promise<number> {
  await addToCart(customer, await item("ship-chair", 2400, 10), 1);
  const placed = await placeViaApi(customer, checkoutFields());
  expect(placed.status).toBe(201);
  return Number(asRecord(placed.body).id);
}

function adminShip(orderId: number, fields: Record<string, string>) {
  const path = `/admin/orders/${orderId}`;
  return call(orderPage.action, formRequest(path, { intent: "status", ...fields }, { Cookie: adminCookie }), {
    orderId: String(orderId),
  });
}

function apiChange(body: Record<string, unknown>) {
  return call(changeStatus.action, jsonRequest("PUT", "/api/orders/changeStatus", body, { Cookie: adminCookie }));
}

function pageFailure(answer: Answer, status: number) {
  expect(answer.status).toBe(status);
  const body = asRecord(answer.body);
  expect(body.ok).toBe(false);
  return body as { formError: string; fieldErrors: Record<string, string> };
}

function orderRow(id: number) {
  return db.selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
}

async function eventCount(orderId: number) {
  return (await db.selectFrom("orderEvents").select("id").where("orderId", "=", orderId).execute()).length;
}

describe("shipment details", () => {
  it("the admin page records the carrier and tracking number; /orders and the 'shipped' mail show them", async () => {
    const customer = await newCustomer("ship-page");
    const orderId = await codOrder(customer);

    const answer = await adminShip(orderId, { status: "shipped", carrier: "  Delhivery ", trackingNumber: "DL-1234 5678" });
    expect(answer.status).toBe(302);
    expect(await orderRow(orderId)).toMatchObject({ status: "shipped", carrier: "Delhivery", trackingNumber: "DL-1234 5678" });
    expect(await getOrder(orderId, { userId: customer.user.id, isAdmin: false })).toMatchObject({
      carrier: "Delhivery",
      trackingNumber: "DL-1234 5678",
    });

    // The customer's order page.
    const login = await call(loginRoute.action, formRequest("/login", { email: customer.email, password: PASSWORD }));
    const view = await call(customerOrders.loader, getRequest("/orders", { Cookie: cookieJar(login) }));
    const listed = (asRecord(view.body).orders as { id: number; carrier: string | null; trackingNumber: string | null }[]).find(
      (o) => o.id === orderId,
    );
    expect(listed).toMatchObject({ carrier: "Delhivery", trackingNumber: "DL-1234 5678" });

    // The 'shipped' mail, once.
    await settleMail();
    const shipped = (await mailsTo(customer.email)).filter((m) => m.subject.includes(`order #${orderId} has shipped`));
    expect(shipped).toHaveLength(1);
    expect(shipped[0]!.text).toContain("Carrier: Delhivery, tracking number: DL-1234 5678");
    expect(shipped[0]!.html).toContain("Carrier: Delhivery, tracking number: DL-1234 5678");
  });

  it("a tracking number with markup or over 40 characters is a 400 beside the field; nothing is written (page and API)", async () => {
    const customer = await newCustomer("ship-bad");
    const orderId = await codOrder(customer);
    const before = await orderRow(orderId);
    const events = await eventCount(orderId);

    const markup = pageFailure(await adminShip(orderId, { status: "shipped", trackingNumber: "<b>AB123</b>" }), 400);
    expect(markup.fieldErrors.trackingNumber).toBe("Tracking number may contain only letters, digits, spaces and dashes");
    const long = pageFailure(await adminShip(orderId, { status: "shipped", trackingNumber: "A".repeat(41) }), 400);
    expect(long.fieldErrors.trackingNumber).toBe("Tracking number must be at most 40 characters");
    const carrier = pageFailure(await adminShip(orderId, { status: "shipped", carrier: "<script>x</script>" }), 400);
    expect(carrier.fieldErrors.carrier).toBe("Carrier may contain only letters, digits, spaces and . , & ' ( ) / -");

    const api = expectApiError(await apiChange({ orderId, status: "shipped", trackingNumber: '1"><img src=x>' }), 400);
    expect(api.errors?.trackingNumber).toBe("Tracking number may contain only letters, digits, spaces and dashes");
    expect(expectApiError(await apiChange({ orderId, status: "shipped", trackingNumber: 12345 }), 400).errors?.trackingNumber).toBe(
      "Tracking number must be text",
    );
    // Recorded only when shipping: with another status it is refused, not dropped.
    const cancel = expectApiError(await apiChange({ orderId, status: "cancelled", trackingNumber: "AB123" }), 400);
    expect(cancel.message).toBe(SHIPMENT_ONLY_WHEN_SHIPPED);
    expect(cancel.errors?.trackingNumber).toBe(SHIPMENT_ONLY_WHEN_SHIPPED);

    expect(await orderRow(orderId)).toEqual(before);
    expect(await eventCount(orderId)).toBe(events);
    await settleMail();
    expect((await mailsTo(customer.email)).filter((m) => m.subject.includes("has shipped"))).toHaveLength(0);

    // The API records them too; without them the order ships with none.
    expect((await apiChange({ orderId, status: "shipped", carrier: "India Post", trackingNumber: "EE123456789IN" })).status).toBe(200);
    expect(await orderRow(orderId)).toMatchObject({ status: "shipped", carrier: "India Post", trackingNumber: "EE123456789IN" });
    const other = await codOrder(await newCustomer("ship-none"));
    expect((await apiChange({ orderId: other, status: "shipped" })).status).toBe(200);
    expect(await orderRow(other)).toMatchObject({ status: "shipped", carrier: null, trackingNumber: null });
    await settleMail();
  });

  it("recording a carrier or tracking number needs a permission of its own: refused (403) with nothing written", async () => {
    const customer = await newCustomer("ship-perm");
    const orderId = await codOrder(customer);
    const before = await orderRow(orderId);
    const events = await eventCount(orderId);
    // Every role that changes statuses records shipments too; a role without the permission is refused.
    const withoutShipment = { kind: "staff", staffId: null, name: "Support desk", role: "support" } as const;
    for (const role of ROLES) expect(can(role, "orders.status") ? can(role, "orders.shipment") : true).toBe(true);
    const refused = changeOrderStatus(orderId, "shipped", {
      actor: "admin",
      userId: null,
      staff: withoutShipment,
      shipment: { carrier: "Delhivery", trackingNumber: "DL1" },
    });
    await expect(refused).rejects.toMatchObject({ status: 403, message: PERMISSION_REFUSED });
    expect(await orderRow(orderId)).toEqual(before);
    expect(await eventCount(orderId)).toBe(events);
  });

  it("an order paid on the test gateway still needs the 'ship unpaid' tick; with it, the details are recorded", async () => {
    const customer = await newCustomer("ship-test-paid");
    await addToCart(customer, await item("ship-desk", 3000, 10), 1);
    const created = await call(createOrder.action, jsonRequest("POST", "/rzp/create-order", {}, customer.auth));
    const id = asRecord(created.body).id as string;
    const paid = offlinePayment(id);
    const placed = await placeViaApi(
      customer,
      checkoutFields({
        paymentMethod: "online",
        razorpay_order_id: id,
        razorpay_payment_id: paid.paymentId,
        razorpay_signature: paid.signature,
      }),
    );
    const orderId = Number(asRecord(placed.body).id);

    const refused = pageFailure(await adminShip(orderId, { status: "shipped", carrier: "Blue Dart", trackingNumber: "BD77" }), 409);
    expect(refused.formError).toBe(SHIP_UNPAID_REFUSED);
    expect(await orderRow(orderId)).toMatchObject({ status: "processing", carrier: null, trackingNumber: null });
    const shipped = await adminShip(orderId, { status: "shipped", carrier: "Blue Dart", trackingNumber: "BD77", shipUnpaid: "on" });
    expect(shipped.status).toBe(302);
    expect(await orderRow(orderId)).toMatchObject({ status: "shipped", carrier: "Blue Dart", trackingNumber: "BD77" });
    await settleMail();
  });
});

describe("migration 2026-11-23-0009-shipment-details", () => {
  it("down drops the two columns and keeps the orders; up adds them back, empty", async () => {
    const raw = db.withoutPlugins() as unknown as Parameters<typeof m0009.up>[0];
    const orderId = await codOrder(await newCustomer("ship-migration"));
    expect((await apiChange({ orderId, status: "shipped", carrier: "DTDC", trackingNumber: "D123" })).status).toBe(200);
    const orders = (await db.selectFrom("orders").select("id").execute()).length;

    await m0009.down(raw);
    try {
      await expect(db.selectFrom("orders").select("carrier").execute()).rejects.toThrow();
      expect((await db.selectFrom("orders").select("id").execute()).length).toBe(orders);
    } finally {
      await m0009.up(raw);
    }
    expect(await orderRow(orderId)).toMatchObject({ status: "shipped", carrier: null, trackingNumber: null });
    await settleMail();
  });
});
