// The production server's metrics endpoint and request ids, as `npm start` serves them (server/index.ts,
// server/metrics.ts, app/lib/request-context.server.ts): who may read GET /metrics, requests counted by
// route id, the page cache's hits; every request's id (made, or a trusted proxy's) on its answer, in its
// log lines, in the outbox row and the mail it queued and on its 500 page; and a log that holds none of
// the secrets the requests carried. Runs once the build is done (scripts/test.sh's AFTER_BUILD).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { createTestItem } from "../support/items";
import { latestCode } from "../support/outbox";
import type { ProductionServer } from "../support/production-server";
import { logLines, serverBuild, startProductionServer, waitFor } from "../support/production-server";

const mustRun = process.env.SHOP_AFTER_BUILD === "1";
const TOKEN = crypto.randomBytes(24).toString("base64url");
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Behind a proxy on loopback (TRUST_PROXY=loopback): X-Forwarded-For names the client, X-Request-Id is the proxy's. */
let proxied: ProductionServer | null = null;
/** Reached directly (TRUST_PROXY=0), metrics for the token only (METRICS_ALLOW=none). */
let direct: ProductionServer | null = null;
/** TRUST_PROXY=0 and METRICS_ALLOW's default (loopback), as a proxy on loopback would reach it when TRUST_PROXY is forgotten. */
let untrusted: ProductionServer | null = null;

