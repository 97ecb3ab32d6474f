// Every admin write records who made it: the staff member signed in (their id and 'Name (Role)'),
// the built-in owner of ADMIN_PASSWORD, or the shop's own jobs; and for prices, stock, order
// status and coupons, the values before and after.
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import * as couponsPage from "~/routes/admin.coupons";
import * as orderPage from "~/routes/admin.orders_.$orderId";
import { grantAdmin } from "~/web/sign-in.server";
import { saveProductForm } from "../support/admin-products";
import { createTestCoupon } from "../support/coupons";
import { createTestItem } from "../support/items";
import { addToCart, checkoutFields, newCustomer, placeViaApi } from "../support/orders";
import { formRequest, getRequest, mergeCookies } from "../support/requests";
import { asRecord, call } from "../support/route-calls";
import type { TestStaff } from "../support/staff";
import { createStaff, staffCookie } from "../support/staff";

let manager: TestStaff;
let fulfilment: TestStaff;

/** The newest audit row about one object. */
async function lastAudit(entity: string, entityId: number) {
  const row = await db
    .selectFrom("auditLog")
    .selectAll()
    .where("entity", "=", entity as never)
    .where("entityId", "=", String(entityId))
    .orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  return { ...row, details: row.details === null ? null : (JSON.parse(row.details) as Record<string, unknown>) };
}

async function placedOrder(tag: string): Promise<number> {
  const customer = await newCustomer(tag);
  await addToCart(customer, await createTestItem(`${tag}-piece`, { price: 2500, stock: 10 }), 1);
  const placed = await placeViaApi(customer, checkoutFields());
  expect(placed.status).toBe(201);
  return asRecord(placed.body).id as number;
}

beforeAll(async () => {
  await ready;
  manager = await createStaff("manager", { name: "Asha Rao" });
  fulfilment = await createStaff("fulfilment", { name: "Vikram Das" });
  // Staff passwords are hashed with scrypt: slow on a busy machine.
}, 60_000);

describe("the audit trail names who made a change", () => {
  it("a manager's price and stock change: their id, 'Asha Rao (Manager)', the price and stock before and after", async () => {
    const id = await createTestItem("audit-actor-price", { price: 4999, stock: 8 });
    await saveProductForm(await staffCookie(manager), id, { price: "5499", stockDelta: "+2" });
    const row = await lastAudit("product", id);
    expect(row).toMatchObject({ action: "update", staffId: manager.id, actor: "Asha Rao (Manager)" });
    expect(row.details).toEqual({ price: [4999, 5499], stock: [8, 10] });
  });

  it("fulfilment's status change on the order page: their id and label, the status before and after", async () => {
    const orderId = await placedOrder("audit-actor-status");
    const answer = await call(
      orderPage.action,
      formRequest(
        `/admin/orders/${orderId}`,
        { intent: "status", status: "shipped", carrier: "Delhivery", trackingNumber: "DL123" },
        {
          Cookie: await staffCookie(fulfilment),
        },
      ),
      { orderId: String(orderId) },
    );
    expect([302, 303]).toContain(answer.status);
    const row = await lastAudit("order", orderId);
    expect(row).toMatchObject({ action: "status", staffId: fulfilment.id, actor: "Vikram Das (Fulfilment)" });
    expect(row.details).toEqual({ status: ["processing", "shipped"], carrier: [null, "Delhivery"], trackingNumber: [null, "DL123"] });
  });

  it("a coupon's edit and pause: the value, limits and active state before and after", async () => {
    const coupon = await createTestCoupon("AUDITACTOR", { value: 10, usageLimit: 50 });
    const cookie = await staffCookie(manager);
    const fields = {
      intent: "update",
      id: String(coupon.id),
      code: "AUDITACTOR",
      kind: "percent",
      value: "15",
      minSubtotal: "0",
      maxDiscount: "",
      validFrom: "",
      validUntil: "",
      usageLimit: "100",
      perCustomerLimit: "",
    };
    const edited = await call(couponsPage.action, formRequest("/admin/coupons", fields, { Cookie: cookie }));
    expect([302, 303]).toContain(edited.status);
    const update = await lastAudit("coupon", coupon.id);
    expect(update).toMatchObject({ action: "update", staffId: manager.id, actor: "Asha Rao (Manager)" });
    expect(update.details).toEqual({ value: [10, 15], usageLimit: [50, 100] });

    const paused = await call(
      couponsPage.action,
      formRequest("/admin/coupons", { intent: "pause", id: String(coupon.id) }, { Cookie: cookie }),
    );
    expect([302, 303]).toContain(paused.status);
    expect((await lastAudit("coupon", coupon.id)).details).toEqual({ active: [true, false] });
  });

  it("the built-in owner of ADMIN_PASSWORD is recorded as such, with no staff id", async () => {
    const id = await createTestItem("audit-actor-builtin", { price: 1200, stock: 3 });
    await saveProductForm(mergeCookies([await grantAdmin(getRequest("/"))]), id, { price: "1300" });
    expect(await lastAudit("product", id)).toMatchObject({ staffId: null, actor: "Built-in owner", details: { price: [1200, 1300] } });
  });
});
