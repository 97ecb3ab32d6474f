// Property-based fuzz test: generated requests (tests/support/fuzz-requests.ts)
// to every route module found on disk, so a new route cannot be forgotten. GET and HEAD go to the
// module's loader, every other method to its action. For every request:
//   1. never a 5xx, never an error thrown other than a Response (Remix would answer it 500);
//   2. on the API (api.* and rzp.* modules) every 4xx is the error JSON of docs/api.md, and no
//      answer anywhere carries a stack trace, a file path or a SQL fragment;
//   3. a refused request (4xx) writes nothing: the business tables' row counts, their newest
//      updatedAt, the units in stock and in carts are as they were (rate-limit counters and a
//      session's lastSeenAt may change: refused tries count toward limits).
//
// `npm test` runs a short pass with a fixed seed (about 1,000 requests in all). `npm run fuzz`
// runs FUZZ_RUNS (1,000) per route module. FUZZ_SEED picks the seed, FUZZ_ONLY keeps the route
// files whose name contains it, and FUZZ_PATH replays fast-check's path of a reported failure.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { sql } from "kysely";
import { db } from "~/lib/db.server";
import { issueToken } from "~/lib/api-tokens.server";
import { offlinePayment, signWebhook } from "~/lib/payments.server";
import { addItem } from "~/models/cart.server";
import { commitSession, getSession, sessionCookie } from "~/lib/session.server";
import * as createOrder from "~/routes/rzp.create-order";
import { adminPassword } from "~/web/admin.server";
import { grantAdmin } from "~/web/sign-in.server";
import { createTestItem } from "../support/items";
import { getRequest, jsonRequest, mergeCookies } from "../support/requests";
import type { Credentials, FuzzRoute, Known, RequestSpec, Who } from "../support/fuzz-requests";
import { buildRequest, describeRequest, isApiFile, paramNames, requestArb } from "../support/fuzz-requests";
import type { Answer, RouteFn } from "../support/route-calls";
import { asRecord, call } from "../support/route-calls";
import type { Customer } from "../support/orders";
import { addToCart, checkoutFields, newCustomer, PASSWORD, placeViaApi } from "../support/orders";

const ROUTES_DIR = path.resolve(__dirname, "../../app/routes");

const SEED = Number(process.env.FUZZ_SEED ?? 20261112);
/** Requests in all in the short pass (npm test), shared out over the route modules. */
const SHORT_TOTAL = 1000;
const RUNS_PER_ROUTE = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : null;
const ONLY = process.env.FUZZ_ONLY ?? "";
const REPLAY_PATH = process.env.FUZZ_PATH;

interface RouteModule extends FuzzRoute {
  loader?: RouteFn;
  action?: RouteFn;
}

