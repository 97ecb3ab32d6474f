// The dashboard's queries at scale (ADR 0030), run by `npm run bench -- --orders N`:
//
//   tsx scripts/bench-dashboard.ts --orders 1000000 [--rounds 40]     (DATABASE_URL: a migrated,
//   large-seeded database without orders)
//
// Seeds N orders with their lines, returns and refunds (db/bench-orders.ts, timed), then asks for
// the dashboard's figures again and again, for 30 and for 90 days, through a Kysely instance
// that logs each query's own time, and prints every query's p50/p95 against the 50 ms budget.
// The stat cards' queries (models/orders/admin.server.ts dashboardStats) are timed beside them
// as a whole, without a budget. Exit 1 when a figure's p95 is over budget.
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { CamelCasePlugin, Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import { seedBenchOrders } from "../db/bench-orders";
import type { DB } from "../app/lib/db-schema";
import { isPostgresUrl, sqlitePath } from "../app/lib/db.server";
import { dashboardFigures } from "../app/models/dashboard/figures.server";
import { dashboardStats } from "../app/models/orders/admin.server";
import { DASHBOARD_RANGES } from "../app/utils/dashboard";

/** Each figure's query, p95 in milliseconds, at 100,000 products and 1,000,000 orders. */
const BUDGET_MS = 50;

const { values } = parseArgs({ options: { orders: { type: "string" }, rounds: { type: "string", default: "40" } } });
const orders = Number(values.orders);
const rounds = Number(values.rounds);
if (!Number.isInteger(orders) || orders < 1 || !Number.isInteger(rounds) || rounds < 5) {
  console.error("usage: tsx scripts/bench-dashboard.ts --orders N>=1 [--rounds N>=5]");
  process.exit(2);
}

const url = process.env.DATABASE_URL ?? "";
let timing = false;
const times = new Map<string, number[]>();

/** A short name for each query the figures send, from its SQL. */
function labelOf(query: string): string {
  if (/from "category_day_figures"/.test(query)) return "categories by revenue";
  if (/^insert into product_period_figures|"figure_windows" set|^delete from "product_period_figures"/.test(query)) {
    return "top products' window, moved to a new day";
  }
  if (/from "figure_windows"/.test(query)) return "top products' window, checked";
  if (/from "product_period_figures"/.test(query)) return "top products";
  if (/from "order_day_figures"/.test(query)) return /"coupon_code", sum/.test(query) ? "coupon use" : "orders per day, status, payment";
  if (/from "return_requests"/.test(query)) return "returns";
  if (/from "refunds"/.test(query)) return "refunds";
  if (/"made_to_order" = .*limit/.test(query)) return "low stock, the pieces";
  if (/"made_to_order" = /.test(query)) return "low stock, the count";
  if (/from "items" where "id" in/.test(query)) return "top products' titles";
  return query.slice(0, 60);
}

const db = new Kysely<DB>({
  dialect: isPostgresUrl(url)
    ? new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 10 }) })
    : new SqliteDialect({ database: new Database(sqlitePath(url)) }),
  plugins: [new CamelCasePlugin()],
  log: (event) => {
    if (!timing || event.level !== "query") return;
    const label = labelOf(event.query.sql);
    times.set(label, [...(times.get(label) ?? []), event.queryDurationMillis]);
  },
});

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

try {
  const started = performance.now();
  const seeded = await seedBenchOrders(db, orders);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.info(`seeded ${seeded.orders.toLocaleString("en-IN")} orders, ${seeded.lines.toLocaleString("en-IN")} lines in ${seconds} s`);

  const rows: Record<string, string>[] = [];
  let failed = false;
  for (const range of DASHBOARD_RANGES) {
    times.clear();
    for (let i = 0; i < 3; i++) await dashboardFigures(range, new Date(), db);
    timing = true;
    const cards: number[] = [];
    for (let i = 0; i < rounds; i++) {
      await dashboardFigures(range, new Date(), db);
      if (range === DASHBOARD_RANGES[0]) {
        timing = false;
        const at = performance.now();
        await dashboardStats(new Date(), db);
        cards.push(performance.now() - at);
        timing = true;
      }
    }
    timing = false;
    for (const [label, all] of times) {
      const sorted = [...all].sort((a, b) => a - b);
      const p95 = percentile(sorted, 95);
      const ok = p95 < BUDGET_MS;
      if (!ok) failed = true;
      rows.push({
        query: `${label}, ${range} days`,
        p50: percentile(sorted, 50).toFixed(1),
        p95: p95.toFixed(1),
        budget: `p95 < ${BUDGET_MS}`,
        verdict: ok ? "ok" : "OVER BUDGET",
      });
    }
    if (cards.length) {
      const sorted = cards.sort((a, b) => a - b);
      rows.push({
        query: "the stat cards (all their queries, no budget)",
        p50: percentile(sorted, 50).toFixed(1),
        p95: percentile(sorted, 95).toFixed(1),
        budget: "-",
        verdict: "-",
      });
    }
  }
  const columns = Object.keys(rows[0]!);
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => r[c]!.length)));
  const line = (cells: string[]) => cells.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join("  ");
  console.info(`\nThe dashboard's queries, ${rounds} rounds a range after 3 warm-up (ms, each query's own time):`);
  console.info(
    [line(columns), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map((r) => line(columns.map((c) => r[c]!)))].join("\n"),
  );
  console.info(failed ? "dashboard: a budget was missed" : "dashboard: every budget met");
  process.exitCode = failed ? 1 : 0;
} catch (error) {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
