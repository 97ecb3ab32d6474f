// The admin guard, walked over every admin route module found on disk (so a new admin route
// cannot be added unguarded): without the admin flag every loader sends a page view to / (the
// API answers 403) and every action answers 403 and changes nothing; with the flag the
// loaders answer.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { grantAdmin } from "~/web/sign-in.server";
import { ADMIN_FORBIDDEN } from "~/web/visitor.server";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { commitSession, getSession } from "~/lib/session.server";
import { CSV_COLUMNS } from "~/utils/product-csv";
import { createTestItem } from "../support/items";
import { getRequest, mergeCookies, ORIGIN } from "../support/requests";
import type { Answer, RouteFn } from "../support/route-calls";
import { asRecord, call, setCookies } from "../support/route-calls";
import type { Customer } from "../support/orders";
import { addToCart, checkoutFields, newCustomer, placeViaApi } from "../support/orders";

const ROUTES_DIR = path.resolve(__dirname, "../../app/routes");
const LOGIN_FILE = "admin_.login.tsx";
const API_FILES = new Set(["api.user.list.ts"]);

interface RouteModule {
  file: string;
  loader?: RouteFn;
  action?: RouteFn;
}

/**
 * Every route module of the admin area: files (or flat-route folders) whose name starts with
 * `admin`, and the admin-only API routes.
 */
async function adminRouteModules(): Promise<RouteModule[]> {
  const found: RouteModule[] = [];
  for (const entry of fs.readdirSync(ROUTES_DIR, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.name.startsWith("admin") && !API_FILES.has(entry.name)) continue;
    let file: string;
    if (entry.isDirectory()) {
      const inner = ["route.tsx", "route.ts"].find((f) => fs.existsSync(path.join(ROUTES_DIR, entry.name, f)));
      if (!inner) continue;
      file = path.join(entry.name, inner);
    } else {
      if (!/\.(ts|tsx)$/.test(entry.name) || /\.(test|server)\./.test(entry.name)) continue;
      file = entry.name;
    }
    const mod = (await import(/* @vite-ignore */ path.join(ROUTES_DIR, file))) as Record<string, unknown>;
    found.push({
      file,
      loader: typeof mod.loader === "function" ? (mod.loader as RouteFn) : undefined,
      action: typeof mod.action === "function" ? (mod.action as RouteFn) : undefined,
    });
  }
  return found;
}

let customer: Customer;
let customerCookie = "";
let adminCookie = "";
let orderId = 0;
let emptyCategoryId = 0;
let victimItemId = 0;
let loneUserId = 0;
let categoryId = 0;

async function snapshot() {
  return {
    items: await db.selectFrom("items").selectAll().orderBy("id").execute(),
    categories: await db.selectFrom("categories").selectAll().orderBy("id").execute(),
    users: await db.selectFrom("users").selectAll().orderBy("id").execute(),
    orders: await db.selectFrom("orders").selectAll().orderBy("id").execute(),
    orderEvents: await db.selectFrom("orderEvents").selectAll().orderBy("id").execute(),
    auditLog: await db.selectFrom("auditLog").selectAll().orderBy("id").execute(),
    sessions: await db.selectFrom("sessions").select(["id", "userId", "data"]).orderBy("id").execute(),
  };
}

let counter = 0;

/** Every field any admin form reads, valid, so that an unguarded action would write. */
function formFields(): [string, string][] {
  counter++;
  return [
    ["title", `Guard Probe ${counter}`],
    ["description", "Written only if a guard is missing."],
    ["imgPath", "/images/products/guard.svg"],
    ["categoryId", String(categoryId)],
    ["price", "999"],
    ["featured", "on"],
    ["inStock", "on"],
    ["stock", "3"],
    ["specKey", "Material"],
    ["specValue", "Teak"],
    ["name", "Guard Probe"],
    ["email", `guard-probe-${counter}@example.com`],
    ["mobile", "9876543210"],
    ["status", "shipped"],
    ["password", "not-the-admin-password"],
  ];
}

type Body = { name: string; build: () => Promise<{ body: BodyInit; contentType: string | null }> };

function urlencoded(name: string, fields: () => [string, string][]): Body {
  return {
    name,
    build: async () => ({ body: new URLSearchParams(fields()).toString(), contentType: "application/x-www-form-urlencoded" }),
  };
}