/** Every route module on disk (files, and flat-route folders with a route file). */
async function routeModules(): Promise<RouteModule[]> {
  const found: RouteModule[] = [];
  for (const entry of fs.readdirSync(ROUTES_DIR, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    let file: string;
    let name = entry.name;
    if (entry.isDirectory()) {
      const inner = ["route.tsx", "route.ts"].find((f) => fs.existsSync(path.join(ROUTES_DIR, entry.name, f)));
      if (!inner) continue;
      file = path.join(entry.name, inner);
      name = `${entry.name}.tsx`;
    } else {
      if (!/\.(ts|tsx)$/.test(entry.name) || /\.(test|server)\./.test(entry.name)) continue;
      file = entry.name;
    }
    const mod = (await import(/* @vite-ignore */ path.join(ROUTES_DIR, file))) as Record<string, unknown>;
    const loader = typeof mod.loader === "function" ? (mod.loader as RouteFn) : undefined;
    const action = typeof mod.action === "function" ? (mod.action as RouteFn) : undefined;
    found.push({ file: name, loader, action, hasLoader: !!loader, hasAction: !!action, mainMethod: "POST" });
  }
  // The root route's loader runs for every page too.
  const root = (await import("~/root")) as Record<string, unknown>;
  found.push({ file: "root.tsx", loader: root.loader as RouteFn, hasLoader: true, hasAction: false, mainMethod: "GET" });
  return found;
}

/** The method a module is for: a loader that answers 405 names its action's method; else GET when it has a loader. */
async function mainMethodOf(route: RouteModule): Promise<string> {
  if (!route.loader) return "POST";
  const params = Object.fromEntries(paramNames(route.file).map((n) => [n, "probe"]));
  const probe = await call(route.loader, getRequest("/probe"), params);
  if (probe.status === 405) return probe.headers.get("Allow")?.split(",")[0]?.trim() || "POST";
  return "GET";
}

// ---- the shop the requests meet --------------------------------------------------------------------

let customer: Customer;
/** Items kept in stock between requests (the first goes into the customer's cart when it is empty). */
let restocked: number[] = [];
const known: Known = {
  itemIds: [],
  orderIds: [],
  categoryIds: [],
  userIds: [],
  paymentOrderIds: [],
  paymentIds: [],
  paymentSignatures: [],
  productSlugs: [],
  categorySlugs: [],
  emails: [],
  passwords: [],
};

/** The cookie of a new server session: signed in as `userId` (or not), with the admin flag (or not). */
async function newSessionCookie(userId: number | null, admin: boolean): Promise<string> {
  const request = getRequest("/");
  if (admin) {
    const cookie = mergeCookies([await grantAdmin(request)]);
    if (userId === null) return cookie;
    const session = await getSession(getRequest("/", { Cookie: cookie }));
    session.set("userId", userId);
    return mergeCookies([await commitSession(session, request)]);
  }
  const session = await getSession(request);
  if (userId !== null) session.set("userId", userId);
  return mergeCookies([await commitSession(session, request)]);
}

/**
 * Fresh credentials for each request (a fuzzed logout may revoke the last ones): a customer's
 * browser session or bearer token, the admin's session, a signed cookie whose row is gone, or a
 * token-shaped string that is no token.
 */
async function credentialsFor(who: Who): Promise<Credentials> {
  switch (who) {
    case "guest":
      return {};
    case "customer cookie":
      return { cookie: await newSessionCookie(customer.user.id, false) };
    case "customer token":
      return { authorization: `Bearer ${await issueToken(customer.user.id)}` };
    case "admin":
      return { cookie: await newSessionCookie(null, true) };
    case "admin signed in":
      return { cookie: await newSessionCookie(customer.user.id, true) };
    case "admin and customer token":
      return { cookie: await newSessionCookie(null, true), authorization: `Bearer ${await issueToken(customer.user.id)}` };
    case "stale cookie": {
      const cookie = await newSessionCookie(customer.user.id, false);
      const id = (await sessionCookie.parse(cookie)) as string;
      await db.deleteFrom("sessions").where("id", "=", id).execute();
      return { cookie };
    }
    case "garbage token":
      return { authorization: `Bearer slt_${crypto.randomBytes(32).toString("base64url").slice(0, 43)}` };
  }
}

beforeAll(async () => {
  await ready;
  customer = await newCustomer("fuzz");
  // Pieces sold as one: a cart add of one names no variant.
  const items = await db
    .selectFrom("items")
    .innerJoin("productVariants", "productVariants.itemId", "items.id")
    .select(["items.id", "items.slug", "items.stock"])
    .where("productVariants.optionKey", "=", "")
    .orderBy("items.id")
    .execute();
  const inStock = items.filter((i) => i.stock >= 5);
  // An order (so the customer cannot be deleted, and order pages have one to show), a cart
  // line, and a payment order for the cart.
  await addToCart(customer, inStock[0].id, 1);
  const placed = await placeViaApi(customer, checkoutFields());
  expect(placed.status).toBe(201);
  await addToCart(customer, inStock[1].id, 2);
  const payment = await call(createOrder.action, jsonRequest("POST", "/rzp/create-order", {}, customer.auth));
  expect(payment.status).toBe(200);

  const categories = await db.selectFrom("categories").select(["id", "slug"]).orderBy("id").execute();
  restocked = inStock.slice(0, 3).map((i) => i.id);
  known.itemIds = [...inStock.slice(0, 3).map((i) => i.id), ...items.filter((i) => i.stock === 0).map((i) => i.id)];
  known.orderIds = [Number(asRecord(placed.body).id)];
  known.categoryIds = categories.slice(0, 2).map((c) => c.id);
  known.userIds = [customer.user.id];
  known.paymentOrderIds = [String(asRecord(payment.body).id)];
  const paid = offlinePayment(known.paymentOrderIds[0]);
  known.paymentIds = [paid.paymentId];
  known.paymentSignatures = [paid.signature];
  // The known payment is recorded once, here, refused because the cart changed after paying: a
  // real payment is recorded even when its order is refused (models/payments/verify's recordPayment), and
  // every fuzzed request that sends it again must then write nothing.
  await addToCart(customer, inStock[2].id, 1);
  const refused = await placeViaApi(
    customer,
    checkoutFields({
      paymentMethod: "online",
      razorpay_order_id: known.paymentOrderIds[0],
      razorpay_payment_id: paid.paymentId,
      razorpay_signature: paid.signature,
    }),
  );
  expect(refused.status).toBe(409);
  const recorded = await db
    .selectFrom("paymentOrders")
    .select(["status", "failure"])
    .where("id", "=", known.paymentOrderIds[0])
    .executeTakeFirst();
  expect(recorded?.status).toBe("paid");
  expect(recorded?.failure).toMatch(/cart changed/);
  known.productSlugs = items.slice(0, 3).map((i) => i.slug);
  known.categorySlugs = categories.map((c) => c.slug);
  known.emails = [customer.email, customer.email.toUpperCase()];
  known.passwords = [PASSWORD, adminPassword() ?? "admin12345"];
});

// ---- what a request may change, read cheaply -----------------------------------------------------

/** Tables whose rows a refused request must not add or remove (rate limits are not among them). */
const COUNTED = [
  "users",
  "apiTokens",
  "oneTimeCodes",
  "categories",
  "items",
  "carts",
  "cartLines",
  "wishlists",
  "wishlistItems",
  "paymentOrders",
  "orders",
  "orderItems",
  "orderEvents",
  "newsletterSubscribers",
  "contactMessages",
  "auditLog",
  "sessions",
] as const;
/** Tables with an updatedAt: a refused request must not move their newest one. */
const STAMPED = ["users", "categories", "items", "carts", "wishlists", "paymentOrders", "orders"] as const;

async function snapshot(): Promise<Record<string, string>> {
  const row = await db
    .selectNoFrom((eb) => [
      ...COUNTED.map((t) =>
        eb
          .selectFrom(t)
          .select((e) => e.fn.countAll().as("n"))
          .as(`${t} rows`),
      ),
      ...STAMPED.map((t) =>
        eb
          .selectFrom(t)
          .select((e) => e.fn.max("updatedAt").as("m"))
          .as(`${t} newest updatedAt`),
      ),
      eb
        .selectFrom("items")
        .select((e) => e.fn.sum("stock").as("s"))
        .as("units in stock"),
      eb
        .selectFrom("cartLines")
        .select((e) => e.fn.sum("quantity").as("s"))
        .as("units in carts"),
      eb
        .selectFrom("apiTokens")
        .select((e) => e.fn.count("revokedAt").as("n"))
        .as("revoked tokens"),
      eb
        .selectFrom("oneTimeCodes")
        .select((e) => e.fn.count("usedAt").as("n"))
        .as("used codes"),
      eb
        .selectFrom("sessions")
        .select((e) => e.fn.count("userId").as("n"))
        .as("signed-in sessions"),
      eb
        .selectFrom("sessions")
        .select(sql<number>`sum(length(data))`.as("n"))
        .as("session data length"),
      eb
        .selectFrom("sessions")
        .select((e) => e.fn.max("createdAt").as("m"))
        .as("newest session"),
    ])
    .executeTakeFirstOrThrow();
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(row)) out[k] = String(v ?? "");
  return out;
}

