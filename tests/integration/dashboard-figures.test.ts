// The dashboard's charts (app/models/dashboard/figures.server.ts): each figure from rows made
// here, on India's calendar days; revenue by the one rule (cancelled orders do not count);
// returns and refunds in the range; the pieces low in stock; and the page's ?range= parameter.
import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import type { OrderStatus, PaymentMethod } from "~/lib/db-schema";
import { defineVariants } from "~/models/catalogue/variant-writes.server";
import { dashboardFigures, REMOVED_PRODUCT } from "~/models/dashboard/figures.server";
import { BUILTIN_OWNER } from "~/models/staff/staff.server";
import * as dashboard from "~/routes/admin._index";
import { DashboardQuerySchema, LOW_STOCK, parseDashboardQuery } from "~/utils/dashboard";
import { grantAdmin } from "~/web/sign-in.server";
import { getRequest, mergeCookies } from "../support/requests";
import { asRecord, call } from "../support/route-calls";

const uid = () => crypto.randomBytes(5).toString("hex");
// A 'now' far ahead, so that only the rows made here fall into its windows: 20 Jan 2100, 11:30 in India.
const NOW = new Date("2100-01-20T06:00:00.000Z");

let customer = 0;
let category = 0;
let otherCategory = 0;

beforeAll(async () => {
  await ready;
  const now = new Date().toISOString();
  customer = (
    await db
      .insertInto("users")
      .values({
        name: "Figures",
        email: `figures-${uid()}@example.com`,
        mobile: null,
        passwordHash: null,
        emailVerifiedAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  const cat = async (title: string) =>
    (
      await db
        .insertInto("categories")
        .values({
          title,
          slug: `${title.toLowerCase()}-${uid()}`,
          description: "Made by a test.",
          imgPath: "/x.svg",
          createdAt: now,
          updatedAt: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
  category = await cat("Figures Sofas");
  otherCategory = await cat("Figures Beds");
});

async function item(title: string, categoryId: number, stock = 20, madeToOrder = 0) {
  const now = new Date().toISOString();
  return (
    await db
      .insertInto("items")
      .values({
        categoryId,
        title,
        slug: `figures-${uid()}`,
        description: "Made by a test.",
        price: 1000,
        imgPath: "/x.svg",
        stock,
        madeToOrder,
        createdAt: now,
        updatedAt: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
}

async function order(
  createdAt: string,
  fields: { status?: OrderStatus; total?: number; paymentMethod?: PaymentMethod; couponCode?: string; discount?: number } = {},
  lines: { itemId: number | null; quantity: number; unitPrice: number; discount?: number }[] = [],
) {
  const total = fields.total ?? 1000;
  const id = (
    await db
      .insertInto("orders")
      .values({
        userId: customer,
        status: fields.status ?? "processing",
        paymentMethod: fields.paymentMethod ?? "cod",
        paymentOrderId: null,
        paymentId: null,
        idempotencyKey: null,
        subtotal: total,
        shipping: 0,
        gst: 0,
        total,
        discount: fields.discount ?? 0,
        couponCode: fields.couponCode ?? null,
        shipName: "Figures",
        shipAddress: "1 Test Road",
        shipCity: "Pune",
        shipState: "Maharashtra",
        shipPincode: "411001",
        shipPhone: "9876543210",
        shipEmail: "figures@example.com",
        carrier: null,
        trackingNumber: null,
        createdAt,
        updatedAt: createdAt,
      })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  for (const l of lines)
    await db
      .insertInto("orderItems")
      .values({
        orderId: id,
        itemId: l.itemId,
        title: "Line",
        slug: "line",
        imgPath: "/x.svg",
        quantity: l.quantity,
        unitPrice: l.unitPrice,
        discount: l.discount ?? 0,
      })
      .execute();
  return id;
}

describe("dashboard figures", () => {
  it("the range parameter: 30 or 90; anything else is the default, 30 days", () => {
    const parse = (q: string) => parseDashboardQuery(new URL(`http://shop.test/admin${q}`)).range;
    expect(parse("")).toBe(30);
    expect(parse("?range=90")).toBe(90);
    expect(parse("?range=30")).toBe(30);
    for (const bad of ["?range=abc", "?range=7", "?range=", "?range=90.0", "?range=-90", "?range=9e1"]) expect(parse(bad), bad).toBe(30);
    expect(DashboardQuerySchema.parse({ range: ["90"] }).range).toBe(30);
  });

  it("per India's calendar day: 23:59 and 00:01 fall on two days; cancelled orders are counted but bring no revenue", async () => {
    const sofa = await item("Figures Teak Sofa", category);
    const bed = await item("Figures King Bed", otherCategory);
    // 18 Jan 2100, 23:59 in India is 18:29 UTC; 19 Jan, 00:01 in India is 18:31 UTC the same UTC day.
    await order("2100-01-18T18:29:00.000Z", { total: 1_000, paymentMethod: "online" }, [{ itemId: sofa, quantity: 1, unitPrice: 1_000 }]);
    await order("2100-01-18T18:31:00.000Z", { total: 2_500, couponCode: "WELCOME10", discount: 250 }, [
      { itemId: sofa, quantity: 2, unitPrice: 1_000, discount: 200 },
      { itemId: bed, quantity: 1, unitPrice: 500, discount: 50 },
    ]);
    // Cancelled: an order and a status, no revenue, no product sale, no coupon use.
    await order("2100-01-19T05:00:00.000Z", { status: "cancelled", total: 9_000, couponCode: "WELCOME10", discount: 900 }, [
      { itemId: bed, quantity: 9, unitPrice: 1_000 },
    ]);
    await order("2100-01-20T05:00:00.000Z", { status: "delivered", total: 4_000, paymentMethod: "online" }, [
      { itemId: null, quantity: 1, unitPrice: 4_000 },
    ]);
    // Before the 30 days (21 Dec 2099 in India): in the 90 days only. After today: in neither.
    await order("2099-12-21T05:00:00.000Z", { status: "shipped", total: 700 }, [{ itemId: bed, quantity: 1, unitPrice: 700 }]);
    await order("2100-01-20T18:31:00.000Z", { total: 123 });

    const f = await dashboardFigures(30, NOW);
    expect(f).toMatchObject({ range: 30, from: "2099-12-22", to: "2100-01-20" });
    expect(f.days).toHaveLength(30);
    expect(f.days[0]!.day).toBe("2099-12-22");
    const byDay = Object.fromEntries(f.days.filter((d) => d.orders > 0).map((d) => [d.day, d]));
    expect(byDay).toEqual({
      "2100-01-18": { day: "2100-01-18", orders: 1, revenue: 1_000 },
      "2100-01-19": { day: "2100-01-19", orders: 2, revenue: 2_500 },
      "2100-01-20": { day: "2100-01-20", orders: 1, revenue: 4_000 },
    });
    expect(f.totals).toEqual({ orders: 4, revenue: 7_500 });
    expect(f.byStatus).toEqual([
      { status: "processing", orders: 2 },
      { status: "shipped", orders: 0 },
      { status: "delivered", orders: 1 },
      { status: "cancelled", orders: 1 },
    ]);
    expect(f.payments).toEqual([
      { method: "online", orders: 2, revenue: 5_000 },
      { method: "cod", orders: 2, revenue: 2_500 },
    ]);
    // A line's revenue: quantity × price less its discount.
    expect(f.topProducts.map((p) => [p.label, p.value, p.count])).toEqual([
      [REMOVED_PRODUCT, 4_000, 1],
      ["Figures Teak Sofa", 2_800, 3],
      ["Figures King Bed", 450, 1],
    ]);
    expect(f.topCategories.map((c) => [c.label, c.value, c.count])).toEqual([
      [REMOVED_PRODUCT, 4_000, 1],
      ["Figures Sofas", 2_800, 3],
      ["Figures Beds", 450, 1],
    ]);
    expect(f.coupons).toEqual([{ key: "WELCOME10", label: "WELCOME10", value: 250, count: 1 }]);

    const ninety = await dashboardFigures(90, NOW);
    expect(ninety.days).toHaveLength(90);
    expect(ninety.totals).toEqual({ orders: 5, revenue: 8_200 });
    expect(ninety.byStatus.find((s) => s.status === "shipped")!.orders).toBe(1);
    expect(ninety.topCategories.find((c) => c.label === "Figures Beds")!.value).toBe(1_150);
  });

  it("an order cancelled later leaves the revenue of its day", async () => {
    const at = "2100-01-10T10:00:00.000Z";
    const id = await order(at, { total: 3_333 });
    const before = (await dashboardFigures(30, NOW)).days.find((d) => d.day === "2100-01-10")!;
    expect(before).toEqual({ day: "2100-01-10", orders: 1, revenue: 3_333 });
    await db.updateTable("orders").set({ status: "cancelled" }).where("id", "=", id).execute();
    const after = (await dashboardFigures(30, NOW)).days.find((d) => d.day === "2100-01-10")!;
    expect(after).toEqual({ day: "2100-01-10", orders: 1, revenue: 0 });
  });

  it("returns and refunds asked for in the range, by status, with their amounts", async () => {
    const inRange = "2100-01-15T10:00:00.000Z";
    const orderId = await order(inRange, { status: "delivered", total: 5_000 });
    const ret = (status: "requested" | "approved" | "rejected" | "returned", refundAmount: number, createdAt: string) =>
      db
        .insertInto("returnRequests")
        .values({
          orderId,
          userId: customer,
          status,
          reason: "damaged",
          details: "",
          staffNote: null,
          refundAmount,
          createdAt,
          updatedAt: createdAt,
        })
        .execute();
    await ret("requested", 1_000, inRange);
    await ret("returned", 2_000, inRange);
    await ret("returned", 500, inRange);
    await ret("approved", 9_999, "2099-11-01T10:00:00.000Z");
    const paymentOrderId = `order_fig${uid()}`;
    await db
      .insertInto("paymentOrders")
      .values({
        id: paymentOrderId,
        userId: customer,
        amountPaise: 500_000,
        currency: "INR",
        status: "paid",
        paymentId: `pay_fig${uid()}`,
        checkout: null,
        failure: null,
        createdAt: inRange,
        updatedAt: inRange,
      })
      .execute();
    const refund = (status: "pending" | "processed" | "failed", amount: number, createdAt: string) =>
      db
        .insertInto("refunds")
        .values({
          paymentOrderId,
          paymentId: `pay_${uid()}`,
          orderId,
          amount,
          reason: "returned",
          idempotencyKey: uid(),
          gatewayKey: uid(),
          status,
          gatewayRefundId: null,
          failureReason: null,
          sendingUntil: null,
          actor: "admin",
          actorUserId: null,
          createdAt,
          updatedAt: createdAt,
          processedAt: null,
        })
        .execute();
    await refund("processed", 2_000, inRange);
    await refund("pending", 500, inRange);
    await refund("failed", 300, "2100-01-21T10:00:00.000Z");
    const f = await dashboardFigures(30, NOW);
    expect(f.returns).toEqual([
      { status: "requested", count: 1, amount: 1_000 },
      { status: "approved", count: 0, amount: 0 },
      { status: "rejected", count: 0, amount: 0 },
      { status: "returned", count: 2, amount: 2_500 },
    ]);
    expect(f.refunds).toEqual([
      { status: "pending", count: 1, amount: 500 },
      { status: "processed", count: 1, amount: 2_000 },
      { status: "failed", count: 0, amount: 0 },
    ]);
  });

  it("low stock is per variant on sale: at or under the mark, fewest first, made-to-order pieces aside", async () => {
    const totalBefore = (await dashboardFigures(30, NOW)).lowStock.total;
    const none = await item("Figures Empty Shelf", category, 0);
    await item("Figures Two Chairs", category, 2);
    await item("Figures Made To Order", category, 0, 1);
    await item("Figures Plenty", category, LOW_STOCK + 1);
    // A sofa with plenty in all (29 units) but no velvet left, and a silk variant no longer sold.
    const sofa = await item("Figures Sofa", category, 0);
    await db.transaction().execute((trx) =>
      defineVariants(
        trx,
        sofa,
        {
          options: [{ name: "Fabric", values: ["Linen", "Velvet", "Silk"] }],
          variants: [
            { values: ["Linen"], sku: `FIG-${uid()}-L`.toUpperCase(), price: 1000, stock: 29 },
            { values: ["Velvet"], sku: `FIG-${uid()}-V`.toUpperCase(), price: 1000, stock: 0 },
            { values: ["Silk"], sku: `FIG-${uid()}-S`.toUpperCase(), price: 1000, stock: 0, active: false },
          ],
        },
        BUILTIN_OWNER,
      ),
    );
    const f = await dashboardFigures(30, NOW);
    const mine = f.lowStock.pieces.filter((p) => p.title.startsWith("Figures"));
    // The demo catalogue has low variants of its own: the chart shows the ten fewest, ours among the empty ones.
    expect(mine.map((p) => [p.id, p.label, p.stock])).toEqual([
      [none, "", 0],
      [sofa, "Velvet", 0],
    ]);
    const stocks = f.lowStock.pieces.map((p) => p.stock);
    expect(stocks).toEqual([...stocks].sort((a, b) => a - b));
    expect(f.lowStock.pieces.every((p) => p.stock <= LOW_STOCK)).toBe(true);
    // Counted: the empty shelf, the two chairs and the velvet; not Plenty, the made-to-order piece, linen or silk.
    expect(f.lowStock.total - totalBefore).toBe(3);
    const counted = await db
      .selectFrom("productVariants")
      .innerJoin("items", "items.id", "productVariants.itemId")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("items.madeToOrder", "=", 0)
      .where("productVariants.active", "=", 1)
      .where("productVariants.stock", "<=", LOW_STOCK)
      .executeTakeFirstOrThrow();
    expect(f.lowStock.total).toBe(Number(counted.n));
  });

  it("the page: ?range=90 shows 90 days; ?range=abc is the default 30 days, not an error", async () => {
    const cookie = mergeCookies([await grantAdmin(getRequest("/"))]);
    for (const [query, days] of [
      ["?range=90", 90],
      ["?range=abc", 30],
      ["", 30],
    ] as const) {
      const answer = await call(dashboard.loader, getRequest(`/admin${query}`, { Cookie: cookie }));
      expect(answer.status, query).toBe(200);
      const figures = asRecord(asRecord(answer.body).figures);
      expect(figures.range, query).toBe(days);
      expect((figures.days as unknown[]).length, query).toBe(days);
    }
  });
});
