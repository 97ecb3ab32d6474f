// The dashboard's figures kept on write (docs/decisions/0032): sums per calendar day in India, kept
// in step by triggers on every write of orders, their lines and products, so that a figure reads
// a few rows per day whatever the number of orders.
//   order_day_figures (day, status, payment_method, coupon_code: '' for none): orders, the sum
//     of their totals, the sum of their discounts.
//   item_day_figures (day, status, item_id: 0 once the product is deleted): units, and revenue
//     (a line's quantity times its unit price, less its share of the discount).
// Both are keyed by the order's status, so the rule of what counts as revenue stays in
// app/utils/order-status.ts (the readers filter by it); the triggers only move an order's sums
// from its old status, day or payment to its new ones. A product's deletion moves its sums to
// item 0, as its lines lose their product. Order lines are never edited. Rows whose sums fell to
// zero are kept (readers skip them). The day is the expression of migration 0027. Backfilled here
// from the orders already there. Frozen once landed.
import type { Kysely } from "kysely";
import { PostgresAdapter, sql } from "kysely";

function isPostgres(db: Kysely<unknown>) {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

const ORDER_KEY = "(day, status, payment_method, coupon_code)";
const ADD_ORDER = `do update set orders = order_day_figures.orders + excluded.orders,
  revenue = order_day_figures.revenue + excluded.revenue, discount = order_day_figures.discount + excluded.discount`;
const ITEM_KEY = "(day, status, item_id)";
const ADD_ITEM = `do update set units = item_day_figures.units + excluded.units, revenue = item_day_figures.revenue + excluded.revenue`;

/** The statements both databases run, with `day(row)` their expression of a row's day in India. */
function statements(day: (row: string) => string) {
  const order = (row: "new" | "old", sign: "" | "-") =>
    `insert into order_day_figures (day, status, payment_method, coupon_code, orders, revenue, discount)
      values (${day(row)}, ${row}.status, ${row}.payment_method, coalesce(${row}.coupon_code, ''),
        ${sign}1, ${sign}${row}.total, ${sign}${row}.discount)
      on conflict ${ORDER_KEY} ${ADD_ORDER}`;
  // One row per product: an upsert may not touch the same row twice in one statement (PostgreSQL).
  const lines = (row: "new" | "old", sign: "" | "-") =>
    `insert into item_day_figures (day, status, item_id, units, revenue)
      select ${day(row)}, ${row}.status, coalesce(item_id, 0), ${sign}sum(quantity), ${sign}sum(quantity * unit_price - discount)
      from order_items where order_id = ${row}.id group by coalesce(item_id, 0) order by coalesce(item_id, 0)
      on conflict ${ITEM_KEY} ${ADD_ITEM}`;
  const line = (row: "new" | "old", sign: "" | "-") =>
    `insert into item_day_figures (day, status, item_id, units, revenue)
      select ${day("o")}, o.status, coalesce(${row}.item_id, 0), ${sign}${row}.quantity,
        ${sign}(${row}.quantity * ${row}.unit_price - ${row}.discount)
      from orders o where o.id = ${row}.order_id
      on conflict ${ITEM_KEY} ${ADD_ITEM}`;
  const removedProduct = `insert into item_day_figures (day, status, item_id, units, revenue)
      select day, status, 0, units, revenue from item_day_figures where item_id = old.id order by day, status
      on conflict ${ITEM_KEY} ${ADD_ITEM}`;
  return { order, lines, line, removedProduct };
}

/** An order's figures move when one of these changes (in practice only the status does). */
const ORDER_CHANGED = `old.status <> new.status or old.created_at <> new.created_at or old.payment_method <> new.payment_method
  or coalesce(old.coupon_code, '') <> coalesce(new.coupon_code, '') or old.total <> new.total or old.discount <> new.discount`;
const LINES_MOVED = "old.status <> new.status or old.created_at <> new.created_at";

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  await sql`create table order_day_figures (
      day text not null, status text not null, payment_method text not null, coupon_code text not null,
      orders integer not null, revenue bigint not null, discount bigint not null,
      primary key (day, status, payment_method, coupon_code))${sql.raw(pg ? "" : " without rowid")}`.execute(db);
  await sql`create table item_day_figures (
      day text not null, status text not null, item_id integer not null, units bigint not null, revenue bigint not null,
      primary key (day, status, item_id))${sql.raw(pg ? "" : " without rowid")}`.execute(db);
  // A product's sums, found when it is deleted.
  await sql`create index item_day_figures_item_id_idx on item_day_figures (item_id)`.execute(db);

  if (pg) {
    const s = statements((row) => `shop_ist_day(${row}.created_at)`);
    await sql
      .raw(
        `create function shop_order_figures_insert() returns trigger language plpgsql as $$
      begin ${s.order("new", "")}; return null; end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create function shop_order_figures_update() returns trigger language plpgsql as $$
      begin
        ${s.order("old", "-")};
        ${s.order("new", "")};
        if ${LINES_MOVED} then
          ${s.lines("old", "-")};
          ${s.lines("new", "")};
        end if;
        return null;
      end $$`,
      )
      .execute(db);
    // Its lines first, while the order is there to say their day and status; then the order.
    await sql
      .raw(
        `create function shop_order_figures_delete() returns trigger language plpgsql as $$
      begin delete from order_items where order_id = old.id; ${s.order("old", "-")}; return old; end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create function shop_line_figures_insert() returns trigger language plpgsql as $$
      begin ${s.line("new", "")}; return null; end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create function shop_line_figures_delete() returns trigger language plpgsql as $$
      begin ${s.line("old", "-")}; return null; end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create function shop_item_figures_delete() returns trigger language plpgsql as $$
      begin ${s.removedProduct}; delete from item_day_figures where item_id = old.id; return old; end $$`,
      )
      .execute(db);
    const triggers = [
      "order_figures_insert after insert on orders",
      "order_figures_update after update on orders",
      "order_figures_delete before delete on orders",
      "line_figures_insert after insert on order_items",
      "line_figures_delete after delete on order_items",
      "item_figures_delete before delete on items",
    ];
    for (const trigger of triggers) {
      const name = trigger.split(" ")[0]!;
      const when = name === "order_figures_update" ? `when (${ORDER_CHANGED})` : "";
      await sql.raw(`create trigger ${trigger} for each row ${when} execute function shop_${name}()`).execute(db);
    }
  } else {
    const s = statements((row) => `date(${row}.created_at, '+330 minutes')`);
    await sql.raw(`create trigger order_figures_insert after insert on orders begin ${s.order("new", "")}; end`).execute(db);
    await sql
      .raw(
        `create trigger order_figures_update after update on orders when ${ORDER_CHANGED} begin
        ${s.order("old", "-")};
        ${s.order("new", "")};
        ${s.lines("old", "-").replace("where order_id", `where (${LINES_MOVED}) and order_id`)};
        ${s.lines("new", "").replace("where order_id", `where (${LINES_MOVED}) and order_id`)};
      end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger order_figures_delete before delete on orders begin
        delete from order_items where order_id = old.id;
        ${s.order("old", "-")};
      end`,
      )
      .execute(db);
    await sql.raw(`create trigger line_figures_insert after insert on order_items begin ${s.line("new", "")}; end`).execute(db);
    await sql.raw(`create trigger line_figures_delete after delete on order_items begin ${s.line("old", "-")}; end`).execute(db);
    await sql
      .raw(
        `create trigger item_figures_delete before delete on items begin
        ${s.removedProduct};
        delete from item_day_figures where item_id = old.id;
      end`,
      )
      .execute(db);
  }

  const day = pg ? sql`shop_ist_day(o.created_at)` : sql`date(o.created_at, '+330 minutes')`;
  await sql`insert into order_day_figures (day, status, payment_method, coupon_code, orders, revenue, discount)
    select ${day}, o.status, o.payment_method, coalesce(o.coupon_code, ''), count(*), sum(o.total), sum(o.discount)
    from orders o group by 1, 2, 3, 4`.execute(db);
  await sql`insert into item_day_figures (day, status, item_id, units, revenue)
    select ${day}, o.status, coalesce(l.item_id, 0), sum(l.quantity), sum(l.quantity * l.unit_price - l.discount)
    from order_items l join orders o on o.id = l.order_id group by 1, 2, 3`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ["item_figures_delete on items", "line_figures_delete on order_items", "line_figures_insert on order_items"]) {
    await sql.raw(isPostgres(db) ? `drop trigger if exists ${t}` : `drop trigger if exists ${t.split(" ")[0]}`).execute(db);
  }
  for (const t of ["order_figures_delete", "order_figures_update", "order_figures_insert"]) {
    await sql.raw(isPostgres(db) ? `drop trigger if exists ${t} on orders` : `drop trigger if exists ${t}`).execute(db);
  }
  if (isPostgres(db)) {
    for (const f of [
      "item_figures_delete",
      "line_figures_delete",
      "line_figures_insert",
      "order_figures_delete",
      "order_figures_update",
      "order_figures_insert",
    ]) {
      await sql.raw(`drop function if exists shop_${f}()`).execute(db);
    }
  }
  await db.schema.dropTable("item_day_figures").ifExists().execute();
  await db.schema.dropTable("order_day_figures").ifExists().execute();
}
