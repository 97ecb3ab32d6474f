// The dashboard's figures kept on write (docs/decisions/0032): sums per calendar day in India, kept
// in step by triggers on every write of orders, their lines and products, so that a figure reads
// a few rows per day whatever the number of orders.
//   order_day_figures (day, status, payment_method, coupon_code: '' for none): orders, the sum
//     of their totals, the sum of their discounts.
//   item_day_figures (day, status, item_id: 0 once the product is deleted): units, and revenue
//     (a line's quantity times its unit price, less its share of the discount).
//   category_day_figures (day, status, category_id: the product's category now, 0 once the
//     product is deleted): the same sums per category; a product moved to another category
//     takes its sums with it, as the figures always counted it.
// All are keyed by the order's status, so the rule of what counts as revenue stays in
// app/utils/order-status.ts (the readers filter by it); the triggers only move an order's sums
// from its old status, day or payment to its new ones. Order lines are never edited (their
// product is set to null when it is deleted: the items trigger moves its sums to 0). Rows whose
// sums fell to zero are kept (readers skip them). The day is the expression of migration 0027.
// Backfilled here from the orders already there.
//   product_period_figures (period: 30 or 90, item_id): each product's units and revenue over the
//     days of figure_windows (period, start_day, end_day), orders that count as revenue only, so
//     that top products read 8 rows of an index. Kept by triggers on item_day_figures; the window
//     is moved (days leaving subtracted, days entering added) by the reader when India's day
//     changes (app/models/dashboard/figures.server.ts). Here the revenue rule is written in SQL
//     (status <> 'cancelled': NOT_REVENUE, proven equal by tests/integration/dashboard-summaries).
//     On PostgreSQL a writer takes the windows' rows FOR SHARE (in period order) before it reads
//     them, the reader moving a window takes its row FOR UPDATE: a write and a move never cross.
// Also items (created_at): the stat cards count the products added in the last 30 days. Frozen
// once landed.
import type { Kysely } from "kysely";
import { PostgresAdapter, sql } from "kysely";

