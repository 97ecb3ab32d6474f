// The dashboard's sums kept on write (migration 0029, ADR 0032): orders placed through the real
// checkout, with and without a coupon, moved along and cancelled by the status model, a product
// deleted, an order deleted; after each step the kept sums equal the same sums computed straight
// from the orders and their lines, and the dashboard's figures follow.
import { beforeAll, describe, expect, it } from "vitest";
import { sql } from "kysely";
import { ready } from "~/lib/boot.server";
import { db, isPostgres } from "~/lib/db.server";
import { deleteProduct } from "~/models/catalogue/admin-products.server";
import { createTestCoupon } from "../support/coupons";
import { dashboardFigures, REMOVED_PRODUCT } from "~/models/dashboard/figures.server";
import { changeOrderStatus } from "~/models/orders/status.server";
import type { OrderStatus } from "~/lib/db-schema";
import { indianDay } from "~/utils/chart-format";
import { countsAsRevenue, ORDER_STATUSES } from "~/utils/order-status";
import { createTestItem } from "../support/items";
import type { Customer } from "../support/orders";
import { addToCart, checkoutFields, directCustomer, placeViaApi } from "../support/orders";
import { lockHolder, queuedBehind } from "../support/pg-locks";
import { jsonRequest } from "../support/requests";
import { asRecord, call } from "../support/route-calls";
import * as cartCouponApi from "~/routes/api.cart.coupon";
import { BUILTIN_OWNER } from "~/models/staff/staff.server";

const ADMIN = { actor: "admin", userId: null, staff: BUILTIN_OWNER } as const;

/** The sums as the migration's triggers should keep them, computed from the orders themselves. */
async function fromOrders() {
  const day = isPostgres(db) ? sql`shop_ist_day(o.created_at)` : sql`date(o.created_at, '+330 minutes')`;
  const orders = await sql<Record<string, unknown>>`
    select ${day} as day, o.status, o.payment_method, coalesce(o.coupon_code, '') as coupon_code,
      count(*) as orders, sum(o.total) as revenue, sum(o.discount) as discount
    from orders o group by 1, 2, 3, 4 order by 1, 2, 3, 4`.execute(db);
  const items = await sql<Record<string, unknown>>`
    select ${day} as day, o.status, coalesce(l.item_id, 0) as item_id, sum(l.quantity) as units,
      sum(l.quantity * l.unit_price - l.discount) as revenue
    from order_items l join orders o on o.id = l.order_id group by 1, 2, 3 order by 1, 2, 3`.execute(db);
  const categories = await sql<Record<string, unknown>>`
    select ${day} as day, o.status, coalesce(i.category_id, 0) as category_id, sum(l.quantity) as units,
      sum(l.quantity * l.unit_price - l.discount) as revenue
    from order_items l join orders o on o.id = l.order_id left join items i on i.id = l.item_id
    group by 1, 2, 3 order by 1, 2, 3`.execute(db);
  return { orders: numbers(orders.rows), items: numbers(items.rows), categories: numbers(categories.rows) };
}

/** The kept sums, less the rows whose orders all moved elsewhere (they stay, at zero). */
async function kept() {
  const orders = await sql<Record<string, unknown>>`
    select day, status, payment_method, coupon_code, orders, revenue, discount
    from order_day_figures where orders <> 0 order by 1, 2, 3, 4`.execute(db);
  const items = await sql<Record<string, unknown>>`
    select day, status, item_id, units, revenue from item_day_figures where units <> 0 order by 1, 2, 3`.execute(db);
  const categories = await sql<Record<string, unknown>>`
    select day, status, category_id, units, revenue from category_day_figures where units <> 0 order by 1, 2, 3`.execute(db);
  return { orders: numbers(orders.rows), items: numbers(items.rows), categories: numbers(categories.rows) };
}

/** PostgreSQL's sums are bigint (strings); both databases' rows as plain numbers. */
function numbers(rows: Record<string, unknown>[]) {
  return rows.map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "string" && /^-?\d+$/.test(v) ? Number(v) : v])),
  );
}

/**
 * Each period's running totals per product against the orders of its window's days, by the rule
 * of app/utils/order-status.ts (the triggers write it in SQL: this is where they must agree).
 */
