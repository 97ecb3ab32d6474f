// Crash safety (ADR 0007): customers shop, pay and cancel while the production server is killed
// with SIGKILL at a random moment; it is started again, and once /healthz answers the database
// is read directly (read-only) for what must hold whatever the moment of the kill:
//
// - per product, stock on hand plus the units out of the shop (in live orders, or shipped before
//   their order was cancelled, less those returned) is the stock the
//   demo seed gave it;
// - no order without items, no order item without its order, an order's subtotal is its items',
//   its last event is its status;
// - the units held for payments in flight (live stock reservations) never exceed a product's stock;
// - no payment order that is paid and has no order unless the customer was told so (a payment
//   verified through /rzp/verify-payment waits for its order) or its order was refused (the
//   reason is recorded with it, and the payment page offers 'Place my order', ADR 0007), or it
//   carries the refund flag (status `failed`, with the reason); no online order without its
//   recorded payment; no failed payment that became an order; the payment order records the order
//   that names it; no payment order that became an order is also refunded whole as never placed;
// - refunds (ADR 0024): a cancelled online order has its refund (queued in the cancellation's
//   transaction), a failed payment order with a recorded payment has one of that payment, and no
//   payment has refunds (pending or processed) above what it took;
// - no cart or session row in a half state: cart lines of a missing cart or item, quantities out
//   of range, sessions whose data is not a JSON object or names another user than its row;
// - every mail in the outbox (MAIL_DIR) is whole JSON.
//
// Customers are half API clients (bearer token, /api and /rzp, paying by signing with the test
// gateway's key secret as the gateway does) and half browsers (session cookie, the pages, the test
// gateway's page posting its signed fields to /rzp/payment-callback); the shop's admin ships,
// delivers and cancels meanwhile. A customer whose placement a kill cut retries it after the
// restart (the same idempotency key or payment proof, or a reload of the payment page). Fresh
// customers take over from those near the per-account limits.
//
//   node scripts/crash-test.mjs [--rounds 50] [--customers 8] [--window 2500] [--seed N] [--pg [ADMIN_URL]] [--keep]
//
// It builds nothing: it runs build/ (npx remix vite:build first). SQLite by default, in a
// temporary folder; with --pg ADMIN_URL (or TEST_PG_URL) an admin connection to PostgreSQL, on which it
// creates a fresh database (and drops it afterwards). Exits 1 on any violation.
// tests/integration/crash.test.ts runs a short version in npm test.
import { spawn } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import { SHIPPING } from "../tests/support/shipping.mjs";
import { entryArgs } from "./build-server.mjs";
import { createPgDatabase, freePort } from "./throwaway.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const SERVER_BUILD = path.join(root, "build", "server", "index.js");

const PASSWORD = "crash-test-password-1";
/**
 * Tries each customer may spend before a fresh customer takes over: the per-account limits of
 * app/lib/rate-limit.server.ts (place-order 20 an hour, verify-payment 60 and order-status 30 a
 * quarter), less room for the retries after a kill.
 */
const BUDGET = { place: 16, paymentOrder: 26, verify: 50, status: 26 };

/**
 * @typedef {object} CrashOptions
 * @property {number} [rounds] rounds, each ending in a SIGKILL (default 50)
 * @property {number} [customers] customers shopping at once in a round (default 8; half through the API, half as browsers)
 * @property {number} [windowMs] how long a round's shopping is spread over (default 2500); the kill comes between a quarter of it
 *   and 300 ms after its end
 * @property {number} [seed] seed of the customers' choices and the kill moments (the server's timing still varies)
 * @property {string | null} [pgAdminUrl] an admin connection to PostgreSQL: run on a fresh database there instead of SQLite
 * @property {boolean} [keep] keep the data folder (and the PostgreSQL database) afterwards; kept anyway on a violation
 * @property {(line: string) => void} [log] where the figures go (default: standard output)
 */

/**
 * @typedef {object} CrashSummary
 * @property {number} rounds rounds run
 * @property {number} kills SIGKILLs sent
 * @property {number} orders orders in the database at the end
 * @property {number} cancelled of which cancelled
 * @property {number} online of which paid online
 * @property {number} customers customers registered
 * @property {number} requests requests sent
 * @property {number} cut requests in flight when the server was killed
 * @property {string[]} serverErrors distinct 5xx answers (method, path, status), seen outside a kill
 * @property {string[]} violations distinct invariant violations
 * @property {number} strayGuestCarts guest carts no session names at the end (a kill between a guest's first add and its
 *   session's row leaves one; harmless, housekeeping deletes it after 30 idle days)
 * @property {number} seconds how long the run took
 * @property {string} database "sqlite" or "postgresql"
 * @property {string} dataDir the temporary data folder (removed unless kept)
 */

// ---- random choices --------------------------------------------------------------------

/** A small seeded generator (mulberry32), so a run's choices can be repeated. */
function randomSource(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
  };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- the server ------------------------------------------------------------------------

/** The production server (server/index.ts) as npm start runs it, started, killed and started again over one data folder. */
class ShopServer {
  constructor({ env, port, logFile }) {
    this.env = env;
    this.base = `http://127.0.0.1:${port}`;
    this.logFile = logFile;
    this.child = null;
    this.exited = null;
    this.tail = [];
  }

  /**
   * Starts the server and waits for /healthz; answers how long that took. A build removed under
   * the run (someone rebuilding) is waited for, up to 5 minutes, and the start tried again.
   */
  async start() {
    const started = Date.now();
    for (;;) {
      try {
        await this.startOnce();
        return Date.now() - started;
      } catch (error) {
        if (fs.existsSync(SERVER_BUILD) || Date.now() - started > 300_000) throw error;
        while (!fs.existsSync(SERVER_BUILD) && Date.now() - started < 300_000) await sleep(1000);
        // The new build's files land one after another: give them a moment.
        await sleep(3000);
      }
    }
  }