function isPostgres(db: Kysely<unknown>) {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

type Row = "new" | "old";
type Sign = "" | "-";

const add = (table: string, key: string, sums: string[]) =>
  `on conflict ${key} do update set ${sums.map((c) => `${c} = ${table}.${c} + excluded.${c}`).join(", ")}`;
const ADD_ORDER = add("order_day_figures", "(day, status, payment_method, coupon_code)", ["orders", "revenue", "discount"]);
const ADD_ITEM = add("item_day_figures", "(day, status, item_id)", ["units", "revenue"]);
const ADD_PERIOD = add("product_period_figures", "(period, item_id)", ["units", "revenue"]);
const ADD_CATEGORY = add("category_day_figures", "(day, status, category_id)", ["units", "revenue"]);

/** An order's figures move when one of these changes (in practice only the status does). */
const ORDER_CHANGED = `old.status <> new.status or old.created_at <> new.created_at or old.payment_method <> new.payment_method
  or coalesce(old.coupon_code, '') <> coalesce(new.coupon_code, '') or old.total <> new.total or old.discount <> new.discount`;
/** Its lines' figures move when its day or status does. */
const LINES_MOVED = "(old.status <> new.status or old.created_at <> new.created_at)";

interface Trigger {
  name: string;
  /** when, what and on which table: 'after insert on orders' */
  on: string;
  when?: string;
  body: string[];
}

/**
 * The triggers, with `day(row)` the database's expression of a row's day in India. Each statement
 * that sums several lines groups them first: an upsert may not touch one row twice (PostgreSQL).
 */
function triggers(day: (row: string) => string, pg: boolean): Trigger[] {
  const order = (row: Row, sign: Sign) =>
    `insert into order_day_figures (day, status, payment_method, coupon_code, orders, revenue, discount)
      values (${day(row)}, ${row}.status, ${row}.payment_method, coalesce(${row}.coupon_code, ''),
        ${sign}1, ${sign}${row}.total, ${sign}${row}.discount) ${ADD_ORDER}`;
  // An order's lines, when its day or status moved.
  const lines = (row: Row, sign: Sign) =>
    `insert into item_day_figures (day, status, item_id, units, revenue)
      select ${day(row)}, ${row}.status, coalesce(item_id, 0), ${sign}sum(quantity), ${sign}sum(quantity * unit_price - discount)
      from order_items where ${LINES_MOVED} and order_id = ${row}.id
      group by coalesce(item_id, 0) order by coalesce(item_id, 0) ${ADD_ITEM}`;
  const lineCategories = (row: Row, sign: Sign) =>
    `insert into category_day_figures (day, status, category_id, units, revenue)
      select ${day(row)}, ${row}.status, coalesce(i.category_id, 0), ${sign}sum(l.quantity),
        ${sign}sum(l.quantity * l.unit_price - l.discount)
      from order_items l left join items i on i.id = l.item_id where ${LINES_MOVED} and l.order_id = ${row}.id
      group by coalesce(i.category_id, 0) order by coalesce(i.category_id, 0) ${ADD_CATEGORY}`;
  // One line written or deleted, under its order's day and status.
  const line = (row: Row, sign: Sign) =>
    `insert into item_day_figures (day, status, item_id, units, revenue)
      select ${day("o")}, o.status, coalesce(${row}.item_id, 0), ${sign}${row}.quantity,
        ${sign}(${row}.quantity * ${row}.unit_price - ${row}.discount)
      from orders o where o.id = ${row}.order_id ${ADD_ITEM}`;
  const lineCategory = (row: Row, sign: Sign) =>
    `insert into category_day_figures (day, status, category_id, units, revenue)
      select ${day("o")}, o.status, coalesce((select i.category_id from items i where i.id = ${row}.item_id), 0),
        ${sign}${row}.quantity, ${sign}(${row}.quantity * ${row}.unit_price - ${row}.discount)
      from orders o where o.id = ${row}.order_id ${ADD_CATEGORY}`;
  // A product's sums, added to a category (or taken from it).
  const productInCategory = (item: string, category: string, sign: Sign) =>
    `insert into category_day_figures (day, status, category_id, units, revenue)
      select day, status, ${category}, ${sign}units, ${sign}revenue from item_day_figures where item_id = ${item}
      order by day, status ${ADD_CATEGORY}`;
  // A product's day row changed: the change, in each period whose window holds that day.
  const periods = (row: Row, units: string, revenue: string) =>
    `insert into product_period_figures (period, item_id, units, revenue)
      select w.period, ${row}.item_id, ${units}, ${revenue} from figure_windows w
      where ${row}.status <> 'cancelled' and ${row}.day between w.start_day and w.end_day order by w.period ${ADD_PERIOD}`;
  const lockWindows = pg ? ["perform 1 from figure_windows order by period for share"] : [];
  return [
    {
      name: "product_periods_insert",
      on: "after insert on item_day_figures",
      body: [...lockWindows, periods("new", "new.units", "new.revenue")],
    },
    {
      name: "product_periods_update",
      on: "after update on item_day_figures",
      when: "old.units <> new.units or old.revenue <> new.revenue",
      body: [...lockWindows, periods("new", "new.units - old.units", "new.revenue - old.revenue")],
    },
    {
      name: "product_periods_delete",
      on: "after delete on item_day_figures",
      body: [...lockWindows, periods("old", "-old.units", "-old.revenue")],
    },
    { name: "order_figures_insert", on: "after insert on orders", body: [order("new", "")] },
    {
      name: "order_figures_update",
      on: "after update on orders",
      when: ORDER_CHANGED,
      body: [
        order("old", "-"),
        order("new", ""),
        lines("old", "-"),
        lines("new", ""),
        lineCategories("old", "-"),
        lineCategories("new", ""),
      ],
    },
    // Its lines first, while the order is there to say their day and status; then the order.
    {
      name: "order_figures_delete",
      on: "before delete on orders",
      body: ["delete from order_items where order_id = old.id", order("old", "-")],
    },
    { name: "line_figures_insert", on: "after insert on order_items", body: [line("new", ""), lineCategory("new", "")] },
    { name: "line_figures_delete", on: "after delete on order_items", body: [line("old", "-"), lineCategory("old", "-")] },
    {
      name: "item_figures_delete",
      on: "before delete on items",
      body: [
        productInCategory("old.id", "old.category_id", "-"),
        productInCategory("old.id", "0", ""),
        `insert into item_day_figures (day, status, item_id, units, revenue)
          select day, status, 0, units, revenue from item_day_figures where item_id = old.id order by day, status ${ADD_ITEM}`,
        "delete from item_day_figures where item_id = old.id",
      ],
    },
    {
      name: "item_figures_category",
      on: "after update of category_id on items",
      when: "old.category_id <> new.category_id",
      body: [productInCategory("new.id", "old.category_id", "-"), productInCategory("new.id", "new.category_id", "")],
    },
  ];
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  const table = (name: string, columns: string) => sql.raw(`create table ${name} (${columns})${pg ? "" : " without rowid"}`).execute(db);
  await table(
    "order_day_figures",
    `day text not null, status text not null, payment_method text not null, coupon_code text not null,
      orders integer not null, revenue bigint not null, discount bigint not null,
      primary key (day, status, payment_method, coupon_code)`,
  );
  await table(
    "item_day_figures",
    `day text not null, status text not null, item_id integer not null, units bigint not null, revenue bigint not null,
      primary key (day, status, item_id)`,
  );
  await table(
    "category_day_figures",
    `day text not null, status text not null, category_id integer not null, units bigint not null, revenue bigint not null,
      primary key (day, status, category_id)`,
  );
  await table("figure_windows", "period integer not null primary key, start_day text not null, end_day text not null");
  await sql`insert into figure_windows (period, start_day, end_day) values (30, '', ''), (90, '', '')`.execute(db);
  await table(
    "product_period_figures",
    "period integer not null, item_id integer not null, units bigint not null, revenue bigint not null, primary key (period, item_id)",
  );
  // Top products: the highest revenue first, read from the index's start.
  await sql`create index product_period_figures_rank_idx on product_period_figures (period, revenue desc, item_id)`.execute(db);
  // A product's sums, found when it is deleted or changes category.
  await sql`create index item_day_figures_item_id_idx on item_day_figures (item_id)`.execute(db);
  await sql`create index items_created_at_idx on items (created_at)`.execute(db);

  for (const t of triggers((row) => (pg ? `shop_ist_day(${row}.created_at)` : `date(${row}.created_at, '+330 minutes')`), pg)) {
    if (pg) {
      const result = t.on.startsWith("before") ? "old" : "null";
      await sql
        .raw(
          `create function shop_${t.name}() returns trigger language plpgsql as $$
          begin ${t.body.join(";\n")}; return ${result}; end $$`,
        )
        .execute(db);
      await sql
        .raw(`create trigger ${t.name} ${t.on} for each row ${t.when ? `when (${t.when})` : ""} execute function shop_${t.name}()`)
        .execute(db);
    } else {
      await sql.raw(`create trigger ${t.name} ${t.on} ${t.when ? `when ${t.when}` : ""} begin ${t.body.join(";\n")}; end`).execute(db);
    }
  }

  const day = pg ? sql`shop_ist_day(o.created_at)` : sql`date(o.created_at, '+330 minutes')`;
  await sql`insert into order_day_figures (day, status, payment_method, coupon_code, orders, revenue, discount)
    select ${day}, o.status, o.payment_method, coalesce(o.coupon_code, ''), count(*), sum(o.total), sum(o.discount)
    from orders o group by 1, 2, 3, 4`.execute(db);
  await sql`insert into item_day_figures (day, status, item_id, units, revenue)
    select ${day}, o.status, coalesce(l.item_id, 0), sum(l.quantity), sum(l.quantity * l.unit_price - l.discount)
    from order_items l join orders o on o.id = l.order_id group by 1, 2, 3`.execute(db);
  await sql`insert into category_day_figures (day, status, category_id, units, revenue)
    select ${day}, o.status, coalesce(i.category_id, 0), sum(l.quantity), sum(l.quantity * l.unit_price - l.discount)
    from order_items l join orders o on o.id = l.order_id left join items i on i.id = l.item_id group by 1, 2, 3`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  for (const t of triggers(() => "", pg)) {
    await sql.raw(pg ? `drop trigger if exists ${t.name} on ${t.on.split(" on ")[1]}` : `drop trigger if exists ${t.name}`).execute(db);
    if (pg) await sql.raw(`drop function if exists shop_${t.name}()`).execute(db);
  }
  await db.schema.dropIndex("items_created_at_idx").ifExists().execute();
  await db.schema.dropTable("category_day_figures").ifExists().execute();
  await db.schema.dropTable("product_period_figures").ifExists().execute();
  await db.schema.dropTable("figure_windows").ifExists().execute();
  await db.schema.dropTable("item_day_figures").ifExists().execute();
  await db.schema.dropTable("order_day_figures").ifExists().execute();
}
