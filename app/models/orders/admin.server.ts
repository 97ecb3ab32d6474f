// The back-office's view of orders and the dashboard's figures, all read from the database.
import type { Db } from "~/lib/db.server";
import type { ListPage, RowWindow } from "~/lib/paging.server";
import { containsText, db as defaultDb, toCount } from "~/lib/db.server";
import { isTestPaymentId } from "~/lib/payments.server";
import type { SelectQueryBuilder } from "kysely";
import type { DB, OrderStatus } from "~/lib/db-schema";
import type { AdminListQuery } from "~/utils/admin-schemas";
import { startOfIndianDay } from "~/utils/admin-schemas";
import { indianDay } from "~/utils/chart-format";
import { orderDay } from "~/models/dashboard/figures.server";
import { NOT_REVENUE, ORDER_STATUSES } from "~/utils/order-status";

export interface AdminOrderRow {
  id: number;
  customer: string;
  itemCount: number;
  total: number;
  status: OrderStatus;
  createdAt: string;
  /** paid on the offline test gateway: no money was received */
  testPayment: boolean;
}

function orderRows(db: Db) {
  return db
    .selectFrom("orders")
    .select(["orders.id", "orders.shipName as customer", "orders.total", "orders.status", "orders.createdAt", "orders.paymentId"])
    .select((eb) =>
      eb
        .selectFrom("orderItems")
        .select((e) => e.fn.coalesce(e.fn.sum("quantity"), e.lit(0)).as("n"))
        .whereRef("orderItems.orderId", "=", "orders.id")
        .as("itemCount"),
    );
}