async function expectPeriodsInStep(step: string) {
  const day = isPostgres(db) ? sql`shop_ist_day(o.created_at)` : sql`date(o.created_at, '+330 minutes')`;
  for (const w of await db.selectFrom("figureWindows").selectAll().execute()) {
    const all = await sql<{ itemId: number; status: OrderStatus; units: number; revenue: number }>`
      select coalesce(l.item_id, 0) as item_id, o.status, sum(l.quantity) as units, sum(l.quantity * l.unit_price - l.discount) as revenue
      from order_items l join orders o on o.id = l.order_id
      where ${day} between ${w.startDay} and ${w.endDay} group by 1, 2`.execute(db);
    const expected = new Map<number, { units: number; revenue: number }>();
    for (const r of numbers(all.rows) as unknown as typeof all.rows) {
      if (!countsAsRevenue(r.status)) continue;
      const sum = expected.get(r.itemId) ?? { units: 0, revenue: 0 };
      expected.set(r.itemId, { units: sum.units + r.units, revenue: sum.revenue + r.revenue });
    }
    const keptRows = await db
      .selectFrom("productPeriodFigures")
      .select(["itemId", "units", "revenue"])
      .where("period", "=", w.period)
      .where("units", "<>", 0)
      .execute();
    const got = new Map(keptRows.map((r) => [Number(r.itemId), { units: Number(r.units), revenue: Number(r.revenue) }]));
    expect(got, `${step}: ${w.period} days`).toEqual(expected);
  }
}

async function expectInStep(step: string) {
  expect(await kept(), step).toEqual(await fromOrders());
  await expectPeriodsInStep(step);
}

let customer: Customer;
let sofa = 0;
let lamp = 0;

async function place(lines: [number, number][], coupon?: string): Promise<number> {
  for (const [item, quantity] of lines) await addToCart(customer, item, quantity);
  if (coupon) {
    const applied = await call(cartCouponApi.action, jsonRequest("POST", "/api/cart/coupon", { couponCode: coupon }, customer.auth));
    expect(applied.status).toBe(200);
  }
  const placed = await placeViaApi(customer, checkoutFields());
  expect(placed.status).toBe(201);
  return Number(asRecord(placed.body).id);
}

beforeAll(async () => {
  await ready;
  customer = await directCustomer("summaries");
  sofa = await createTestItem(`summary-sofa-${Date.now()}`, { price: 40000 });
  lamp = await createTestItem(`summary-lamp-${Date.now()}`, { price: 1500 });
});