function changes(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys(before)
    .filter((k) => before[k] !== after[k])
    .map((k) => `${k}: ${before[k]} → ${after[k]}`);
}

// ---- the properties --------------------------------------------------------------------------------

/** A stack trace, a file path or a piece of SQL in a message meant for a person. */
const LEAKS: [string, RegExp][] = [
  ["a stack trace", /\n\s+at |\bat \S+ \(|\bat (?:file|node):/],
  ["a file path", /\/(?:work|home|usr|tmp|app|var)\/\S|node_modules|\.(?:ts|tsx|js|mjs|cjs):\d+/],
  [
    "a SQL fragment",
    new RegExp(
      [
        String.raw`\bselect\b[^.]{0,80}\bfrom\b`,
        String.raw`\binsert into\b`,
        String.raw`\bupdate\s+"?\w+"?\s+set\b`,
        String.raw`\bdelete from\b`,
        "sqlite",
        String.raw`\bsyntax error\b`,
        String.raw`\bconstraint\b`,
        "duplicate key",
        String.raw`\bviolates\b`,
        'relation "',
        'column "',
      ].join("|"),
      "i",
    ),
  ],
];

function leak(text: string): string | null {
  for (const [what, pattern] of LEAKS) if (pattern.test(text)) return `${what} in ${JSON.stringify(text.slice(0, 300))}`;
  return null;
}

/** Extra keys an API error may carry beside message and errors (docs/api.md, "Differs from contract.md" 6). */
const EXTRA_ERROR_KEYS: Record<string, string[]> = { "rzp.verify-payment.ts": ["success"] };

/** Why an API answer is not the error JSON of docs/api.md, or null when it is. */
function apiErrorProblem(answer: Answer, file = ""): string | null {
  if (!(answer.headers.get("Content-Type") ?? "").includes("application/json")) {
    return `Content-Type ${answer.headers.get("Content-Type")}, not JSON`;
  }
  const body = answer.body;
  if (typeof body !== "object" || body === null || Array.isArray(body)) return `the body is not an object: ${JSON.stringify(body)}`;
  const record = body as Record<string, unknown>;
  if (typeof record.message !== "string" || record.message.length === 0) return "no message";
  const allowed = ["message", "errors", ...(EXTRA_ERROR_KEYS[file] ?? [])];
  const extra = Object.keys(record).filter((k) => !allowed.includes(k));
  if (extra.length) return `keys beside message and errors: ${extra.join(", ")}`;
  if ("errors" in record) {
    const errors = record.errors;
    if (typeof errors !== "object" || errors === null || Array.isArray(errors)) return "errors is not an object";
    for (const [field, message] of Object.entries(errors)) {
      if (typeof message !== "string") return `errors.${field} is not a string`;
    }
  }
  return leak(JSON.stringify(record));
}

/** The words a page's refused form shows (its message and field messages; what was typed is not checked). */
function pageMessages(answer: Answer): string {
  const body = answer.body;
  if (typeof body === "string") return body;
  if (typeof body !== "object" || body === null) return "";
  const record = body as Record<string, unknown>;
  return JSON.stringify([record.message, record.formError, record.fieldErrors, record.error]);
}

/**
 * Before each request the customer's cart holds something and the known items are in stock
 * (fuzzed requests clear carts and place orders), so checkout, payment and cart paths get past
 * "your cart is empty". Answers the id of a line in the customer's cart.
 */
async function restock(): Promise<number> {
  await db.updateTable("productVariants").set({ stock: 50 }).where("itemId", "in", restocked).where("stock", "<", 5).execute();
  const cart = await db.selectFrom("carts").select("id").where("userId", "=", customer.user.id).executeTakeFirst();
  const line = cart ? await db.selectFrom("cartLines").select("id").where("cartId", "=", cart.id).executeTakeFirst() : undefined;
  if (line) return line.id;
  // The admin's fuzzed requests may have deleted the items: then one of the test's own.
  const item = await db.selectFrom("items").select("id").where("id", "in", restocked).executeTakeFirst();
  const itemId = item?.id ?? (await createTestItem(`fuzz-restock-${crypto.randomBytes(4).toString("hex")}`, { stock: 50 }));
  if (!item) restocked.push(itemId);
  return (await addItem({ userId: customer.user.id }, { itemId, quantity: 1 })).line.id;
}

interface Outcome {
  /** the answer's status, or 0 when the route threw */
  status: number;
  /** which property the request broke, null when it kept them all */
  problem: string | null;
}

/** Send one request and check the properties. */
async function check(route: RouteModule, spec: RequestSpec): Promise<Outcome> {
  const reads = ["GET", "HEAD"].includes(spec.method.toUpperCase());
  const fn = reads ? route.loader : route.action;
  if (!fn) return { status: 0, problem: null };
  // Let timers and the test runner's messages through: the database calls resolve without ever
  // leaving the microtask queue, and a long run would starve them (Vitest's "Timeout calling onTaskUpdate").
  await new Promise((resolve) => setImmediate(resolve));
  const credentials = await credentialsFor(spec.who);
  try {
    return await send(route, fn, spec, credentials);
  } finally {
    // The credentials' own session goes afterwards, so the table (read by every snapshot) stays small.
    const id: unknown = credentials.cookie ? await sessionCookie.parse(credentials.cookie) : null;
    if (typeof id === "string") await db.deleteFrom("sessions").where("id", "=", id).execute();
  }
}

async function send(route: RouteModule, fn: RouteFn, spec: RequestSpec, credentials: Credentials): Promise<Outcome> {
  if (!spec.keepLimits) await db.deleteFrom("rateLimits").execute();
  const cartLineId = String(await restock());
  const { request, params } = await buildRequest(spec, credentials, { signBody: (raw) => signWebhook(raw), cartLineId });
  const before = await snapshot();
  let answer: Answer;
  try {
    answer = await call(fn, request, params);
  } catch (error) {
    return { status: 0, problem: `threw ${error instanceof Error ? (error.stack ?? error.message) : String(error)}` };
  }
  const { status } = answer;
  const body = () => JSON.stringify(answer.body)?.slice(0, 500);
  if (status >= 500) return { status, problem: `answered ${status}: ${body()}` };
  if (status >= 400) {
    const problem = isApiFile(route.file) ? apiErrorProblem(answer, route.file) : leak(pageMessages(answer));
    if (problem) return { status, problem: `answered ${status}, ${problem}` };
    const written = changes(before, await snapshot());
    if (written.length) return { status, problem: `answered ${status} ${body()} but wrote: ${written.join("; ")}` };
  }
  return { status, problem: null };
}

/** Each route module its own seed (the base seed and its name), so the routes do not all draw the same choices. */
function routeSeed(file: string): number {
  return (SEED ^ crypto.createHash("sha256").update(file).digest().readInt32BE(0)) | 0;
}

describe("fuzzing every route module", async () => {
  const all = (await routeModules()).filter((m) => m.hasLoader || m.hasAction);
  // FUZZ_ONLY: one module by its file name, or every module whose name contains it.
  const modules = all.filter((m) => !ONLY || (all.some((a) => a.file === ONLY) ? m.file === ONLY : m.file.includes(ONLY)));
  const runs = RUNS_PER_ROUTE ?? Math.max(8, Math.ceil(SHORT_TOTAL / modules.length));
  console.info(
    `fuzz: seed ${SEED}, ${runs} requests to each of ${modules.length} route modules` +
      " (FUZZ_SEED, FUZZ_RUNS and FUZZ_ONLY change them; a failure prints its request, fast-check's seed and path)",
  );

  it("finds the route modules on disk", () => {
    if (ONLY) return;
    const files = modules.map((m) => m.file);
    for (const expected of [
      "api.cart.add.ts",
      "api.orders_.$id.ts",
      "pay.$paymentOrderId.tsx",
      "images.$.ts",
      "$.tsx",
      "checkout.tsx",
      "root.tsx",
    ]) {
      expect(files).toContain(expected);
    }
  });

  for (const route of modules) {
    it(
      route.file,
      async () => {
        route.mainMethod = await mainMethodOf(route);
        const statuses = new Map<number, number>();
        try {
          await fc.assert(
            fc.asyncProperty(requestArb(route, known), async (spec) => {
              const { status, problem } = await check(route, spec);
              statuses.set(status, (statuses.get(status) ?? 0) + 1);
              if (problem) {
                const replay = `FUZZ_SEED=${SEED} FUZZ_ONLY='${route.file}' FUZZ_PATH='<the path fast-check reports>'`;
                throw new Error(`${route.file}: ${problem}\n${describeRequest(spec)}\n(replay: ${replay})`);
              }
            }),
            { seed: routeSeed(route.file), numRuns: runs, path: REPLAY_PATH },
          );
        } finally {
          // FUZZ_STATS=1: how deep the requests got (a run of 405s or 415s reaches little).
          if (process.env.FUZZ_STATS) {
            const counts = [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s || "threw"}×${n}`);
            console.info(`${route.file} ${route.mainMethod}: ${counts.join(" ")}`);
          }
        }
      },
      60_000 + runs * 1_000,
    );
  }
});