const toRow = (r: {
  id: number;
  customer: string;
  total: number;
  status: OrderStatus;
  createdAt: string;
  paymentId: string | null;
  itemCount: unknown;
}): AdminOrderRow => ({
  id: r.id,
  customer: r.customer,
  total: r.total,
  status: r.status,
  createdAt: r.createdAt,
  itemCount: toCount(r.itemCount as number),
  testPayment: isTestPaymentId(r.paymentId),
});

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The list's filters on any query over orders: the order number (a leading # is ignored) or
 * the shipping name; status; payment method; placed from / to a day (inclusive, India's days).
 */
function filtered<Q extends SelectQueryBuilder<DB, "orders", object>>(query: Q, filters: OrderFilters): Q {
  let q = query;
  const search = filters.q.replace(/^#/, "").trim();
  if (search) q = q.where((eb) => eb.or([containsText("orders.id", search, true), containsText("orders.shipName", search)])) as Q;
  if (filters.status !== "all") q = q.where("orders.status", "=", filters.status) as Q;
  if (filters.payment !== "all") q = q.where("orders.paymentMethod", "=", filters.payment) as Q;
  if (filters.from) q = q.where("orders.createdAt", ">=", startOfIndianDay(filters.from)) as Q;
  if (filters.to) q = q.where("orders.createdAt", "<", new Date(Date.parse(startOfIndianDay(filters.to)) + DAY_MS).toISOString()) as Q;
  return q;
}

type OrderFilters = Pick<AdminListQuery, "q" | "status" | "payment" | "from" | "to">;

export async function listOrdersPage(query: OrderFilters, window: RowWindow, db: Db = defaultDb): Promise<ListPage<AdminOrderRow>> {
  const { count } = await filtered(
    db.selectFrom("orders").select((eb) => eb.fn.countAll().as("count")),
    query,
  ).executeTakeFirstOrThrow();
  const total = toCount(count);
  const found = await filtered(orderRows(db), query)
    .orderBy("orders.createdAt", "desc")
    .orderBy("orders.id", "desc")
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  return { rows: found.map(toRow), total };
}

export type StatusCounts = Record<OrderStatus, number> & { total: number };

export async function orderStatusCounts(db: Db = defaultDb): Promise<StatusCounts> {
  // From the sums per day kept on write (migration 0029): a few rows a day, not one per order.
  const rows = await db
    .selectFrom("orderDayFigures")
    .select(["status", (eb) => eb.fn.sum<number>("orders").as("n")])
    .groupBy("status")
    .execute();
  const counts = Object.fromEntries(ORDER_STATUSES.map((s) => [s, 0])) as Record<OrderStatus, number>;
  for (const r of rows) counts[r.status] = toCount(r.n);
  return { ...counts, total: Object.values(counts).reduce((a, b) => a + b, 0) };
}

export interface StatCard {
  key: "revenue" | "orders" | "products" | "customers";
  label: string;
  value: number;
  /** percent change of the last 30 days against the 30 before; null when there was nothing before */
  change: number | null;
  /** what the last 30 days added */
  recent: number;
}

/** (recent − before) / before, as a percentage with one decimal; null when before is 0. */
export function percentChange(recent: number, before: number): number | null {
  if (before === 0) return null;
  return Math.round(((recent - before) / before) * 1000) / 10;
}

export async function dashboardStats(now = new Date(), db: Db = defaultDb) {
  const start = new Date(now.getTime() - 30 * DAY_MS).toISOString();
  const prevStart = new Date(now.getTime() - 60 * DAY_MS).toISOString();
  const end = now.toISOString();
  const windows = { recent: [start, end], before: [prevStart, start] } as const;

  async function inWindow(table: "orders" | "items" | "users", [from, to]: readonly [string, string], revenue = false) {
    if (table === "orders") {
      // The instants' days in India bound the day's index (migration 0027), which holds status,
      // total and created_at: the window's orders are read from that index range alone.
      const day = orderDay(db);
      const r = await db
        .selectFrom("orders")
        .select((eb) => (revenue ? eb.fn.coalesce(eb.fn.sum("total"), eb.lit(0)) : eb.fn.countAll()).as("v"))
        .where(day, ">=", indianDay(new Date(from)))
        .where(day, "<=", indianDay(new Date(to)))
        .where("createdAt", ">=", from)
        .where("createdAt", "<", to)
        .$if(revenue, (q) => q.where("status", "not in", [...NOT_REVENUE]))
        .executeTakeFirstOrThrow();
      return toCount(r.v as number);
    }
    let q = db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as("v"))
      .where("createdAt", ">=", from)
      .where("createdAt", "<", to);
    if (table === "users") q = q.where("emailVerifiedAt", "is not", null);
    return toCount((await q.executeTakeFirstOrThrow()).v);
  }

  // Every order's sums, from the sums per day kept on write (migration 0029).
  const sums = db
    .selectFrom("orderDayFigures")
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum("orders"), eb.lit(0)).as("orders"),
      eb.fn
        .coalesce(
          eb.fn.sum(
            eb
              .case()
              .when("status", "not in", [...NOT_REVENUE])
              .then(eb.ref("revenue"))
              .else(0)
              .end(),
          ),
          eb.lit(0),
        )
        .as("revenue"),
    ])
    .executeTakeFirstOrThrow();
  const [all, products, customers, outOfStock, featured, categories, counts, recentOrders] = await Promise.all([
    sums,
    db
      .selectFrom("items")
      .select((eb) => eb.fn.countAll().as("v"))
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll().as("v"))
      .where("emailVerifiedAt", "is not", null)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("items")
      .select((eb) => eb.fn.countAll().as("v"))
      .where("stock", "<=", 0)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("items")
      .select((eb) => eb.fn.countAll().as("v"))
      .where("featured", "=", 1)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("categories")
      .select((eb) => eb.fn.countAll().as("v"))
      .executeTakeFirstOrThrow(),
    orderStatusCounts(db),
    orderRows(db).orderBy("orders.createdAt", "desc").orderBy("orders.id", "desc").limit(5).execute(),
  ]);

  const card = async (
    key: StatCard["key"],
    label: string,
    value: number,
    table: "orders" | "items" | "users",
    isRevenue = false,
  ): Promise<StatCard> => {
    const recent = await inWindow(table, windows.recent, isRevenue);
    const before = await inWindow(table, windows.before, isRevenue);
    return { key, label, value, recent, change: percentChange(recent, before) };
  };

  const liveOrders = counts.total - counts.cancelled;
  const revenueTotal = toCount(all.revenue as number);
  const cards = await Promise.all([
    card("revenue", "Total Revenue", revenueTotal, "orders", true),
    card("orders", "Total Orders", toCount(all.orders as number), "orders"),
    card("products", "Total Products", toCount(products.v), "items"),
    card("customers", "Total Customers", toCount(customers.v), "users"),
  ]);
  return {
    cards,
    counts,
    quick: {
      averageOrderValue: liveOrders > 0 ? Math.round(revenueTotal / liveOrders) : 0,
      awaitingShipment: counts.processing,
      outOfStock: toCount(outOfStock.v),
      featured: toCount(featured.v),
      categories: toCount(categories.v),
    },
    recentOrders: recentOrders.map(toRow),
  };
}
export type DashboardStats = Awaited<ReturnType<typeof dashboardStats>>;