describe("the dashboard's sums kept on write", () => {
  it("follow placing, moving, cancelling and deleting orders and products, and the figures read them", async () => {
    await expectInStep("the demo shop, backfilled by the migration");
    // The windows set to today's periods: from here on the triggers keep them.
    await dashboardFigures(30);
    await dashboardFigures(90);
    await expectInStep("the windows moved to today's periods");
    const code = (await createTestCoupon(`SUM${Date.now().toString(36).toUpperCase()}`)).code;

    const plain = await place([[sofa, 1]]);
    const withCoupon = await place(
      [
        [sofa, 2],
        [lamp, 3],
      ],
      code,
    );
    const third = await place([[lamp, 1]]);
    await expectInStep("three orders placed, one with a coupon");

    await changeOrderStatus(plain, "shipped", ADMIN);
    await changeOrderStatus(plain, "delivered", ADMIN);
    await expectInStep("an order shipped and delivered");

    const before = await dashboardFigures(30);
    expect(before.coupons.find((c) => c.key === code)?.count).toBe(1);
    await changeOrderStatus(withCoupon, "cancelled", { actor: "customer", userId: customer.user.id });
    await expectInStep("the coupon's order cancelled by its customer");
    const after = await dashboardFigures(30);
    expect(after.coupons.find((c) => c.key === code)).toBeUndefined();
    expect(after.byStatus.find((s) => s.status === "cancelled")!.orders).toBe(
      before.byStatus.find((s) => s.status === "cancelled")!.orders + 1,
    );
    const today = indianDay(new Date());
    const withCouponTotal = Number(
      (await db.selectFrom("orders").select("total").where("id", "=", withCoupon).executeTakeFirstOrThrow()).total,
    );
    expect(after.days.find((d) => d.day === today)!.revenue).toBe(before.days.find((d) => d.day === today)!.revenue - withCouponTotal);
    const lampBefore = before.topProducts.find((p) => p.key === String(lamp))!;
    expect(after.topProducts.find((p) => p.key === String(lamp))!.count).toBe(lampBefore.count - 3);

    await changeOrderStatus(third, "shipped", ADMIN);
    await changeOrderStatus(third, "cancelled", ADMIN);
    await expectInStep("a shipped order cancelled by the shop");
    // The lamp's only line left counting was cancelled: it leaves the ranking (its rows stay at zero).
    expect((await dashboardFigures(30)).topProducts.find((p) => p.key === String(lamp))).toBeUndefined();

    // A product moved to another category takes its sales with it (the category it is in now).
    const [first, second] = await db.selectFrom("categories").select(["id", "title"]).orderBy("id").limit(2).execute();
    await db.updateTable("items").set({ categoryId: second!.id }).where("id", "=", sofa).execute();
    await expectInStep("a sold product moved to another category");
    const moved = await dashboardFigures(30);
    const sofaSales = moved.topProducts.find((p) => p.key === String(sofa))!;
    expect(moved.topCategories.find((c) => c.key === String(second!.id))!.value).toBeGreaterThanOrEqual(sofaSales.value);
    await db.updateTable("items").set({ categoryId: first!.id }).where("id", "=", sofa).execute();
    await expectInStep("and back");

    await deleteProduct(sofa, BUILTIN_OWNER);
    await expectInStep("a sold product deleted: its lines lose their product");
    const removed = (await dashboardFigures(30)).topProducts.find((p) => p.key === "removed")!;
    expect(removed.label).toBe(REMOVED_PRODUCT);
    expect(removed.count).toBe(1);
    const removedCategory = (await dashboardFigures(30)).topCategories.find((c) => c.key === "removed")!;
    expect(removedCategory).toMatchObject({ label: REMOVED_PRODUCT, value: removed.value, count: 1 });

    // No path of the shop deletes an order; a manual one keeps the sums true all the same.
    await db.deleteFrom("orders").where("id", "=", plain).execute();
    await expectInStep("an order deleted by hand, with its lines");
    // One order in each status, each counted or not by the one rule.
    await place([[lamp, 1]]);
    const shipped = await place([[lamp, 2]]);
    await changeOrderStatus(shipped, "shipped", ADMIN);
    const delivered = await place([[lamp, 4]]);
    await changeOrderStatus(delivered, "shipped", ADMIN);
    await changeOrderStatus(delivered, "delivered", ADMIN);
    await expectInStep("an order in each status");
    const statuses = await db.selectFrom("orders").select("status").distinct().execute();
    expect(ORDER_STATUSES.filter((st) => statuses.some((r) => r.status === st))).toEqual([...ORDER_STATUSES]);

    // A window moved far ahead and back (another 'now'): the days leaving and entering are counted once.
    await dashboardFigures(30, new Date("2100-01-20T06:00:00.000Z"));
    await expectInStep("the 30 days' window moved to 2100");
    await dashboardFigures(30);
    await expectInStep("and back to today");
  });

  it("a line written while a window moves: the move waits for the write to commit, and counts it once", async () => {
    await dashboardFigures(30);
    await expectInStep("today's window");
    const at = new Date().toISOString();
    // An order and its line by SQL, as an operator's repair would write them: the triggers count them.
    const write = [
      `insert into orders (user_id, status, payment_method, subtotal, shipping, gst, total, discount, ship_name, ship_address,
        ship_city, ship_state, ship_pincode, ship_phone, ship_email, created_at, updated_at)
        values (${customer.user.id}, 'processing', 'cod', 3000, 0, 0, 3000, 0, 'Race', '1 Test Road', 'Pune', 'Maharashtra',
          '411001', '9876543210', 'race@example.com', '${at}', '${at}')`,
      `insert into order_items (order_id, item_id, title, slug, img_path, quantity, unit_price, discount)
        select max(id), ${lamp}, 'Race lamp', 'race-lamp', '/x.svg', 2, 1500, 0 from orders`,
    ];
    const moveAway = () => dashboardFigures(30, new Date("2100-01-20T06:00:00.000Z"));
    const holder = await lockHolder();
    if (holder) {
      // PostgreSQL: the write's triggers hold the windows FOR SHARE until it commits; the move's
      // FOR UPDATE queues behind them, then reads the committed line among the days that left.
      try {
        const [moved] = await queuedBehind(holder, { sql: write.join(";\n") }, [moveAway]);
        expect(moved!.status).toBe("fulfilled");
      } finally {
        await holder.end();
      }
    } else {
      // SQLite has one writer: the two run one after the other whichever starts first.
      await Promise.all([
        db.transaction().execute(async (trx) => {
          for (const statement of write) await sql.raw(statement).execute(trx);
        }),
        moveAway(),
      ]);
    }
    await expectInStep("a line written while the window moved away");
    await dashboardFigures(30);
    await expectInStep("and moved back");
  });
});
