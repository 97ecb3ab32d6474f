// Orders at scale for `npm run bench -- --orders N` (scripts/bench-dashboard.ts): N orders over the
// last three years (evenly, so the last 90 days hold about 8% of them), each with one line and a
// third with two, half of the lines on 500 popular products; a tenth with a coupon, one in twenty
// cancelled; returns on one delivered order in fifty and refunds on one online order in forty.
// Made by the database itself (SQLite's recursive CTE, PostgreSQL's generate_series), 100,000
// rows a statement, each batch its own transaction. Deterministic: no clock but `now`, no
// randomness. Needs the large catalogue (contiguous product ids) and no orders before it.
import type { Kysely, RawBuilder } from "kysely";
import { sql } from "kysely";
import type { DB } from "../app/lib/db-schema";
import { isPostgres, toCount } from "../app/lib/db.server";

export const BENCH_ORDER_DAYS = 3 * 365;
const BATCH = 100_000;
const CUSTOMERS = 5_000;
const POPULAR = 500;
const COUPONS = ["WELCOME10", "FESTIVE15", "MONSOON20", "TEAKWEEK"];

/** `select <columns> from` the numbers from..to as `i`, then `rest`: the statement that inserts them. */
function fromNumbers(db: Kysely<DB>, insert: RawBuilder<unknown>, columns: RawBuilder<unknown>, from: number, to: number) {
  return isPostgres(db)
    ? sql`${insert} select ${columns} from generate_series(${sql.lit(from)}::bigint, ${sql.lit(to)}::bigint) as n(i)`
    : sql`with recursive n(i) as (select ${sql.lit(from)} union all select i + 1 from n where i < ${sql.lit(to)})
        ${insert} select ${columns} from n`;
}