  async startOnce() {
    const log = fs.createWriteStream(this.logFile, { flags: "a" });
    const child = spawn(process.execPath, entryArgs(), {
      cwd: root,
      env: this.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    for (const stream of [child.stdout, child.stderr]) {
      stream.on("data", (chunk) => {
        log.write(chunk);
        this.tail.push(...chunk.toString().split("\n").filter(Boolean));
        this.tail.splice(0, Math.max(0, this.tail.length - 40));
      });
    }
    this.child = child;
    this.exited = new Promise((resolve) => child.once("exit", () => resolve(undefined)));
    void this.exited.then(() => log.end());
    const started = Date.now();
    let gone = false;
    void this.exited.then(() => (gone = true));
    // Back when /healthz answers (the server listens only once it has migrated and seeded).
    while (Date.now() - started < 60_000) {
      if (gone) throw new Error(`the server exited while starting:\n${this.tail.join("\n")}`);
      try {
        const answer = await httpCall(this.base, "GET", "/healthz", {}, undefined, 2000);
        if (answer.status === 200) return;
      } catch {
        // not listening yet
      }
      await sleep(50);
    }
    throw new Error(`the server did not answer /healthz within 60 s:\n${this.tail.join("\n")}`);
  }

  /** SIGKILL, by the child's own pid: no shutdown, no flush, as a power cut or the OOM killer. */
  async kill() {
    if (!this.child || this.child.exitCode !== null || this.child.signalCode !== null) return false;
    this.child.kill("SIGKILL");
    await this.exited;
    return true;
  }

  async stop() {
    if (!this.child || this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill("SIGTERM");
    const killer = setTimeout(() => this.child?.kill("SIGKILL"), 5000);
    await this.exited;
    clearTimeout(killer);
  }
}

// ---- HTTP ------------------------------------------------------------------------------

/** A request that got no whole answer: the server was killed under it (or was not listening). */
class ConnectionLost extends Error {}

/**
 * One request on its own connection (no pooled sockets to outlive a killed server), answered
 * with its status, headers and text; ConnectionLost when the connection fails or closes early.
 */
function httpCall(base, method, urlPath, headers, body, timeoutMs = 30_000) {
  return new Promise((resolve, reject) => {
    const request = http.request(new URL(urlPath, base), { method, headers, agent: false, timeout: timeoutMs }, (response) => {
      const chunks = [];
      response.on("data", (chunk) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString() }),
      );
      response.on("close", () => {
        if (!response.complete) reject(new ConnectionLost("the connection closed during the answer"));
      });
    });
    request.on("error", (error) => reject(new ConnectionLost(error.message)));
    request.on("timeout", () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    if (body !== undefined) request.end(body);
    else request.end();
  });
}

// ---- the run ---------------------------------------------------------------------------

/**
 * @param {CrashOptions} [options]
 * @returns {Promise<CrashSummary>}
 */
export async function runCrashTest(options = {}) {
  const rounds = options.rounds ?? 50;
  const customersPerRound = Math.max(2, options.customers ?? 8);
  const windowMs = options.windowMs ?? 2500;
  const seed = options.seed ?? crypto.randomInt(2 ** 31);
  const log = options.log ?? ((line) => console.info(line));
  if (!fs.existsSync(SERVER_BUILD)) {
    throw new Error(
      `No production build at ${path.relative(root, SERVER_BUILD)}: run \`npx remix vite:build\` first (this script builds nothing).`,
    );
  }
  const began = Date.now();
  const rng = randomSource(seed);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-crash-"));
  const mailDir = path.join(dataDir, "mail");
  const database = await createDatabase(dataDir, options.pgAdminUrl ?? null);
  // The offline test gateway's key secret (TEST_GATEWAY_SECRET, app/lib/secrets.server.ts): made
  // here and given to the server, so the API customers can sign their payments as the gateway does.
  const gatewaySecret = crypto.randomBytes(32).toString("hex");
  const adminPassword = crypto.randomBytes(18).toString("base64url");
  const port = await freePort();
  const server = new ShopServer({
    port,
    logFile: path.join(dataDir, "server.log"),
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      MAIL_DIR: mailDir,
      SEED: "demo",
      ADMIN_PASSWORD: adminPassword,
      TEST_GATEWAY_SECRET: gatewaySecret,
      TRUST_PROXY: "1",
    },
  });
  const run = {
    base: server.base,
    mailDir,
    gatewaySecret,
    windowMs,
    /** set the moment the kill is decided: nobody starts a request after it */
    killed: false,
    stats: { requests: 0, cut: 0, forged: 0, byClass: {}, serverErrors: new Map() },
    /** every payment order a customer started, by id */
    payments: new Map(),
    catalogue: [],
  };
  /** @type {CrashSummary} */
  const summary = {
    rounds: 0,
    kills: 0,
    orders: 0,
    cancelled: 0,
    online: 0,
    customers: 0,
    requests: 0,
    cut: 0,
    serverErrors: [],
    violations: [],
    strayGuestCarts: 0,
    seconds: 0,
    database: database.kind,
    dataDir,
  };
  const violations = new Set();
  let failed = false;
  log(`crash test: ${rounds} rounds, ${customersPerRound} customers a round, ${database.kind}, seed ${seed}, data in ${dataDir}`);
  try {
    await server.start();
    const initialStock = await readInitialStock(database);
    const admin = { name: "admin", ip: "10.250.0.1", cookie: null, token: null, rng: randomSource(seed ^ 0x5eed) };
    await adminLogin(run, admin, adminPassword);
    /** @type {Customer[]} */
    const customers = [];
    let previous = { orders: 0, cancelled: 0, online: 0 };

    for (let round = 1; round <= rounds; round += 1) {
      const roundStarted = Date.now();
      run.killed = false;
      const requestsBefore = run.stats.requests;
      const cutBefore = run.stats.cut;
      // Fresh customers take over from those whose limits are nearly spent; those still finish
      // what a kill interrupted.
      const needed = customersPerRound - customers.filter((c) => !spent(c)).length;
      if (needed > 0) customers.push(...(await registerCustomers(run, customers.length, needed, seed)));
      const shoppers = [
        ...customers.filter((c) => !spent(c)).slice(0, customersPerRound),
        ...customers.filter((c) => spent(c) && c.pending),
      ];
      run.catalogue = await readCatalogue(run);

      const killAt = rng.int(Math.floor(windowMs / 4), windowMs + 300);
      const shopping = Promise.allSettled([...shoppers.map((c) => shopRound(run, c)), adminRound(run, admin)]);
      await sleep(killAt);
      run.killed = true;
      const killed = await server.kill();
      if (killed) summary.kills += 1;
      for (const outcome of await shopping) {
        if (outcome.status === "rejected") throw outcome.reason;
      }
      const restartMs = await server.start();

      const check = await checkInvariants(database, initialStock, run);
      const fresh = check.violations.filter((v) => !violations.has(v));
      for (const v of check.violations) violations.add(v);
      summary.rounds = round;
      const figures = check.figures;
      log(
        `round ${round}/${rounds}: killed at ${killAt} ms with ${run.stats.cut - cutBefore} requests in flight ` +
          `(${run.stats.requests - requestsBefore} sent), back in ${(restartMs / 1000).toFixed(1)} s; ` +
          `orders ${figures.orders} (+${figures.orders - previous.orders}), ` +
          `cancelled ${figures.cancelled} (+${figures.cancelled - previous.cancelled}), ` +
          `online ${figures.online} (+${figures.online - previous.online}); payments paid and waiting ${figures.paidWaiting}, ` +
          `refund due ${figures.failed}; violations ${check.violations.length}` +
          `${fresh.length ? ` (new: ${fresh.length})` : ""} [${((Date.now() - roundStarted) / 1000).toFixed(1)} s]`,
      );
      for (const v of fresh) log(`  VIOLATION ${v}`);
      previous = figures;
    }

    // The customers a kill interrupted finish (or are refused) as they would after a reload, and
    // the database is read once more.
    run.killed = false;
    await Promise.all(customers.filter((c) => c.pending).map((c) => resume(run, c)));
    const final = await checkInvariants(database, initialStock, run);
    for (const v of final.violations.filter((v) => !violations.has(v))) {
      violations.add(v);
      log(`  VIOLATION (after the last customers finished) ${v}`);
    }
    Object.assign(summary, {
      orders: final.figures.orders,
      cancelled: final.figures.cancelled,
      online: final.figures.online,
      strayGuestCarts: final.figures.unnamedGuestCarts,
    });
    summary.customers = customers.length;
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    await server.stop();
    summary.requests = run.stats.requests;
    summary.cut = run.stats.cut;
    summary.serverErrors = [...run.stats.serverErrors.entries()].map(([what, n]) => `${what} (${n}×)`);
    if (run.stats.forged > 0)
      violations.add(`payments: ${run.stats.forged} payments signed with the gateway's secret were refused as forged`);
    summary.violations = [...violations];
    summary.seconds = Math.round((Date.now() - began) / 100) / 10;
    const keep = options.keep || failed || violations.size > 0;
    await database.close(keep);
    if (!keep) fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const byClass = Object.entries(run.stats.byClass)
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
  log(
    `summary: ${summary.rounds} rounds, ${summary.kills} kills, ${summary.orders} orders placed (${summary.online} online, ` +
      `${summary.cancelled} cancelled), ${summary.customers} customers, ${summary.requests} requests (${byClass}; ` +
      `${summary.cut} cut by a kill), ${summary.violations.length} invariant violations, ${summary.seconds} s on ${summary.database}`,
  );
  if (summary.strayGuestCarts) log(`guest carts no session names (harmless, housekeeping's): ${summary.strayGuestCarts}`);
  if (summary.serverErrors.length) log(`server errors (5xx) outside a kill: ${summary.serverErrors.join("; ")}`);
  if (summary.violations.length) log(`violations:\n${summary.violations.map((v) => `  ${v}`).join("\n")}\nkept: ${dataDir}`);
  return summary;
}

// ---- the database ----------------------------------------------------------------------

/** A fresh SQLite file in the data folder, or a fresh PostgreSQL database made with the admin URL. */
async function createDatabase(dataDir, pgAdminUrl) {
  if (!pgAdminUrl) {
    const file = path.join(dataDir, "shop.db");
    return {
      kind: "sqlite",
      url: `file:${file}`,
      /** a read-only snapshot: `read(all => …)` */
      async read(work) {
        const sqlite = new Database(file, { readonly: true, fileMustExist: true });
        try {
          sqlite.pragma("busy_timeout = 5000");
          sqlite.exec("begin");
          const result = await work(async (sql) => sqlite.prepare(sql).all());
          sqlite.exec("commit");
          return result;
        } finally {
          sqlite.close();
        }
      },
      async close() {},
    };
  }
  const database = await createPgDatabase(pgAdminUrl, "shop_crash");
  return {
    kind: "postgresql",
    url: database.url,
    async read(work) {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        await client.query("begin isolation level repeatable read read only");
        const result = await work(async (sql) => (await client.query(sql)).rows);
        await client.query("commit");
        return result;
      } finally {
        await client.end();
      }
    },
    async close(keep) {
      if (!keep) await database.drop();
    },
  };
}

/** Each variant's stock as the demo seed left it, before anyone shopped (stock is the variant's, migration 0032). */
async function readInitialStock(database) {
  return database.read(async (all) => {
    const [{ n }] = await all("select count(*) as n from orders");
    if (Number(n) !== 0) throw new Error("the new database already holds orders");
    const variants = await all("select id, sku as slug, stock from product_variants order by id");
    if (variants.length === 0) throw new Error("the demo seed made no products");
    return new Map(variants.map((v) => [Number(v.id), { slug: v.slug, stock: Number(v.stock) }]));
  });
}

/**
 * Reads the database (one read-only snapshot) and the outbox; answers each violation in words,
 * and the figures of the round.
 */
async function checkInvariants(database, initialStock, run) {
  const violations = [];
  const figures = await database.read(async (all) => {
    // Stock on hand plus units out of the shop is what each variant started with: units in live
    // orders, and in orders cancelled after they shipped (with the carrier until they come back,
    // ADR 0025), less units returned (received back into stock).
    const items = await all("select id, sku as slug, stock from product_variants");
    const live = await all(
      `select oi.variant_id as item_id, sum(oi.quantity) - coalesce(sum(rl.returned), 0) as units
       from order_items oi join orders o on o.id = oi.order_id
       left join (select l.order_item_id, sum(l.quantity) as returned from return_lines l
                  join return_requests r on r.id = l.return_id and r.status = 'returned' group by l.order_item_id) rl
         on rl.order_item_id = oi.id
       where oi.variant_id is not null and (o.status <> 'cancelled'
         or exists (select 1 from order_events e where e.order_id = o.id and e.to_status = 'shipped'))
       group by oi.variant_id`,
    );
    const units = new Map(live.map((r) => [Number(r.item_id), Number(r.units)]));
    const seen = new Set();
    for (const item of items) {
      const id = Number(item.id);
      seen.add(id);
      const initial = initialStock.get(id);
      const stock = Number(item.stock);
      if (!initial) {
        violations.push(`stock: variant ${item.slug} (#${id}) appeared during the run`);
        continue;
      }
      const inOrders = units.get(id) ?? 0;
      if (stock < 0) violations.push(`stock: ${item.slug} has ${stock} on hand`);
      if (stock + inOrders !== initial.stock) {
        violations.push(
          `stock: ${item.slug} has ${stock} on hand and ${inOrders} in live orders (${stock + inOrders}), ` +
            `but started with ${initial.stock}`,
        );
      }
    }
    for (const [id, initial] of initialStock) {
      if (!seen.has(id)) violations.push(`stock: variant ${initial.slug} (#${id}) vanished`);
    }
    // A product's stock is its active variants' (kept by trigger, migration 0032).
    for (const r of await all(
      `select i.slug, i.stock, (select coalesce(sum(v.stock), 0) from product_variants v where v.item_id = i.id and v.active = 1) as sum
       from items i`,
    )) {
      if (Number(r.stock) !== Number(r.sum)) violations.push(`stock: ${r.slug} shows ${r.stock}, but its variants hold ${r.sum}`);
    }
    // Units held while customers pay (ADR 0023): live holds never exceed the variant's stock on hand.
    const now = new Date().toISOString();
    for (const r of await all(
      `select v.sku as slug, v.stock, sum(r.quantity) as held from stock_reservations r join product_variants v on v.id = r.variant_id
       where r.expires_at > '${now}' group by v.id, v.sku, v.stock having sum(r.quantity) > v.stock`,
    )) {
      violations.push(`stock: ${r.slug} has ${r.stock} on hand, but ${r.held} are held for payments`);
    }

    // Orders, whole: items, subtotal, events.
    for (const r of await all("select o.id from orders o where not exists (select 1 from order_items oi where oi.order_id = o.id)")) {
      violations.push(`orders: order #${r.id} has no items`);
    }
    for (const r of await all(
      "select oi.id, oi.order_id from order_items oi where not exists (select 1 from orders o where o.id = oi.order_id)",
    )) {
      violations.push(`orders: order item #${r.id} names order #${r.order_id}, which does not exist`);
    }
    for (const r of await all(
      `select o.id, o.subtotal, sum(oi.quantity * oi.unit_price) as items_sum from orders o join order_items oi on oi.order_id = o.id
       group by o.id, o.subtotal having o.subtotal <> sum(oi.quantity * oi.unit_price)`,
    )) {
      violations.push(`orders: order #${r.id} has subtotal ${r.subtotal}, its items add up to ${r.items_sum}`);
    }
    for (const r of await all(
      `select o.id, o.status, (select e.to_status from order_events e where e.order_id = o.id order by e.id desc limit 1) as last_event
       from orders o`,
    )) {
      if (r.last_event === null) violations.push(`orders: order #${r.id} has no events`);
      else if (r.last_event !== r.status) violations.push(`orders: order #${r.id} is ${r.status} but its last event says ${r.last_event}`);
    }

    // Payments: recorded and ordered together, or the customer was told, or refund due.
    let paidWaiting = 0;
    let failedCount = 0;
    const payments = await all(
      `select p.id, p.status, p.payment_id, p.failure, p.order_id as recorded_order_id, o.id as order_id, o.payment_id as order_payment_id
       from payment_orders p left join orders o on o.payment_order_id = p.id`,
    );
    for (const p of payments) {
      // The payment order records the order it became, in that order's transaction (migration 0026).
      if (p.recorded_order_id !== p.order_id) {
        violations.push(`payments: ${p.id} records order ${p.recorded_order_id ?? "none"}, but order ${p.order_id ?? "none"} names it`);
      }
      if (p.status === "failed") {
        failedCount += 1;
        if (p.order_id !== null) violations.push(`payments: ${p.id} is marked failed (refund due) but became order #${p.order_id}`);
        if (!p.failure) violations.push(`payments: ${p.id} is marked failed without a reason`);
        continue;
      }
      if (p.order_id !== null) {
        if (p.status !== "paid") violations.push(`payments: order #${p.order_id} was placed for ${p.id}, whose payment is ${p.status}`);
        else if (p.payment_id !== p.order_payment_id) {
          violations.push(`payments: order #${p.order_id} names payment ${p.order_payment_id}, ${p.id} recorded ${p.payment_id}`);
        }
        continue;
      }
      if (p.status !== "paid") continue;
      paidWaiting += 1;
      // Refused with the reason recorded: the payment page offers 'Place my order' (ADR 0007).
      if (p.failure) continue;
      const known = run.payments.get(p.id);
      if (!known) violations.push(`payments: ${p.id} is paid with no order, and no customer started it`);
      else if (!known.told) {
        violations.push(
          `payments: ${p.id} is paid with no order and no refund flag, and its customer was never told (the kill fell ` +
            `between recording the payment and placing its order; paid through ` +
            `${known.via === "page" ? "the test gateway page" : "POST /api/orders/add"})`,
        );
      }
    }
    for (const r of await all(
      "select o.id from orders o where o.payment_method = 'online' and (o.payment_order_id is null or o.payment_id is null)",
    )) {
      violations.push(`payments: online order #${r.id} has no payment`);
    }

    // Refunds: queued with the decision that owes them, never above what a payment took.
    for (const r of await all(
      `select o.id from orders o where o.status = 'cancelled' and o.payment_method = 'online'
       and not exists (select 1 from refunds f where f.order_id = o.id and f.reason = 'cancelled')`,
    )) {
      violations.push(`refunds: online order #${r.id} was cancelled without its refund`);
    }
    for (const r of await all(
      `select p.id from payment_orders p join refunds f on f.payment_order_id = p.id and f.idempotency_key = 'unplaced:' || p.id
       where p.order_id is not null or exists (select 1 from orders o where o.payment_order_id = p.id)`,
    )) {
      violations.push(`refunds: ${r.id} became an order and was also refunded whole as never placed`);
    }
    for (const r of await all(
      `select p.id from payment_orders p where p.status = 'failed' and p.payment_id is not null
       and not exists (select 1 from refunds f where f.payment_order_id = p.id and f.payment_id = p.payment_id)`,
    )) {
      violations.push(`refunds: ${r.id} is marked failed (refund due) but has no refund`);
    }
    for (const r of await all(
      `select f.payment_order_id, f.payment_id, sum(f.amount) as refunded, max(p.amount_paise) as paid_paise
       from refunds f join payment_orders p on p.id = f.payment_order_id
       where f.status <> 'failed' group by f.payment_order_id, f.payment_id`,
    )) {
      if (Number(r.refunded) * 100 > Number(r.paid_paise)) {
        const paid = Number(r.paid_paise) / 100;
        violations.push(`refunds: payment ${r.payment_id} (${r.payment_order_id}) has ₹${r.refunded} refunded of ₹${paid}`);
      }
    }

    // Carts and sessions: nothing half made.
    for (const r of await all(
      `select cl.id, cl.cart_id, cl.item_id, cl.quantity, c.id as cart, i.id as item from cart_lines cl
       left join carts c on c.id = cl.cart_id left join items i on i.id = cl.item_id
       where c.id is null or i.id is null or cl.quantity < 1 or cl.quantity > 99`,
    )) {
      if (r.cart === null) violations.push(`carts: cart line #${r.id} names a missing cart`);
      else if (r.item === null) violations.push(`carts: cart line #${r.id} names a missing product #${r.item_id}`);
      else violations.push(`carts: cart line #${r.id} holds ${r.quantity} units`);
    }
    for (const r of await all(
      "select c.id from carts c where c.user_id is not null and not exists (select 1 from users u where u.id = c.user_id)",
    )) {
      violations.push(`carts: cart ${String(r.id).slice(0, 8)}… belongs to a missing user`);
    }
    const users = new Set((await all("select id from users")).map((u) => Number(u.id)));
    const namedCarts = new Set();
    for (const s of await all("select id, user_id, data from sessions")) {
      const label = `session ${String(s.id).slice(0, 6)}…`;
      let data;
      try {
        data = JSON.parse(s.data);
      } catch {
        violations.push(`sessions: ${label} holds data that is not JSON`);
        continue;
      }
      if (data === null || typeof data !== "object" || Array.isArray(data)) {
        violations.push(`sessions: ${label} holds data that is not an object`);
        continue;
      }
      const userId = s.user_id === null ? null : Number(s.user_id);
      if ((data.userId ?? null) !== userId) violations.push(`sessions: ${label} row names user ${userId}, its data ${data.userId ?? null}`);
      if (userId !== null && !users.has(userId)) violations.push(`sessions: ${label} names a missing user #${userId}`);
      if (typeof data.cartId === "string") namedCarts.add(data.cartId);
    }
    const guestCarts = await all("select id from carts where user_id is null");

    const [counts] = await all(
      `select count(*) as orders, sum(case when status = 'cancelled' then 1 else 0 end) as cancelled,
       sum(case when payment_method = 'online' then 1 else 0 end) as online from orders`,
    );
    return {
      orders: Number(counts.orders),
      cancelled: Number(counts.cancelled ?? 0),
      online: Number(counts.online ?? 0),
      paidWaiting,
      failed: failedCount,
      unnamedGuestCarts: guestCarts.filter((c) => !namedCarts.has(c.id)).length,
    };
  });

  // The outbox: a mail is a whole JSON file or none.
  let names = [];
  try {
    names = fs.readdirSync(run.mailDir).filter((n) => n.endsWith(".json"));
  } catch {
    // no mail yet
  }
  for (const name of names) {
    const text = fs.readFileSync(path.join(run.mailDir, name), "utf8");
    try {
      const mail = JSON.parse(text);
      if (typeof mail.to !== "string" || typeof mail.subject !== "string") throw new Error("not a mail");
    } catch {
      violations.push(`outbox: ${name} is not a whole mail (${text.length} bytes)`);
    }
  }
  return { violations, figures };
}

// ---- customers -------------------------------------------------------------------------

/**
 * @typedef {object} Customer
 * @property {number} index
 * @property {"api" | "browser"} kind API customers use a bearer token and the JSON API; browsers the pages and a session cookie
 * @property {string} name
 * @property {string} email
 * @property {string} ip what the trusted proxy reports (X-Forwarded-For): limits per address hold per customer
 * @property {string | null} token
 * @property {string | null} cookie
 * @property {{ place: number, paymentOrder: number, verify: number, status: number }} used tries counted by the shop's limits
 * @property {number[]} orders
 * @property {Pending | null} pending the placement a kill interrupted, retried before anything else
 * @property {boolean} signingIn a browser between signing out and signing in again
 * @property {ReturnType<typeof randomSource>} rng
 */

/**
 * @typedef {{ kind: "cod", key: string } | { kind: "online-api", payment: Payment } | { kind: "online-page", payment: Payment }} Pending
 * @typedef {{ id: string, via: "api" | "page", told: boolean, proof: Record<string, string> | null, orderId: number | null }} Payment
 */

function spent(c) {
  return (
    c.used.place >= BUDGET.place ||
    c.used.paymentOrder >= BUDGET.paymentOrder ||
    c.used.verify >= BUDGET.verify ||
    c.used.status >= BUDGET.status
  );
}

/** A request as the customer (or the admin) sends it: their address, token or cookie, and this site's Origin. */
async function send(run, who, method, urlPath, { json, form } = {}) {
  if (run.killed) throw new ConnectionLost("the server is being killed");
  const headers = {
    "X-Forwarded-For": who.ip,
    Accept: json === undefined && !urlPath.startsWith("/api/") ? "text/html" : "application/json",
  };
  if (who.token) headers.Authorization = `Bearer ${who.token}`;
  if (who.cookie) headers.Cookie = who.cookie;
  if (method !== "GET") headers.Origin = run.base;
  let body;
  if (json !== undefined) {
    body = JSON.stringify(json);
    headers["Content-Type"] = "application/json";
  } else if (form !== undefined) {
    body = new URLSearchParams(form).toString();
    headers["Content-Type"] = "application/x-www-form-urlencoded";
  }
  if (body !== undefined) headers["Content-Length"] = String(Buffer.byteLength(body));
  run.stats.requests += 1;
  let answer;
  try {
    answer = await httpCall(run.base, method, urlPath, headers, body);
  } catch (error) {
    if (run.killed) run.stats.cut += 1;
    else throw new Error(`${method} ${urlPath} failed while the server was up: ${error instanceof Error ? error.message : error}`);
    throw error;
  }
  const group = `${Math.floor(answer.status / 100)}xx`;
  run.stats.byClass[group] = (run.stats.byClass[group] ?? 0) + 1;
  if (answer.status >= 500 && answer.status !== 503) {
    const what = `${method} ${urlPath.replace(/\d+/g, "N").replace(/order_\w+/g, "order_X")} ${answer.status}`;
    run.stats.serverErrors.set(what, (run.stats.serverErrors.get(what) ?? 0) + 1);
  }
  for (const line of [answer.headers["set-cookie"] ?? []].flat()) {
    const match = /^__session=([^;]*)/.exec(line);
    if (!match) continue;
    const cleared = !match[1] || /max-age=0\b/i.test(line) || /expires=thu, 01 jan 1970/i.test(line);
    who.cookie = cleared ? null : `__session=${match[1]}`;
  }
  const type = String(answer.headers["content-type"] ?? "");
  let parsed = null;
  if (type.includes("json")) {
    try {
      parsed = JSON.parse(answer.text);
    } catch {
      parsed = null;
    }
  }
  const location = String(answer.headers.location ?? "");
  // The customers sign with the gateway's key secret: a refused signature means the run's secret is not
  // the server's, and no online payment of the run could be tested.
  if (parsed?.message === "Payment verification failed" || location.includes("payment=failed")) run.stats.forged += 1;
  return { status: answer.status, body: parsed, text: answer.text, location };
}

/** Retries what the shop answers 503 (busy hashing) or 429 to; the customers' setup must not give up. */
async function sendPatiently(run, who, method, urlPath, init) {
  for (let attempt = 0; ; attempt += 1) {
    const answer = await send(run, who, method, urlPath, init);
    if ((answer.status !== 503 && answer.status !== 429) || attempt >= 20) return answer;
    await sleep(500 + attempt * 250);
  }
}

/** The newest sign-up code mailed to `email` (MAIL_DIR, as tests/support/outbox.ts reads it). */
async function signupCode(mailDir, email) {
  for (let i = 0; i < 200; i += 1) {
    let newest = null;
    for (const name of fs.existsSync(mailDir) ? fs.readdirSync(mailDir) : []) {
      if (!name.endsWith(".json")) continue;
      try {
        const mail = JSON.parse(fs.readFileSync(path.join(mailDir, name), "utf8"));
        if (mail.to === email && /verification code/i.test(mail.subject) && (!newest || mail.sentAt > newest.sentAt)) newest = mail;
      } catch {
        // being written
      }
    }
    const code = /code is (\d{4})\b/.exec(newest?.text ?? "")?.[1];
    if (code) return code;
    await sleep(50);
  }
  throw new Error(`no sign-up code was mailed to ${email}`);
}

/** `count` new verified customers, alternately API clients and browsers, a few at a time (hashing is slow). */
async function registerCustomers(run, from, count, seed) {
  const made = [];
  const tag = crypto.randomBytes(3).toString("hex");
  const register = async (index) => {
    /** @type {Customer} */
    const c = {
      index,
      kind: index % 2 === 0 ? "api" : "browser",
      name: `Crash Customer ${index}`,
      email: `crash-${tag}-${index}@example.com`,
      ip: `10.${1 + Math.floor(index / 250)}.${index % 250}.${1 + (index % 200)}`,
      token: null,
      cookie: null,
      used: { place: 0, paymentOrder: 0, verify: 0, status: 0 },
      orders: [],
      pending: null,
      signingIn: false,
      rng: randomSource(seed + 7919 * (index + 1)),
    };
    const registered = await sendPatiently(run, c, "POST", "/api/user/auth/register", {
      json: { name: c.name, email: c.email, password: PASSWORD },
    });
    if (registered.status !== 201) throw new Error(`registering ${c.email}: ${registered.status} ${registered.text.slice(0, 200)}`);
    const otp = await signupCode(run.mailDir, c.email);
    const verified = await sendPatiently(run, c, "POST", "/api/user/auth/verifyOtp", {
      json: { email: c.email, otp, attemptId: registered.body?.attemptId },
    });
    if (verified.status !== 200 || typeof verified.body?.token !== "string") {
      throw new Error(`verifying ${c.email}: ${verified.status} ${verified.text.slice(0, 200)}`);
    }
    if (c.kind === "api") c.token = verified.body.token;
    else await browserLogin(run, c);
    made.push(c);
  };
  const queue = Array.from({ length: count }, (_, i) => from + i);
  await Promise.all(
    Array.from({ length: Math.min(3, count) }, async () => {
      for (let index = queue.shift(); index !== undefined; index = queue.shift()) await register(index);
    }),
  );
  return made.sort((a, b) => a.index - b.index);
}

/** The login page's form: the session cookie comes back (a guest cart the cookie held joins the account). */
async function browserLogin(run, c) {
  const answer = await sendPatiently(run, c, "POST", "/login", { form: { email: c.email, password: PASSWORD, redirectTo: "/" } });
  if (answer.status !== 302 && answer.status !== 303) throw new Error(`logging in ${c.email}: ${answer.status}`);
  if (!c.cookie) throw new Error(`logging in ${c.email} set no session cookie`);
}

async function adminLogin(run, admin, password) {
  const answer = await sendPatiently(run, admin, "POST", "/admin/login", { form: { password } });
  if (answer.status !== 303 || !admin.cookie) throw new Error(`Admin Access refused the password: ${answer.status}`);
}

/** Every product with its stock, as a visitor reads the catalogue. */
async function readCatalogue(run) {
  const visitor = { ip: "10.251.0.1", token: null, cookie: null };
  const categories = await send(run, visitor, "GET", "/api/categories");
  const items = [];
  for (const category of categories.body ?? []) {
    const answer = await send(run, visitor, "GET", `/api/category/items?slug=${encodeURIComponent(category.slug)}`);
    items.push(...(answer.body?.items ?? []));
  }
  return items;
}

const ok = (status) => status >= 200 && status < 400;
const idempotencyKey = () => crypto.randomBytes(18).toString("base64url");

/**
 * One customer's round: first what the last kill interrupted, then some cart changes, at a
 * random moment the main errand (an order paid in cash or online, perhaps a cancellation), then
 * more cart changes, until the server is killed under them.
 */
async function shopRound(run, c) {
  try {
    await resume(run, c);
    const errandAt = Date.now() + c.rng.int(0, run.windowMs / 4);
    while (Date.now() < errandAt && !run.killed) await churn(run, c);
    if (!run.killed && !spent(c)) await errand(run, c);
    // Now and then a browser signs out and back in (a password hash: slow, so not often).
    if (!run.killed && c.kind === "browser" && c.rng.chance(0.15)) await signOutAndBackIn(run, c);
    while (!run.killed) await churn(run, c);
  } catch (error) {
    if (!(error instanceof ConnectionLost)) throw error;
  }
}

/** A small change to the cart (or a look at it), then a pause. */
async function churn(run, c) {
  const roll = c.rng.next();
  if (roll < 0.35) await addToCart(run, c, c.rng.pick(inStock(run)), 1);
  else if (roll < 0.55) {
    const lines = await cartLines(run, c);
    const line = lines.length ? c.rng.pick(lines) : null;
    if (line) await send(run, c, "PUT", "/api/cart/update", { json: { id: line.id, quantity: c.rng.int(1, 3) } });
  } else if (roll < 0.7) {
    const lines = await cartLines(run, c);
    const line = lines.length ? c.rng.pick(lines) : null;
    if (line && c.kind === "api") await send(run, c, "DELETE", `/api/cart/clear/${line.id}`);
    else if (line) await send(run, c, "POST", "/cart", { form: { intent: "remove", id: String(line.id), redirectTo: "/cart" } });
  } else {
    await send(run, c, "GET", c.kind === "api" ? "/api/orders?pageSize=5" : "/cart");
  }
  await sleep(c.rng.int(80, 250));
}

function inStock(run) {
  const items = run.catalogue.filter((i) => i.stock > 0);
  return items.length ? items : run.catalogue;
}

async function cartLines(run, c) {
  const answer = await send(run, c, "GET", "/api/cart/get");
  return answer.status === 200 ? (answer.body?.items ?? []) : [];
}

async function addToCart(run, c, item, quantity) {
  if (!item) return false;
  if (c.kind === "api") return ok((await send(run, c, "POST", "/api/cart/add", { json: { itemId: item.id, quantity } })).status);
  const form = { intent: "add", itemId: String(item.id), quantity: String(quantity), redirectTo: "/cart" };
  return ok((await send(run, c, "POST", "/cart", { form })).status);
}

async function clearCart(run, c) {
  if (c.kind === "api") await send(run, c, "DELETE", "/api/cart/clear");
  else await send(run, c, "POST", "/cart", { form: { intent: "clear", redirectTo: "/cart" } });
}

/** A browser signs out, fills a guest cart and signs in again: the guest cart joins the account's. */
async function signOutAndBackIn(run, c) {
  c.signingIn = true;
  await send(run, c, "POST", "/logout", { form: { redirectTo: "/" } });
  c.cookie = null;
  await addToCart(run, c, c.rng.pick(inStock(run)), 1);
  await browserLogin(run, c);
  c.signingIn = false;
}

/** A browser that a kill caught signing out and in again signs in now. */
async function signedIn(run, c) {
  if (!c.signingIn) return;
  const answer = await send(run, c, "GET", "/api/auth/profile");
  if (answer.status === 401) await browserLogin(run, c);
  c.signingIn = false;
}

/** The round's main errand: a new cart, then an order in cash or online, and perhaps a cancellation. */
async function errand(run, c) {
  await signedIn(run, c);
  await clearCart(run, c);
  const picks = new Set();
  for (let n = c.rng.int(1, 2); n > 0; n -= 1) picks.add(c.rng.pick(inStock(run)));
  let filled = false;
  for (const item of picks) filled = (await addToCart(run, c, item, c.rng.int(1, 2))) || filled;
  if (filled) {
    if (c.rng.chance(0.45)) await placeCod(run, c, idempotencyKey());
    else if (c.kind === "api") await payThroughApi(run, c);
    else await payOnPage(run, c);
  }
  if (c.orders.length && c.rng.chance(0.6)) await cancel(run, c, c.rng.pick(c.orders));
}

function orderIdFrom(answer) {
  if (answer.status === 201 && typeof answer.body?.id === "number") return answer.body.id;
  const confirmed = /\/order-confirmation\/(\d+)/.exec(answer.location);
  if (confirmed) return Number(confirmed[1]);
  const repeated = /order #(\d+)/.exec(answer.body?.message ?? "");
  return repeated ? Number(repeated[1]) : null;
}

function placed(c, orderId) {
  if (orderId !== null && !c.orders.includes(orderId)) c.orders.push(orderId);
}

/** Cash on delivery: the API with an idempotency key, or the checkout page's form (its key too). */
async function placeCod(run, c, key) {
  c.pending = { kind: "cod", key };
  c.used.place += 1;
  const fields = { ...SHIPPING, paymentMethod: "cod", idempotencyKey: key };
  const answer =
    c.kind === "api"
      ? await send(run, c, "POST", "/api/orders/add", { json: fields })
      : await send(run, c, "POST", "/checkout", { form: fields });
  c.pending = null;
  placed(c, orderIdFrom(answer));
}

/** The gateway's answer for a payment order: a new payment id, signed with the test gateway's key secret. */
function gatewayPayment(run, paymentOrderId) {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  let paymentId = "pay_TEST";
  while (paymentId.length < 18) paymentId += alphabet[crypto.randomInt(alphabet.length)];
  const signature = crypto.createHmac("sha256", run.gatewaySecret).update(`${paymentOrderId}|${paymentId}`).digest("hex");
  return { razorpay_order_id: paymentOrderId, razorpay_payment_id: paymentId, razorpay_signature: signature };
}

/** Online through the API: a payment order, the gateway's payment, perhaps /rzp/verify-payment first, then the order. */
async function payThroughApi(run, c) {
  c.used.paymentOrder += 1;
  const created = await send(run, c, "POST", "/rzp/create-order", { json: {} });
  if (created.status !== 200 || typeof created.body?.id !== "string") return;
  /** @type {Payment} */
  const payment = { id: created.body.id, via: "api", told: false, proof: gatewayPayment(run, created.body.id), orderId: null };
  run.payments.set(payment.id, payment);
  c.pending = { kind: "online-api", payment };
  if (c.rng.chance(0.5)) {
    // Verifying only records the payment: once it is asked, the customer knows it may be waiting.
    payment.told = true;
    c.used.verify += 1;
    await send(run, c, "POST", "/rzp/verify-payment", { json: payment.proof });
  }
  await placeOnline(run, c, payment);
}

async function placeOnline(run, c, payment) {
  c.pending = { kind: "online-api", payment };
  c.used.place += 1;
  const answer = await send(run, c, "POST", "/api/orders/add", { json: { ...SHIPPING, paymentMethod: "online", ...payment.proof } });
  c.pending = null;
  settle(c, payment, answer);
}

/** What an answer to a placement says about its payment: ordered, or refused (the customer sees the payment waiting). */
function settle(c, payment, answer) {
  const orderId = orderIdFrom(answer);
  if (orderId !== null && ok(answer.status)) payment.orderId = orderId;
  else if (orderId !== null && /already been used for order/.test(answer.body?.message ?? "")) payment.orderId = orderId;
  else payment.told = true;
  placed(c, payment.orderId);
}

/** Online in the browser: the checkout page makes the payment order, the test gateway's page pays it. */
async function payOnPage(run, c) {
  c.used.place += 1;
  const started = await send(run, c, "POST", "/checkout", {
    form: { ...SHIPPING, paymentMethod: "online", idempotencyKey: idempotencyKey() },
  });
  const id = /\/pay\/(order_\w+)/.exec(started.location)?.[1];
  if (!id) return;
  /** @type {Payment} */
  const payment = { id, via: "page", told: false, proof: null, orderId: null };
  run.payments.set(id, payment);
  await payPage(run, c, payment, "pay");
}

/**
 * 'pay': the test gateway's page posts its signed fields to the shop's callback, as Razorpay's
 * redirect flow does (a retry after a kill posts the same fields again); 'place': the /pay page's button.
 */
async function payPage(run, c, payment, intent) {
  c.pending = { kind: "online-page", payment };
  c.used.verify += 1;
  const answer =
    intent === "pay"
      ? await send(run, c, "POST", "/rzp/payment-callback", { form: (payment.proof ??= gatewayPayment(run, payment.id)) })
      : await send(run, c, "POST", `/pay/${payment.id}`, { form: { intent } });
  c.pending = null;
  settle(c, payment, answer);
}

/** A customer's cancellation (refused once the shop has shipped it): the order is then no longer theirs to cancel. */
async function cancel(run, c, orderId) {
  c.used.status += 1;
  c.orders = c.orders.filter((id) => id !== orderId);
  if (c.kind === "api") await send(run, c, "PUT", "/api/orders/changeStatus", { json: { orderId, status: "cancelled" } });
  else await send(run, c, "POST", "/orders", { form: { intent: "cancel", orderId: String(orderId) } });
}

/**
 * After a kill, the customer retries what was cut, as a client does after a network error: the
 * same idempotency key, the same payment proof, or a reload of the payment page (which shows
 * the order, 'Payment received' with 'Place my order', or the unpaid gateway).
 */
async function resume(run, c) {
  const pending = c.pending;
  if (!pending) return;
  await signedIn(run, c);
  if (pending.kind === "cod") return placeCod(run, c, pending.key);
  if (pending.kind === "online-api") return placeOnline(run, c, pending.payment);
  const page = await send(run, c, "GET", `/pay/${pending.payment.id}`);
  const shown = /\/order-confirmation\/(\d+)/.exec(page.location);
  if (shown) {
    pending.payment.orderId = Number(shown[1]);
    placed(c, pending.payment.orderId);
    c.pending = null;
    return;
  }
  if (page.status !== 200) {
    c.pending = null;
    return;
  }
  // 'Payment received': the customer now knows the payment waits for its order.
  if (/Payment received/.test(page.text)) pending.payment.told = true;
  await payPage(run, c, pending.payment, /Payment received/.test(page.text) ? "place" : "pay");
}

/** The shop ships, delivers and cancels (shipped orders too) while the customers shop. */
async function adminRound(run, admin) {
  try {
    await sleep(admin.rng.int(0, run.windowMs));
    for (let n = admin.rng.int(1, 3); n > 0 && !run.killed; n -= 1) {
      const list = await send(run, admin, "GET", "/api/orders?pageSize=40");
      const orders = Array.isArray(list.body) ? list.body : [];
      const processing = orders.filter((o) => o.status === "processing");
      const shipped = orders.filter((o) => o.status === "shipped");
      if (shipped.length && admin.rng.chance(0.5)) {
        const order = admin.rng.pick(shipped);
        const status = admin.rng.chance(0.5) ? "cancelled" : "delivered";
        await send(run, admin, "PUT", "/api/orders/changeStatus", { json: { orderId: order.id, status } });
      } else if (processing.length) {
        await send(run, admin, "PUT", "/api/orders/changeStatus", { json: { orderId: admin.rng.pick(processing).id, status: "shipped" } });
      }
      await sleep(admin.rng.int(50, 300));
    }
  } catch (error) {
    if (!(error instanceof ConnectionLost)) throw error;
  }
}

// ---- the command line ------------------------------------------------------------------

async function main() {
  // A bare `--pg` (npm run crash-test -- --pg): a throwaway PostgreSQL cluster of its own.
  const bare = process.argv.indexOf("--pg");
  if (bare !== -1 && (process.argv[bare + 1] === undefined || process.argv[bare + 1].startsWith("--"))) {
    const { startPostgres } = await import("./throwaway.mjs");
    const cluster = await startPostgres();
    process.argv.splice(bare + 1, 0, cluster.adminUrl);
    process.on("exit", () => cluster.stop());
  }
  const { values } = parseArgs({
    options: {
      rounds: { type: "string", default: "50" },
      customers: { type: "string", default: "8" },
      window: { type: "string", default: "2500" },
      seed: { type: "string" },
      pg: { type: "string" },
      keep: { type: "boolean", default: false },
    },
  });
  const number = (name, value) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive whole number`);
    return n;
  };
  if (!fs.existsSync(SERVER_BUILD)) {
    console.error(`No production build at build/server/index.js. This script builds nothing: run \`npx remix vite:build\` first.`);
    process.exit(2);
  }
  const summary = await runCrashTest({
    rounds: number("rounds", values.rounds),
    customers: number("customers", values.customers),
    windowMs: number("window", values.window),
    seed: values.seed === undefined ? undefined : number("seed", values.seed),
    pgAdminUrl: values.pg ?? process.env.TEST_PG_URL ?? null,
    keep: values.keep,
  });
  process.exit(summary.violations.length > 0 ? 1 : 0);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  });
}
