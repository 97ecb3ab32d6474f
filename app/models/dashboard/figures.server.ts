// The dashboard's charts (/admin): revenue and orders per day, orders by status, payment methods,
// top products and categories, coupon use, returns and refunds over the last 30 or 90 days of
// India's calendar, and the pieces low in stock. Each figure is one query on one index range
// (migrations 0027 and 0029, ADRs 0030 and 0032): orders and products are read from their sums per
// day kept on write, returns, refunds and stock from their indexes; no query reads a table's rows
// end to end, whatever its size.
import type { Db } from "~/lib/db.server";
import type { RawBuilder } from "kysely";
import { sql } from "kysely";
import { db as defaultDb, isPostgres, toCount } from "~/lib/db.server";
import type { OrderStatus, PaymentMethod, RefundStatus, ReturnStatus } from "~/lib/db-schema";
import { startOfIndianDay } from "~/utils/admin-schemas";
import type { DashboardRange } from "~/utils/dashboard";
import { addDays, indianDay } from "~/utils/chart-format";
import { countsAsRevenue, NOT_REVENUE, ORDER_STATUSES, RETURN_STATUSES } from "~/utils/order-status";
import { REFUND_STATUSES } from "~/utils/refunds";
import type { LowVariant } from "./low-stock.server";
import { lowVariants, withVariantLabels } from "./low-stock.server";

/** How many products, categories and coupons a ranking shows, and pieces the low-stock chart. */
export const TOP = 8;
export const LOW_STOCK_SHOWN = 10;

/**
 * An order's calendar day in India, as the index of migration 0027 holds it: the query must write
 * the indexed expression itself for the database to read it from the index.
 */
export function orderDay(db: Db): RawBuilder<string> {
  return isPostgres(db) ? sql<string>`shop_ist_day(orders.created_at)` : sql<string>`date(orders.created_at, '+330 minutes')`;
}

export interface DayFigure {
  /** YYYY-MM-DD, India's calendar */
  day: string;
  orders: number;
  /** the day's orders that count as revenue, summed (whole rupees) */
  revenue: number;
}

export interface Ranked {
  key: string;
  label: string;
  /** the measure the ranking is by: rupees, or units in stock for low stock */
  value: number;
  /** a second count shown beside it: units sold, orders */
  count: number;
}

export interface DashboardFigures {
  range: DashboardRange;
  /** the first and last day shown, India's calendar (the last is today) */
  from: string;
  to: string;
  days: DayFigure[];
  totals: { orders: number; revenue: number };
  byStatus: { status: OrderStatus; orders: number }[];
  payments: { method: PaymentMethod; orders: number; revenue: number }[];
  topProducts: Ranked[];
  topCategories: Ranked[];
  coupons: Ranked[];
  returns: { status: ReturnStatus; count: number; amount: number }[];
  refunds: { status: RefundStatus; count: number; amount: number }[];
  /** the variants on sale (of pieces not made to order) at or under LOW_STOCK units, fewest first, and how many there are */
  lowStock: { pieces: LowVariant[]; total: number };
}

const PAYMENT_METHODS: readonly PaymentMethod[] = ["online", "cod"];
/** Lines whose product was since deleted are kept (their order stays), under this name. */
export const REMOVED_PRODUCT = "Removed from the catalogue";
/** The product the sums kept on write file a deleted product's lines under (migration 0029). */
const REMOVED = 0;

/**
 * Moves a period's running totals per product (migration 0029) to the days from..to: the days
 * that left the window are subtracted, those that entered added, from the sums per day and
 * product, orders that count as revenue only. Done by the first reading of a new day in India
 * (or of another `now`), in one transaction; on PostgreSQL under the window's row FOR UPDATE,
 * which the triggers of every write take FOR SHARE first, so no write falls between the two.
 */