/** One series' value in a metrics text (labels matched exactly); 0 when absent. */
function seriesValue(body: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort()
    .join(",");
  for (const line of body.split("\n")) {
    if (!line.startsWith(`${name}{`)) continue;
    const have = line
      .slice(name.length + 1, line.indexOf("}"))
      .split(",")
      .sort()
      .join(",");
    if (have === wanted) return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return 0;
}

async function metrics(server: ProductionServer): Promise<string> {
  const answer = await fetch(`${server.base}/metrics`);
  expect(answer.status).toBe(200);
  return answer.text();
}

describe.skipIf(!mustRun && !fs.existsSync(serverBuild))("the production server's metrics and request ids", () => {
  beforeAll(async () => {
    await ready;
    proxied = await startProductionServer({ TRUST_PROXY: "loopback", METRICS_TOKEN: TOKEN });
    direct = await startProductionServer({ METRICS_ALLOW: "none", METRICS_TOKEN: TOKEN });
    untrusted = await startProductionServer({ METRICS_TOKEN: TOKEN });
    if (mustRun && (!proxied || !direct || !untrusted)) throw new Error("the production build is missing: run `npm run build` first");
  }, 60_000);

  afterAll(async () => {
    await proxied?.stop();
    await direct?.stop();
    await untrusted?.stop();
  });

  it("GET /metrics: refused without the token from an address not allowed; allowed with it, and from loopback", async (ctx) => {
    if (!proxied || !direct) return ctx.skip();
    // From loopback, allowed by default.
    const own = await fetch(`${proxied.base}/metrics`);
    expect(own.status).toBe(200);
    expect(own.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await own.text();
    expect(text).toMatch(/^# TYPE shop_http_requests_total counter$/m);
    expect(text).toMatch(/^shop_mail_outbox_messages\{status="pending"\} \d+$/m);
    // Through the trusted proxy, from a client elsewhere: refused, with no detail; a wrong token too.
    const stranger = { "X-Forwarded-For": "203.0.113.9" };
    for (const headers of [stranger, { ...stranger, Authorization: "Bearer not-the-token" }, { ...stranger, Authorization: TOKEN }]) {
      const refused = await fetch(`${proxied.base}/metrics`, { headers });
      expect(refused.status).toBe(403);
      expect(await refused.text()).toBe("Forbidden");
    }
    const withToken = await fetch(`${proxied.base}/metrics`, { headers: { ...stranger, Authorization: `Bearer ${TOKEN}` } });
    expect(withToken.status).toBe(200);
    await withToken.text();
    // METRICS_ALLOW=none: even loopback needs the token; a client's own X-Forwarded-For changes nothing.
    for (const headers of [{}, { "X-Forwarded-For": "127.0.0.1" }] as Record<string, string>[]) {
      const refused = await fetch(`${direct.base}/metrics`, { headers });
      expect(refused.status).toBe(403);
      expect(await refused.text()).toBe("Forbidden");
    }
    const allowed = await fetch(`${direct.base}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("cache-control")).toBe("no-store");
    await allowed.text();
  });

  it("GET /metrics: a request relayed by a proxy the server does not trust is not allowed by the proxy's loopback address", async (ctx) => {
    if (!untrusted) return ctx.skip();
    const own = await fetch(`${untrusted.base}/metrics`);
    expect(own.status).toBe(200);
    await own.text();
    const client = "203.0.113.9";
    const relayedBy: Record<string, string>[] = [{ "X-Forwarded-For": client }, { Forwarded: `for=${client}` }, { "X-Real-IP": client }];
    for (const headers of relayedBy) {
      const refused = await fetch(`${untrusted.base}/metrics`, { headers });
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect(await refused.text()).toBe("Forbidden");
    }
    const withToken = await fetch(`${untrusted.base}/metrics`, { headers: { ...relayedBy[0], Authorization: `Bearer ${TOKEN}` } });
    expect(withToken.status).toBe(200);
    await withToken.text();
  });

  it("counts requests by route id and status, never by URL; a page-cache hit", async (ctx) => {
    if (!proxied) return ctx.skip();
    const slug = `metrics-sofa-${crypto.randomBytes(3).toString("hex")}`;
    await createTestItem(slug, { price: 4000, stock: 3 });
    const before = await metrics(proxied);
    const route = { route: "routes/product.$slug", method: "GET", status: "200" };
    const hits = seriesValue(before, "shop_page_cache_requests_total", { result: "hit" });
    // The page asked for again until it is served from the cache (on PostgreSQL the cache keeps nothing
    // until the server listens for the other servers' writes, which starts with its first page).
    let asked = 0;
    let after = before;
    while (asked < 2 || (seriesValue(after, "shop_page_cache_requests_total", { result: "hit" }) === hits && asked < 40)) {
      const page = await fetch(`${proxied.base}/product/${slug}`);
      expect(page.status).toBe(200);
      await page.text();
      asked++;
      after = await metrics(proxied);
    }
    expect(seriesValue(after, "shop_http_requests_total", route)).toBe(seriesValue(before, "shop_http_requests_total", route) + asked);
    expect(seriesValue(after, "shop_http_request_duration_seconds_count", route)).toBeGreaterThanOrEqual(asked);
    expect(seriesValue(after, "shop_page_cache_requests_total", { result: "hit" })).toBeGreaterThanOrEqual(hits + 1);
    expect(after).not.toContain(slug);
    expect(seriesValue(after, "shop_http_requests_total", { route: "metrics", method: "GET", status: "200" })).toBeGreaterThanOrEqual(1);
  });

  it("counts an API call under its endpoint's module, never under the API's one route or the URL", async (ctx) => {
    if (!proxied) return ctx.skip();
    const before = await metrics(proxied);
    const items = { route: "routes/api.category.items", method: "GET", status: "200" };
    const order = { route: "routes/api.orders_.$id", method: "GET", status: "401" };
    const unknown = { route: "routes/api.$", method: "GET", status: "404" };
    for (const path of ["/api/category/items?slug=living-room", "/API/Category/Items/?slug=bedroom"]) {
      const answer = await fetch(`${proxied.base}${path}`);
      expect(answer.status).toBe(200);
      await answer.text();
    }
    for (const path of ["/api/orders/order_metrics1", "/api/no-such-endpoint"]) await (await fetch(`${proxied.base}${path}`)).text();
    const after = await metrics(proxied);
    expect(seriesValue(after, "shop_http_requests_total", items)).toBe(seriesValue(before, "shop_http_requests_total", items) + 2);
    expect(seriesValue(after, "shop_http_requests_total", order)).toBe(seriesValue(before, "shop_http_requests_total", order) + 1);
    expect(seriesValue(after, "shop_http_requests_total", unknown)).toBe(seriesValue(before, "shop_http_requests_total", unknown) + 1);
    expect(after).not.toContain("order_metrics1");
  });

  it("a request's id: made when absent, a trusted proxy's taken, a malformed one or an untrusted client's ignored", async (ctx) => {
    if (!proxied || !direct) return ctx.skip();
    const made = await fetch(`${proxied.base}/about`);
    expect(made.headers.get("x-request-id")).toMatch(UUID);
    await made.text();
    const taken = await fetch(`${proxied.base}/about`, { headers: { "X-Request-Id": "edge-4f2a9c01.req_7" } });
    expect(taken.headers.get("x-request-id")).toBe("edge-4f2a9c01.req_7");
    await taken.text();
    for (const bad of ["short", "has space in it", "a".repeat(65), "semi;colon-12345"]) {
      const malformed = await fetch(`${proxied.base}/about`, { headers: { "X-Request-Id": bad } });
      expect(malformed.headers.get("x-request-id"), bad).toMatch(UUID);
      await malformed.text();
    }
    const untrusted = await fetch(`${direct.base}/about`, { headers: { "X-Request-Id": "client-chosen-id-123" } });
    expect(untrusted.headers.get("x-request-id")).toMatch(UUID);
    await untrusted.text();
    // The access line of the proxy's request carries its id.
    await waitFor(async () => {
      const line = logLines(proxied!.output()).find((l) => l.requestId === "edge-4f2a9c01.req_7");
      expect(line?.msg).toMatch(/^GET \/about 200 /);
    }, 8000);
    expect(direct.output()).not.toContain("client-chosen-id-123");
  });

  it("the id is in the outbox row and the mail header of the mail that request queued, and in its log lines", async (ctx) => {
    if (!proxied) return ctx.skip();
    const requestId = `signup-${crypto.randomBytes(6).toString("hex")}`;
    const email = `${requestId}@example.com`;
    const registered = await fetch(`${proxied.base}/api/user/auth/register`, {
      method: "POST",
      headers: { Origin: proxied.base, "Content-Type": "application/json", "X-Request-Id": requestId },
      body: JSON.stringify({ name: "Id Reader", email, password: "a-long-password-1" }),
    });
    expect(registered.status).toBe(201);
    expect(registered.headers.get("x-request-id")).toBe(requestId);
    await registered.text();
    const row = await db.selectFrom("mailOutbox").select(["id", "requestId"]).where("recipient", "=", email).executeTakeFirstOrThrow();
    expect(row.requestId).toBe(requestId);
    await waitFor(() => latestCode(email), 8000);
    const mailDir = process.env.MAIL_DIR ?? "./data/mail";
    const mails = fs
      .readdirSync(mailDir)
      .filter((name) => name.endsWith(`${String(row.id).padStart(10, "0")}.json`))
      .map((name) => JSON.parse(fs.readFileSync(path.join(mailDir, name), "utf8")) as { to: string; headers?: Record<string, string> });
    expect(mails.find((mail) => mail.to === email)?.headers).toEqual({ "X-Request-Id": requestId });
    expect(logLines(proxied.output()).some((l) => l.requestId === requestId && /^POST \/api\/user\/auth\/register 201 /.test(l.msg))).toBe(
      true,
    );
  });

  it("a server error's page shows its id for the customer to quote, and its log lines carry it", async (ctx) => {
    if (!proxied) return ctx.skip();
    const slug = `metrics-bed-${crypto.randomBytes(3).toString("hex")}`;
    await createTestItem(slug, { price: 9000, stock: 2 });
    // The product page's loader fails when its table is gone: a 500 no customer can cause on purpose.
    await sql`alter table items rename to items_away`.execute(db);
    let page: Response;
    let html: string;
    try {
      page = await fetch(`${proxied.base}/product/${slug}`);
      html = await page.text();
    } finally {
      await sql`alter table items_away rename to items`.execute(db);
    }
    expect(page.status).toBe(500);
    const requestId = page.headers.get("x-request-id") ?? "";
    expect(requestId).toMatch(UUID);
    expect(html).toContain("please quote this reference");
    expect(html).toMatch(new RegExp(`<code id="request-reference"[^>]*>${requestId}</code>`));
    expect(html).not.toMatch(/items_away|no such table|\bat [\w.]+ \(/);
    await waitFor(async () => {
      const lines = logLines(proxied!.output()).filter((l) => l.requestId === requestId);
      expect(lines.some((l) => l.level === "error" && l.msg.startsWith("request failed"))).toBe(true);
      expect(lines.some((l) => /^GET \/product\/\S+ 500 /.test(l.msg))).toBe(true);
    }, 8000);
    // Any other page carries no reference (the page cache could otherwise hand one visitor's id to another).
    const fine = await (await fetch(`${proxied.base}/product/${slug}`)).text();
    expect(fine).not.toContain("request-reference");
  });

  it("the log holds none of the secrets requests carried: passwords, the sign-up code, the API token, a payment signature", async (ctx) => {
    if (!proxied) return ctx.skip();
    const { base } = proxied;
    const json = { Origin: base, "Content-Type": "application/json" };
    const email = `secrets-${crypto.randomBytes(5).toString("hex")}@example.com`;
    const password = `pw-${crypto.randomBytes(9).toString("base64url")}`;
    const registered = await fetch(`${base}/api/user/auth/register`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ name: "Secret Keeper", email, password }),
    });
    expect(registered.status).toBe(201);
    const { attemptId } = (await registered.json()) as { attemptId?: unknown };
    const otp = await waitFor(() => latestCode(email), 8000);
    const verified = await fetch(`${base}/api/user/auth/verifyOtp`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ email, otp, attemptId }),
    });
    expect(verified.status).toBe(200);
    await verified.text();
    const login = await fetch(`${base}/api/user/auth/login`, { method: "POST", headers: json, body: JSON.stringify({ email, password }) });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };
    const wrong = `wrong-${crypto.randomBytes(9).toString("base64url")}`;
    const refused = await fetch(`${base}/api/user/auth/login`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ email, password: wrong }),
    });
    expect(refused.status).toBe(401);
    await refused.text();
    const auth = { Authorization: `Bearer ${token}` };
    const cart = await fetch(`${base}/api/cart/get`, { headers: auth });
    expect(cart.status).toBe(200);
    await cart.text();
    const signature = crypto.randomBytes(32).toString("hex");
    const verify = await fetch(`${base}/rzp/verify-payment`, {
      method: "POST",
      headers: { ...json, ...auth },
      body: JSON.stringify({
        razorpay_order_id: "order_Metrics00000001",
        razorpay_payment_id: "pay_Metrics00000001",
        razorpay_signature: signature,
      }),
    });
    expect(verify.status).toBeGreaterThanOrEqual(400);
    await verify.text();
    // A reset link's token in a query string.
    const resetToken = `1.${crypto.randomBytes(16).toString("base64url")}`;
    await (await fetch(`${base}/reset-password?token=${resetToken}`)).text();

    const log = proxied.output();
    expect(logLines(log).length).toBeGreaterThan(5);
    for (const secret of [password, wrong, token, signature, resetToken, TOKEN, email]) {
      expect(secret.length).toBeGreaterThan(8);
      expect(log).not.toContain(secret);
    }
    // The code is a few digits: looked for as a word of its own, in every line's text but the
    // figures the access line ends with (status, length, time) and the line's time and process id.
    const words = logLines(log)
      .map(({ time: _time, pid: _pid, msg, ...rest }) => `${msg.replace(/ \d{3} (\d+|-) - [\d.]+ ms$/, "")} ${JSON.stringify(rest)}`)
      .join("\n");
    expect(otp).toMatch(/^\d{4,}$/);
    expect(words).not.toMatch(new RegExp(`(^|[^\\d])${otp}([^\\d]|$)`));
  });
});