/** An ISO timestamp (as the app writes them) of a time in milliseconds since 1970, in SQL. */
function isoOf(db: Kysely<DB>, ms: RawBuilder<unknown>) {
  return isPostgres(db)
    ? sql`to_char(to_timestamp((${ms}) / 1000.0) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : sql`strftime('%Y-%m-%dT%H:%M:%fZ', (${ms}) / 1000.0, 'unixepoch')`;
}

export async function seedBenchOrders(db: Kysely<DB>, count: number, now = new Date()): Promise<{ orders: number; lines: number }> {
  const items = await db
    .selectFrom("items")
    .select((eb) => [eb.fn.min("id").as("min"), eb.fn.max("id").as("max"), eb.fn.countAll().as("n")])
    .executeTakeFirstOrThrow();
  const [minItem, maxItem, itemCount] = [toCount(items.min), toCount(items.max), toCount(items.n)];
  if (itemCount < POPULAR || maxItem - minItem + 1 !== itemCount) throw new Error("bench orders need the large catalogue (contiguous ids)");
  if (await db.selectFrom("orders").select("id").limit(1).executeTakeFirst())
    throw new Error("bench orders need a database without orders");

  const stamp = now.toISOString();
  await fromNumbers(
    db,
    sql`insert into users (name, email, mobile, password_hash, email_verified_at, created_at, updated_at)`,
    sql`'Bench Customer ' || i, 'bench-' || i || '@example.com', null, null, ${stamp}, ${stamp}, ${stamp}`,
    1,
    CUSTOMERS,
  ).execute(db);
  const firstUser = toCount(
    (await db.selectFrom("users").select("id").where("email", "=", "bench-1@example.com").executeTakeFirstOrThrow()).id,
  );

  const end = now.getTime();
  const step = (BENCH_ORDER_DAYS * 24 * 60 * 60 * 1000) / count;
  const at = isoOf(db, sql`${sql.lit(end)} - (${sql.lit(count)} - i) * ${sql.lit(step)}`);
  // The last three days' orders are still moving; older ones were delivered (one in twenty cancelled).
  const recent = count - Math.ceil((3 / BENCH_ORDER_DAYS) * count);
  const week = count - Math.ceil((7 / BENCH_ORDER_DAYS) * count);
  const base = sql`(2999 + (i * 7919) % 95000)`;
  const second = sql`(case when i % 3 = 0 then 2999 else 0 end)`;
  const coupon = sql`case ${sql.join(
    COUPONS.map((code, k) => sql`when i % 10 = 0 and (i / 10) % ${sql.lit(COUPONS.length)} = ${sql.lit(k)} then ${sql.lit(code)}`),
    sql` `,
  )} end`;
  const discount = sql`(case when i % 10 = 0 then (${base} + ${second}) / 10 else 0 end)`;
  const columns = sql`${sql.lit(firstUser)} + i % ${sql.lit(CUSTOMERS)},
    case when i % 20 = 0 then 'cancelled' when i > ${sql.lit(recent)} then 'processing'
      when i > ${sql.lit(week)} then 'shipped' else 'delivered' end,
    case when i % 3 = 0 then 'cod' else 'online' end,
    ${base} + ${second}, 0, 0, ${base} + ${second} - ${discount}, ${discount}, ${coupon},
    'Bench Customer', '1 MG Road', 'Pune', 'Maharashtra', '411001', '9876543210', 'bench@example.com', ${at}, ${at}`;
  for (let from = 1; from <= count; from += BATCH) {
    const to = Math.min(count, from + BATCH - 1);
    await db.transaction().execute(async (trx) => {
      await fromNumbers(
        trx,
        sql`insert into orders (user_id, status, payment_method, subtotal, shipping, gst, total, discount, coupon_code,
          ship_name, ship_address, ship_city, ship_state, ship_pincode, ship_phone, ship_email, created_at, updated_at)`,
        columns,
        from,
        to,
      ).execute(trx);
    });
  }

  const first = toCount(
    (
      await db
        .selectFrom("orders")
        .select((eb) => eb.fn.min("id").as("id"))
        .executeTakeFirstOrThrow()
    ).id,
  );
  const last = first + count - 1;
  const item = (key: RawBuilder<unknown>) =>
    // bigint: an id times 104729 passes PostgreSQL's integer range from the 20,506th order on.
    sql`${sql.lit(minItem)} + case when id % 2 = 0 then (cast(${key} as bigint) * 7919) % ${sql.lit(POPULAR)}
      else (cast(${key} as bigint) * 104729) % ${sql.lit(itemCount)} end`;
  for (let from = first; from <= last; from += BATCH) {
    const to = Math.min(last, from + BATCH - 1);
    await db.transaction().execute(async (trx) => {
      await sql`insert into order_items (order_id, item_id, title, slug, img_path, quantity, unit_price, discount)
        select id, ${item(sql`id`)}, 'Bench line', 'bench-line', '/x.svg', 1,
          subtotal - (case when id % 3 = 0 then 2999 else 0 end),
          discount from orders where id between ${from} and ${to}`.execute(trx);
      await sql`insert into order_items (order_id, item_id, title, slug, img_path, quantity, unit_price, discount)
        select id, ${item(sql`(id + 1)`)}, 'Bench line', 'bench-line', '/x.svg', 1, 2999, 0
        from orders where id between ${from} and ${to} and id % 3 = 0`.execute(trx);
    });
  }

  await db.transaction().execute(async (trx) => {
    await sql`insert into return_requests (order_id, user_id, status, reason, details, staff_note, refund_amount, created_at, updated_at)
      select id, user_id, case id % 4 when 0 then 'requested' when 1 then 'approved' when 2 then 'rejected' else 'returned' end,
        'damaged', '', null, total, created_at, created_at from orders where status = 'delivered' and id % 50 = 0`.execute(trx);
    await sql`insert into payment_orders
        (id, user_id, amount_paise, currency, status, payment_id, checkout, failure, coupon, order_id, created_at, updated_at)
      select 'order_bench' || id, user_id, total * 100, 'INR', 'paid', 'pay_bench' || id, null, null, null, id, created_at, created_at
      from orders where payment_method = 'online' and id % 40 = 0`.execute(trx);
    await sql`insert into refunds
        (payment_order_id, payment_id, order_id, amount, reason, idempotency_key, gateway_key, status, actor, created_at, updated_at)
      select 'order_bench' || id, 'pay_bench' || id, id, total, case when status = 'cancelled' then 'cancelled' else 'returned' end,
        'bench-refund-' || id, 'bench-gateway-' || id, case id % 3 when 0 then 'processed' when 1 then 'pending' else 'failed' end,
        'system', created_at, created_at
      from orders where payment_method = 'online' and id % 40 = 0`.execute(trx);
  });

  // As autovacuum leaves a live shop's tables, the figures' too (written by migration 0029's triggers
  // while the orders went in): their visibility maps let PostgreSQL answer from the index alone.
  if (isPostgres(db)) {
    await sql`vacuum (analyze) orders, order_items, users, return_requests, payment_orders, refunds,
      order_day_figures, item_day_figures, category_day_figures, product_period_figures, figure_windows`.execute(db);
  } else await sql`analyze`.execute(db);
  const lines = toCount(
    (
      await db
        .selectFrom("orderItems")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
  return { orders: count, lines };
}