export async function moveProductWindow(period: DashboardRange, from: string, to: string, db: Db = defaultDb): Promise<void> {
  const window = () => db.selectFrom("figureWindows").select(["startDay", "endDay"]).where("period", "=", period);
  const seen = await window().executeTakeFirstOrThrow();
  if (seen.startDay === from && seen.endDay === to) return;
  await db.transaction().execute(async (trx) => {
    const locked = trx.selectFrom("figureWindows").select(["startDay", "endDay"]).where("period", "=", period);
    const was = await (isPostgres(trx) ? locked.forUpdate() : locked).executeTakeFirstOrThrow();
    if (was.startDay === from && was.endDay === to) return;
    /** The days from..to, added (1) or taken away (-1). */
    const move = (sign: 1 | -1, [first, last]: [string, string]) =>
      sql`insert into product_period_figures (period, item_id, units, revenue)
        select ${sql.lit(period)}, item_id, ${sql.lit(sign)} * sum(units), ${sql.lit(sign)} * sum(revenue) from item_day_figures
        where day between ${first} and ${last} and status not in (${sql.join([...NOT_REVENUE])})
        group by item_id order by item_id
        on conflict (period, item_id) do update set units = product_period_figures.units + excluded.units,
          revenue = product_period_figures.revenue + excluded.revenue`.execute(trx);
    // Only the days that left and entered are read: a day's rows, not the window's.
    for (const days of outside([was.startDay, was.endDay], [from, to])) await move(-1, days);
    for (const days of outside([from, to], [was.startDay, was.endDay])) await move(1, days);
    await trx.updateTable("figureWindows").set({ startDay: from, endDay: to }).where("period", "=", period).execute();
    await trx.deleteFrom("productPeriodFigures").where("period", "=", period).where("units", "=", 0).execute();
  });
}

/** The days of `days` outside `other` (none, one or two ranges); '' to '' is no day. */
export function outside([first, last]: [string, string], [otherFirst, otherLast]: [string, string]): [string, string][] {
  if (first === "" || first > last) return [];
  if (otherFirst === "" || otherLast < first || otherFirst > last) return [[first, last]];
  const ranges: [string, string][] = [];
  if (first < otherFirst) ranges.push([first, addDays(otherFirst, -1)]);
  if (otherLast < last) ranges.push([addDays(otherLast, 1), last]);
  return ranges;
}

