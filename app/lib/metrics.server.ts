// The shop's metrics in Prometheus' text format (prom-client), served at GET /metrics by the
// production server (server/metrics.ts decides who may read them; docs/operations.md has the scrape
// configuration and the alerts). Each server process counts its own requests, queries and events:
// with several app servers Prometheus scrapes each one, and sums. The figures read from the
// database (the outbox's depth, refunds pending, stock held) are read when scraped, by one indexed
// query each, so every server reports the same shop-wide value.
//
// Everything a request or a query does here is O(1): a counter's or a histogram's labels are a
// bounded set (a route's id, a method, a status, a limit's name), never a URL or a value a client sent.
import type { LogEvent } from "kysely";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { remember } from "./remember.server";

/** Seconds, for request and query durations: from a page-cache hit (sub-millisecond) to a slow page. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const QUERY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

/** What a pg pool tells about itself (pg.Pool's counters); SQLite has no pool. */
export interface PoolCounters {
  totalCount: number;
  idleCount: number;
  waitingCount: number;
}

/** A figure read from the database at scrape time: one value per label set. */
export type ScrapeReading = { labels?: Record<string, string>; value: number }[];

function make() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const pools = new Set<PoolCounters>();
  const poolGauge = new Gauge({
    name: "shop_db_pool_connections",
    help: "PostgreSQL pool connections of this process by state: total, idle, waiting (queries queued for one). None on SQLite: no pool.",
    labelNames: ["state"],
    registers,
    collect() {
      if (pools.size === 0) return;
      let total = 0;
      let idle = 0;
      let waiting = 0;
      for (const pool of pools) {
        total += pool.totalCount;
        idle += pool.idleCount;
        waiting += pool.waitingCount;
      }
      this.set({ state: "total" }, total);
      this.set({ state: "idle" }, idle);
      this.set({ state: "waiting" }, waiting);
    },
  });
  return {
    registry,
    pools,
    poolGauge,
    httpRequests: new Counter({
      name: "shop_http_requests_total",
      help: "HTTP requests answered by this server, by route (the Remix route id, or assets/public/metrics), method and status.",
      labelNames: ["route", "method", "status"],
      registers,
    }),
    httpDuration: new Histogram({
      name: "shop_http_request_duration_seconds",
      help: "Time from a request's arrival to the end of its answer, by route, method and status.",
      labelNames: ["route", "method", "status"],
      buckets: REQUEST_BUCKETS,
      registers,
    }),
    queryDuration: new Histogram({
      name: "shop_db_query_duration_seconds",
      help: "Database query time (Kysely's log hook), by operation: select, insert, update, delete, other.",
      labelNames: ["operation", "outcome"],
      buckets: QUERY_BUCKETS,
      registers,
    }),
    pageCache: new Counter({
      name: "shop_page_cache_requests_total",
      help: "Anonymous page cache answers: hit (served again) or miss (rendered).",
      labelNames: ["result"],
      registers,
    }),
    mailFailures: new Counter({
      name: "shop_mail_send_failures_total",
      help: "Mail sends by this process's outbox worker that failed: retry (tried again later) or failed (given up).",
      labelNames: ["outcome"],
      registers,
    }),
    ordersPlaced: new Counter({
      name: "shop_orders_placed_total",
      help: "Orders placed through this server, by payment method.",
      labelNames: ["payment_method"],
      registers,
    }),
    paymentsFailed: new Counter({
      name: "shop_payments_failed_total",
      help: "Payments that failed: signature (a proof that did not verify), not_captured (gateway refused), gateway (payment.failed).",
      labelNames: ["reason"],
      registers,
    }),
    stockHolds: new Counter({
      name: "shop_stock_holds_total",
      help: "Payment orders that held stock for their customer (ADR 0023).",
      registers,
    }),
    scrapeErrors: new Counter({
      name: "shop_metrics_read_errors_total",
      help: "Figures that could not be read from the database when scraped, by the figure's name (it is then left out or 0).",
      labelNames: ["metric"],
      registers,
    }),
    rateLimitRefusals: new Counter({
      name: "shop_rate_limit_refusals_total",
      help: "Tries refused with 429 by a rate limit, by the limit's name.",
      labelNames: ["limit"],
      registers,
    }),
  };
}

const metrics = remember("metrics", make);

const OPERATIONS: Record<string, string> = {
  SelectQueryNode: "select",
  InsertQueryNode: "insert",
  UpdateQueryNode: "update",
  DeleteQueryNode: "delete",
};

/** Kysely's `log` hook: each query's time by its operation, and whether it failed. */
export function observeQuery(event: LogEvent): void {
  const operation = OPERATIONS[event.query.query.kind] ?? "other";
  metrics.queryDuration.observe({ operation, outcome: event.level === "error" ? "error" : "ok" }, event.queryDurationMillis / 1000);
}

/** Counts a pg pool's connections in shop_db_pool_connections until the returned function is called. */
export function watchPool(pool: PoolCounters): () => void {
  metrics.pools.add(pool);
  return () => void metrics.pools.delete(pool);
}

/** One answered request, by its route's id (never its URL). */
export function observeRequest(route: string, method: string, status: number, seconds: number): void {
  const labels = { route, method, status: String(status) };
  metrics.httpRequests.inc(labels);
  metrics.httpDuration.observe(labels, seconds);
}

export function countPageCache(result: "hit" | "miss"): void {
  metrics.pageCache.inc({ result });
}

export function countMailFailure(outcome: "retry" | "failed"): void {
  metrics.mailFailures.inc({ outcome });
}

export function countOrderPlaced(paymentMethod: string): void {
  metrics.ordersPlaced.inc({ payment_method: paymentMethod });
}

export function countPaymentFailed(reason: "signature" | "not_captured" | "gateway"): void {
  metrics.paymentsFailed.inc({ reason });
}

export function countStockHold(): void {
  metrics.stockHolds.inc();
}

export function countRateLimitRefusal(limit: string): void {
  metrics.rateLimitRefusals.inc({ limit });
}

/**
 * A gauge read from the database when scraped (one cheap indexed query: `read`). A failed read
 * does not fail the scrape (the other figures still arrive): the gauge is left empty and
 * shop_metrics_read_errors_total counts it. Registered once per name.
 */
export function scrapeGauge(name: string, help: string, labelNames: string[], read: () => Promise<ScrapeReading>): void {
  if (metrics.registry.getSingleMetric(name)) return;
  new Gauge({
    name,
    help,
    labelNames,
    registers: [metrics.registry],
    async collect() {
      this.reset();
      try {
        for (const { labels, value } of await read()) {
          if (labels) this.set(labels, value);
          else this.set(value);
        }
      } catch {
        metrics.scrapeErrors.inc({ metric: name });
      }
    },
  });
}

/** The whole text Prometheus reads, and its content type. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  return { contentType: metrics.registry.contentType, body: await metrics.registry.metrics() };
}