/** The bodies every action is tried with: deletes of deletable rows, creates, updates, a status change, a CSV import. */
function bodies(): Body[] {
  const csv = [
    CSV_COLUMNS.join(","),
    ["", "Guard Import", "office", "10", "4", "no", "Imported only if a guard is missing.", "/images/products/g.svg", "{}"].join(","),
  ].join("\n");
  return [
    urlencoded("delete an empty category", () => [
      ["intent", "delete"],
      ["id", String(emptyCategoryId)],
    ]),
    urlencoded("delete a product", () => [
      ["intent", "delete"],
      ["id", String(victimItemId)],
    ]),
    urlencoded("delete a user", () => [
      ["intent", "delete"],
      ["id", String(loneUserId)],
    ]),
    urlencoded("create", () => [["intent", "create"], ...formFields()]),
    urlencoded("update the category", () => [["intent", "update"], ["id", String(emptyCategoryId)], ...formFields()]),
    urlencoded("update the product", () => [["intent", "update"], ["id", String(victimItemId)], ...formFields()]),
    urlencoded("update the user", () => [["intent", "update"], ["id", String(loneUserId)], ...formFields()]),
    urlencoded("status change", () => [
      ["intent", "status"],
      ["status", "shipped"],
      ["orderId", String(orderId)],
    ]),
    {
      name: "multipart import / create",
      build: async () => {
        const form = new FormData();
        for (const [k, v] of [["intent", "create"], ...formFields()]) form.append(k, v);
        form.set("file", new File([csv], "products.csv", { type: "text/csv" }));
        const encoded = new Request(`${ORIGIN}/x`, { method: "POST", body: form });
        return { body: await encoded.arrayBuffer(), contentType: encoded.headers.get("Content-Type") };
      },
    },
  ];
}

async function postRequest(body: Body, headers: Record<string, string>): Promise<Request> {
  const built = await body.build();
  const size = built.body instanceof ArrayBuffer ? built.body.byteLength : Buffer.byteLength(String(built.body));
  return new Request(`${ORIGIN}/admin/guard-probe`, {
    method: "POST",
    headers: {
      Host: "localhost:3000",
      Origin: ORIGIN,
      ...(built.contentType ? { "Content-Type": built.contentType } : {}),
      "Content-Length": String(size),
      ...headers,
    },
    body: built.body,
  });
}

const params = () => ({ orderId: String(orderId), id: String(orderId), "*": "guard-probe" });

/** Who asks without the admin flag. */
function strangers(): Record<string, Record<string, string>> {
  return {
    "no cookie": {},
    "a customer's session": { Cookie: customerCookie },
    "a customer's bearer token": { Authorization: `Bearer ${customer.token}` },
    // A bearer-token call never carries the flag, even beside an admin browser session.
    "a bearer token beside the admin cookie": { Authorization: `Bearer ${customer.token}`, Cookie: adminCookie },
  };
}

/** The message an answer carries (JSON `message`, a form's `formError`), or a short description of what it is. */
function messageOf(answer: Answer): string {
  let body = answer.body;
  if (typeof body === "string") {
    const text = body;
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      return text.slice(0, 80);
    }
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) return `(${Array.isArray(body) ? "an array" : typeof body})`;
  const record = body as Record<string, unknown>;
  return String(record.message ?? record.formError ?? "(no message)");
}