export async function dashboardFigures(range: DashboardRange, now = new Date(), db: Db = defaultDb): Promise<DashboardFigures> {
  const to = indianDay(now);
  const from = addDays(to, -(range - 1));
  // The instants the same days span, for tables keyed by created_at alone.
  const since = startOfIndianDay(from);
  const until = startOfIndianDay(addDays(to, 1));
  await moveProductWindow(range, from, to, db);
  const [orderRows, couponRows, productRows, categoryRows, returnRows, refundRows, lowStockRows, lowStockCount] = await Promise.all([
    // Per day, status and payment method: the key's own order, so no sort.
    db
      .selectFrom("orderDayFigures")
      .select((eb) => [
        "day",
        "status",
        "paymentMethod",
        eb.fn.sum<number>("orders").as("orders"),
        eb.fn.coalesce(eb.fn.sum("revenue"), eb.lit(0)).as("revenue"),
      ])
      .where("day", ">=", from)
      .where("day", "<=", to)
      .groupBy(["day", "status", "paymentMethod"])
      .execute(),
    db
      .selectFrom("orderDayFigures")
      .select((eb) => [
        "couponCode",
        eb.fn.sum<number>("orders").as("orders"),
        eb.fn.coalesce(eb.fn.sum("discount"), eb.lit(0)).as("discount"),
      ])
      .where("day", ">=", from)
      .where("day", "<=", to)
      .where("status", "not in", [...NOT_REVENUE])
      .where("couponCode", "<>", "")
      .groupBy("couponCode")
      .having((eb) => eb.fn.sum("orders"), ">", 0)
      .orderBy("discount", "desc")
      .orderBy("couponCode")
      .limit(TOP)
      .execute(),
    // Units and revenue per product over the window, kept on write: the first 8 of an index.
    db
      .selectFrom("productPeriodFigures")
      .select(["itemId", "units", "revenue"])
      .where("period", "=", range)
      .where("units", ">", 0)
      .orderBy("revenue", "desc")
      .orderBy("itemId")
      .limit(TOP)
      .execute(),
    // Per category, from its sums kept on write; category 0 holds deleted products' lines.
    db
      .selectFrom(
        db
          .selectFrom("categoryDayFigures")
          .select((eb) => ["categoryId", eb.fn.sum<number>("units").as("units"), eb.fn.sum<number>("revenue").as("revenue")])
          .where("day", ">=", from)
          .where("day", "<=", to)
          .where("status", "not in", [...NOT_REVENUE])
          .groupBy("categoryId")
          .having((eb) => eb.fn.sum("units"), ">", 0)
          .as("sold"),
      )
      .leftJoin("categories", "categories.id", "sold.categoryId")
      .select(["categories.id as categoryId", "categories.title", "sold.units", "sold.revenue"])
      .execute(),
    db
      .selectFrom("returnRequests")
      .select((eb) => ["status", eb.fn.countAll().as("n"), eb.fn.coalesce(eb.fn.sum("refundAmount"), eb.lit(0)).as("amount")])
      .where("createdAt", ">=", since)
      .where("createdAt", "<", until)
      .groupBy("status")
      .execute(),
    db
      .selectFrom("refunds")
      .select((eb) => ["status", eb.fn.countAll().as("n"), eb.fn.coalesce(eb.fn.sum("amount"), eb.lit(0)).as("amount")])
      .where("createdAt", ">=", since)
      .where("createdAt", "<", until)
      .groupBy("status")
      .execute(),
    // Low stock is per variant on sale: a sofa with plenty of linen and 2 velvet ones is low in velvet.
    lowVariants(db)
      .select(["items.id", "items.title", "items.slug", "pv.id as variantId", "pv.sku", "pv.stock"])
      .orderBy("pv.stock")
      .orderBy("pv.id")
      .limit(LOW_STOCK_SHOWN)
      .execute(),
    lowVariants(db)
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow(),
  ]);

  const perDay = new Map<string, DayFigure>();
  for (let d = from; d <= to; d = addDays(d, 1)) perDay.set(d, { day: d, orders: 0, revenue: 0 });
  const byStatus = new Map<OrderStatus, number>(ORDER_STATUSES.map((s) => [s, 0]));
  const payments = new Map(PAYMENT_METHODS.map((m) => [m, { method: m, orders: 0, revenue: 0 }]));
  for (const r of orderRows) {
    const orders = toCount(r.orders as number);
    const revenue = countsAsRevenue(r.status) ? toCount(r.revenue as number) : 0;
    const figure = perDay.get(r.day);
    if (figure) {
      figure.orders += orders;
      figure.revenue += revenue;
    }
    byStatus.set(r.status, (byStatus.get(r.status) ?? 0) + orders);
    const payment = payments.get(r.paymentMethod);
    if (payment) {
      payment.orders += orders;
      payment.revenue += revenue;
    }
  }
  const days = [...perDay.values()];

  const titles = new Map(
    productRows.some((r) => r.itemId !== REMOVED)
      ? (
          await db
            .selectFrom("items")
            .select(["id", "title"])
            .where(
              "id",
              "in",
              productRows.flatMap((r) => (r.itemId === REMOVED ? [] : [r.itemId])),
            )
            .execute()
        ).map((i) => [i.id, i.title])
      : [],
  );
  const money = (v: unknown) => toCount(v as number);
  const topCategories = categoryRows
    .map((r) => ({
      key: r.categoryId === null ? "removed" : String(r.categoryId),
      label: r.title ?? REMOVED_PRODUCT,
      value: money(r.revenue),
      count: money(r.units),
    }))
    .sort((a, b) => b.value - a.value || a.label.localeCompare(b.label))
    .slice(0, TOP);

  return {
    range,
    from,
    to,
    days,
    totals: { orders: days.reduce((n, d) => n + d.orders, 0), revenue: days.reduce((n, d) => n + d.revenue, 0) },
    byStatus: ORDER_STATUSES.map((status) => ({ status, orders: byStatus.get(status) ?? 0 })),
    payments: [...payments.values()],
    topProducts: productRows.map((r) => ({
      key: r.itemId === REMOVED ? "removed" : String(r.itemId),
      label: (r.itemId !== REMOVED && titles.get(r.itemId)) || REMOVED_PRODUCT,
      value: money(r.revenue),
      count: money(r.units),
    })),
    topCategories,
    coupons: couponRows.map((r) => ({ key: r.couponCode!, label: r.couponCode!, value: money(r.discount), count: money(r.orders) })),
    returns: RETURN_STATUSES.map((status) => {
      const r = returnRows.find((x) => x.status === status);
      return { status, count: money(r?.n), amount: money(r?.amount) };
    }),
    refunds: REFUND_STATUSES.map((status) => {
      const r = refundRows.find((x) => x.status === status);
      return { status, count: money(r?.n), amount: money(r?.amount) };
    }),
    lowStock: { pieces: await withVariantLabels(db, lowStockRows), total: money(lowStockCount.n) },
  };
}