beforeAll(async () => {
  await ready;
  categoryId = (await db.selectFrom("categories").select("id").orderBy("id").executeTakeFirstOrThrow()).id;
  customer = await newCustomer("guard");
  const session = await getSession(getRequest("/"));
  session.set("userId", customer.user.id);
  customerCookie = mergeCookies([await commitSession(session, getRequest("/"))]);
  adminCookie = mergeCookies([await grantAdmin(getRequest("/"))]);

  // Rows an unguarded action could change: an order in processing, an empty category, a product, a user without orders.
  const bought = await createTestItem("guard-bought", { price: 1500, stock: 50 });
  await addToCart(customer, bought, 1);
  const placed = await placeViaApi(customer, checkoutFields());
  expect(placed.status).toBe(201);
  orderId = asRecord(placed.body).id as number;
  const now = new Date().toISOString();
  emptyCategoryId = (
    await db
      .insertInto("categories")
      .values({ title: "Guard Empty", slug: "guard-empty", description: "No products.", imgPath: "/x.svg", createdAt: now, updatedAt: now })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
  victimItemId = await createTestItem("guard-victim", { price: 700, stock: 5 });
  loneUserId = (await newCustomer("guard-lone")).user.id;
});

describe("the admin guard", () => {
  it(
    "every admin loader and action refuses without the admin flag and changes nothing; with the flag the loaders answer",
    { timeout: 120_000 },
    async () => {
      const modules = await adminRouteModules();
      const files = modules.map((m) => m.file);
      // The walk found the admin area (a broken discovery must not pass silently).
      for (const expected of [
        "admin.tsx",
        "admin._index.tsx",
        "admin.categories.tsx",
        "admin.products.tsx",
        "admin.users.tsx",
        "admin.orders.tsx",
        "admin.orders_.$orderId.tsx",
        "admin.logout.ts",
        LOGIN_FILE,
        "admin.products_.import.tsx",
        "admin.products_.export[.csv].ts",
        "api.user.list.ts",
      ]) {
        expect(files).toContain(expected);
      }
      for (const m of modules) expect(m.loader ?? m.action, `${m.file} exports neither a loader nor an action`).toBeDefined();
      // A post to a page with no form of its own answers 403 like every admin action, not Remix's 405.
      for (const m of modules) expect(m.action, `${m.file} answers a post without the admin guard`).toBeDefined();
      expect(modules.filter((m) => m.action).length).toBeGreaterThanOrEqual(6);

      const before = await snapshot();
      expect(before.categories.some((c) => c.id === emptyCategoryId)).toBe(true);

      // Every refusal that is not as it should be, as one readable list (empty when all is well).
      const problems: string[] = [];
      const check = (where: string, got: unknown, want: unknown) => {
        if (JSON.stringify(got) !== JSON.stringify(want))
          problems.push(`${where}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
      };

      // Loaders: a page view is sent to /, the admin API answers 403.
      for (const { file, loader } of modules) {
        if (!loader) continue;
        for (const [who, headers] of Object.entries(strangers())) {
          const answer = await call(loader, getRequest("/admin/guard-probe", headers), params());
          const where = `GET ${file} (${who})`;
          if (API_FILES.has(file))
            check(where, { status: answer.status, message: messageOf(answer) }, { status: 403, message: ADMIN_FORBIDDEN });
          else check(where, { status: answer.status, location: answer.headers.get("Location") }, { status: 302, location: "/" });
          check(
            `${where} session cookie`,
            setCookies(answer).some((c) => c.startsWith("__session=")),
            false,
          );
          if (JSON.stringify(await snapshot()) !== JSON.stringify(before)) problems.push(`${where}: the database changed`);
        }
      }

      // Actions: 403 whatever the body, and the database unchanged. The login action is the
      // login itself: a wrong password is 401 'Invalid password' and grants nothing.
      for (const { file, action } of modules) {
        if (!action) continue;
        for (const body of bodies()) {
          for (const [who, headers] of Object.entries(strangers())) {
            const prior = await snapshot();
            const answer = await call(action, await postRequest(body, headers), params());
            const where = `POST ${file} (${who}, ${body.name})`;
            const expected = file === LOGIN_FILE ? { status: 401, message: "Invalid password" } : { status: 403, message: ADMIN_FORBIDDEN };
            check(where, { status: answer.status, message: messageOf(answer) }, expected);
            check(
              `${where} session cookie`,
              setCookies(answer).some((c) => c.startsWith("__session=")),
              false,
            );
            if (JSON.stringify(await snapshot()) !== JSON.stringify(prior)) problems.push(`${where}: the database changed`);
          }
        }
      }
      expect(problems).toEqual([]);
      expect(await snapshot()).toEqual(before);

      // The same walk with the admin flag: the loaders answer. Logout and login have no page of
      // their own, and the admin area's catch-all answers its 'Not Found' inside the frame.
      const forAdmin: Record<string, { status: number; location?: string }> = {
        "admin.logout.ts": { status: 302, location: "/" },
        [LOGIN_FILE]: { status: 302, location: "/admin" },
        "admin.$.tsx": { status: 404 },
      };
      for (const { file, loader } of modules) {
        if (!loader) continue;
        const answer = await call(loader, getRequest("/admin/guard-probe", { Cookie: adminCookie }), params());
        const want = forAdmin[file] ?? { status: 200 };
        const got =
          want.location === undefined ? { status: answer.status } : { status: answer.status, location: answer.headers.get("Location") };
        expect({ file, ...got }).toEqual({ file, ...want });
      }
    },
  );
});
