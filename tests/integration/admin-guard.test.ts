// The staff guard, walked over every admin route module found on disk (so a new admin route cannot
// be added unguarded): every module declares the permission each loader, action and intent needs
// (`export const permissions`), and for each role (and the built-in owner of ADMIN_PASSWORD) each
// is allowed exactly when the permission table (ROLE_PERMISSIONS) grants it, and refused with a 403
// that changes nothing otherwise. Without a staff sign-in every loader sends a page view to / (the
// API answers 403) and every action answers 403 and changes nothing. The admin API's writes, the
// sidebar's sections per role, and the dashboard's redirect for roles without its figures too.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { grantAdmin } from "~/web/sign-in.server";
import { ADMIN_FORBIDDEN } from "~/web/visitor.server";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { commitSession, getSession } from "~/lib/session.server";
import * as adminFrame from "~/routes/admin";
import * as orderStatusApi from "~/routes/api.orders_.changeStatus";
import * as returnStatusApi from "~/routes/api.returns.changeStatus";
import * as userListApi from "~/routes/api.user.list";
import { homeFor, sectionsWith } from "~/utils/admin-sections";
import { CSV_COLUMNS } from "~/utils/product-csv";
import type { Permission, Role, RoutePermissions } from "~/utils/staff-permissions";
import { can, PERMISSION_REFUSED, PERMISSIONS, ROLE_LABELS, ROLE_PERMISSIONS, ROLES } from "~/utils/staff-permissions";
import { createTestItem } from "../support/items";
import { getRequest, jsonRequest, mergeCookies, ORIGIN } from "../support/requests";
import type { Answer, RouteFn } from "../support/route-calls";
import { asRecord, call, setCookies } from "../support/route-calls";
import type { Customer } from "../support/orders";
import { addToCart, checkoutFields, newCustomer, placeViaApi } from "../support/orders";
import type { TestStaff } from "../support/staff";
import { createStaff, staffCookie } from "../support/staff";

const ROUTES_DIR = path.resolve(__dirname, "../../app/routes");
/** The admin API routes read like pages (GET): walked with the pages. */
const API_FILES = new Set(["api.user.list.ts"]);
/** The admin API's writes (PUT with a JSON body): their declarations are checked with the walk, their answers below. */
const API_WRITE_FILES = ["api.orders_.changeStatus.ts", "api.returns.changeStatus.ts"];

interface RouteModule {
  file: string;
  loader?: RouteFn;
  action?: RouteFn;
  permissions?: RoutePermissions;
}

async function loadModule(file: string): Promise<RouteModule> {
  const mod = (await import(/* @vite-ignore */ path.join(ROUTES_DIR, file))) as Record<string, unknown>;
  return {
    file,
    loader: typeof mod.loader === "function" ? (mod.loader as RouteFn) : undefined,
    action: typeof mod.action === "function" ? (mod.action as RouteFn) : undefined,
    permissions: typeof mod.permissions === "object" && mod.permissions !== null ? (mod.permissions as RoutePermissions) : undefined,
  };
}

/**
 * Every route module of the admin area: files (or flat-route folders) whose name starts with
 * `admin.` or is `admin.tsx` (the pages inside the admin frame), and the admin-only API routes read
 * like pages. Pages outside the frame (`admin_.…`: the sign-in, an invitation, a password reset)
 * are open to strangers by design and are tested by their own suites.
 */
async function adminRouteModules(): Promise<RouteModule[]> {
  const found: RouteModule[] = [];
  for (const entry of fs.readdirSync(ROUTES_DIR, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const inFrame = entry.name.startsWith("admin.") && !entry.name.startsWith("admin_.");
    if (!inFrame && !API_FILES.has(entry.name)) continue;
    let file: string;
    if (entry.isDirectory()) {
      const inner = ["route.tsx", "route.ts"].find((f) => fs.existsSync(path.join(ROUTES_DIR, entry.name, f)));
      if (!inner) continue;
      file = path.join(entry.name, inner);
    } else {
      if (!/\.(ts|tsx)$/.test(entry.name) || /\.(test|server)\./.test(entry.name)) continue;
      file = entry.name;
    }
    found.push(await loadModule(file));
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
const staffOf = {} as Record<Role, TestStaff>;

async function snapshot() {
  return {
    items: await db.selectFrom("items").selectAll().orderBy("id").execute(),
    categories: await db.selectFrom("categories").selectAll().orderBy("id").execute(),
    users: await db.selectFrom("users").selectAll().orderBy("id").execute(),
    orders: await db.selectFrom("orders").selectAll().orderBy("id").execute(),
    orderEvents: await db.selectFrom("orderEvents").selectAll().orderBy("id").execute(),
    coupons: await db.selectFrom("coupons").selectAll().orderBy("id").execute(),
    deliveryZones: await db.selectFrom("deliveryZones").selectAll().orderBy("id").execute(),
    staff: await db.selectFrom("staff").selectAll().orderBy("id").execute(),
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

/** The bodies a refused intent is tried with: the intent alone, and with every field its forms read. */
function intentBodies(intent: string): Body[] {
  return [
    urlencoded(`${intent} alone`, () => [["intent", intent]]),
    urlencoded(`${intent} with its fields`, () => [
      ["intent", intent],
      ["status", "shipped"],
      ["returnId", "1"],
      ["note", "Refused only if the guard works."],
      ["reviewId", "1"],
      ["reason", "Refused only if the guard works."],
      ["mailId", "1"],
      ["refundId", "1"],
      ["id", String(victimItemId)],
    ]),
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

/** Who asks without a staff sign-in. */
function strangers(): Record<string, Record<string, string>> {
  return {
    "no cookie": {},
    "a customer's session": { Cookie: customerCookie },
    "a customer's bearer token": { Authorization: `Bearer ${customer.token}` },
    // A bearer-token call is never staff, even beside an admin browser session.
    "a bearer token beside the admin cookie": { Authorization: `Bearer ${customer.token}`, Cookie: adminCookie },
  };
}

/** Each role's staff member, and the built-in owner of ADMIN_PASSWORD: a fresh signed-in session each time. */
function staffMembers(): { who: string; role: Role; cookie: () => Promise<string> }[] {
  return [
    ...ROLES.map((role) => ({ who: role, role, cookie: () => staffCookie(staffOf[role]) })),
    { who: "the built-in owner", role: "owner" as const, cookie: async () => mergeCookies([await grantAdmin(getRequest("/"))]) },
  ];
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

/** The permissions an action declares: one for the whole action, or one per intent. */
function declaredIntents(action: RoutePermissions["action"]): [string | null, Permission | null][] {
  if (action === undefined || action === null || typeof action === "string") return [[null, action ?? null]];
  return Object.entries(action);
}

/** What is wrong with a module's declaration (empty when nothing is). */
function declarationProblems(m: RouteModule): string[] {
  if (!m.permissions) return [`${m.file} declares no permissions (export const permissions = { … } satisfies RoutePermissions)`];
  const out: string[] = [];
  if (m.loader && !("loader" in m.permissions)) out.push(`${m.file} has a loader but declares no permission for it`);
  if (m.action && !("action" in m.permissions)) out.push(`${m.file} has an action but declares no permission for it`);
  const named = [m.permissions.loader, ...declaredIntents(m.permissions.action).map(([, p]) => p)];
  for (const p of named) if (p !== null && p !== undefined && !(p in PERMISSIONS)) out.push(`${m.file} names an unknown permission ${p}`);
  return out;
}

beforeAll(async () => {
  await ready;
  categoryId = (await db.selectFrom("categories").select("id").orderBy("id").executeTakeFirstOrThrow()).id;
  customer = await newCustomer("guard");
  const session = await getSession(getRequest("/"));
  session.set("userId", customer.user.id);
  customerCookie = mergeCookies([await commitSession(session, getRequest("/"))]);
  adminCookie = mergeCookies([await grantAdmin(getRequest("/"))]);
  for (const role of ROLES) staffOf[role] = await createStaff(role, { name: `Guard ${ROLE_LABELS[role]}` });

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
  // Staff passwords are hashed with scrypt: slow on a busy machine.
}, 60_000);

describe("the staff guard", () => {
  it("finds the admin area, and every module declares what it needs with known permissions", async () => {
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
      "admin.products_.import.tsx",
      "admin.products_.$id.variants.tsx",
      "admin.products_.export[.csv].ts",
      "api.user.list.ts",
    ]) {
      expect(files).toContain(expected);
    }
    for (const m of modules) expect(m.loader ?? m.action, `${m.file} exports neither a loader nor an action`).toBeDefined();
    // A post to a page with no form of its own answers 403 like every admin action, not Remix's 405.
    for (const m of modules) expect(m.action, `${m.file} answers a post without the staff guard`).toBeDefined();
    // The API's writes answer GET 405 to anyone (otherMethods): only their actions are the shop's.
    const writes = (await Promise.all(API_WRITE_FILES.map(loadModule))).map((m) => ({ ...m, loader: undefined }));
    const all = [...modules, ...writes];
    expect(all.flatMap(declarationProblems)).toEqual([]);
    // A module that declares nothing is caught.
    expect(declarationProblems({ file: "admin.undeclared.tsx", loader: () => null })).toHaveLength(1);
  });

  it("every admin loader and action refuses strangers and changes nothing", { timeout: 120_000 }, async () => {
    const modules = await adminRouteModules();
    const before = await snapshot();
    expect(before.categories.some((c) => c.id === emptyCategoryId)).toBe(true);

    // Every refusal that is not as it should be, as one readable list (empty when all is well).
    const problems: string[] = [];
    const check = (where: string, got: unknown, want: unknown) => {
      if (JSON.stringify(got) !== JSON.stringify(want)) problems.push(`${where}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
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

    // Actions: 403 whatever the body, and the database unchanged.
    for (const { file, action } of modules) {
      if (!action) continue;
      for (const body of bodies()) {
        for (const [who, headers] of Object.entries(strangers())) {
          const prior = await snapshot();
          const answer = await call(action, await postRequest(body, headers), params());
          const where = `POST ${file} (${who}, ${body.name})`;
          check(where, { status: answer.status, message: messageOf(answer) }, { status: 403, message: ADMIN_FORBIDDEN });
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
  });

  it(
    "each role (and the built-in owner) is allowed exactly what the permission table grants; a refusal is a 403 that writes nothing",
    { timeout: 240_000 },
    async () => {
      const modules = await adminRouteModules();
      const problems: string[] = [];
      const check = (where: string, got: unknown, want: unknown) => {
        if (JSON.stringify(got) !== JSON.stringify(want))
          problems.push(`${where}: got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
      };
      const refused = { status: 403, message: PERMISSION_REFUSED };
      // Loaders that answer something else than their page to staff who may open them.
      const special: Record<string, { status: number; location?: string }> = {
        "admin.logout.ts": { status: 302, location: "/" },
        "admin.$.tsx": { status: 404 },
      };
      let allowedCalls = 0;
      let refusedCalls = 0;

      for (const m of modules) {
        const declared = m.permissions;
        if (!declared) {
          problems.push(`${m.file} declares no permissions`);
          continue;
        }
        for (const { who, role, cookie } of staffMembers()) {
          const headers = { Cookie: await cookie() };
          if (m.loader) {
            const permission = declared.loader ?? null;
            const where = `GET ${m.file} (${who})`;
            const prior = await snapshot();
            const answer = await call(m.loader, getRequest("/admin/guard-probe", headers), params());
            if (permission === null || can(role, permission)) {
              allowedCalls++;
              const want = special[m.file] ?? { status: 200 };
              check(where, { status: answer.status, location: answer.headers.get("Location") ?? undefined }, want);
            } else {
              refusedCalls++;
              // The dashboard is where every sign-in lands: a role without its figures goes to its first section.
              if (m.file === "admin._index.tsx")
                check(where, { status: answer.status, location: answer.headers.get("Location") }, { status: 302, location: homeFor(role) });
              else check(where, { status: answer.status, message: messageOf(answer) }, refused);
            }
            if (JSON.stringify(await snapshot()) !== JSON.stringify(prior)) problems.push(`${where}: the database changed`);
          }
          if (m.action) {
            for (const [intent, permission] of declaredIntents(declared.action)) {
              const where = `POST ${m.file}${intent ? ` intent=${intent}` : ""} (${who})`;
              if (permission === null || can(role, permission)) {
                allowedCalls++;
                // Allowed: the guard lets it through to the form (which refuses the probe's missing fields, or answers 405).
                const answer = await call(
                  m.action,
                  await postRequest(
                    urlencoded("probe", () => [["intent", intent ?? "guard-probe"]]),
                    headers,
                  ),
                  params(),
                );
                if (answer.status === 403 || answer.status >= 500)
                  problems.push(`${where}: got ${answer.status} ${messageOf(answer)}, want it let through`);
                continue;
              }
              for (const body of intent === null ? bodies() : intentBodies(intent)) {
                refusedCalls++;
                const prior = await snapshot();
                const answer = await call(m.action, await postRequest(body, headers), params());
                check(`${where} ${body.name}`, { status: answer.status, message: messageOf(answer) }, refused);
                if (JSON.stringify(await snapshot()) !== JSON.stringify(prior))
                  problems.push(`${where} ${body.name}: the database changed`);
              }
            }
          }
        }
      }
      expect(problems).toEqual([]);
      // Both sides were walked (a table that grants all, or nothing, must not pass silently).
      expect(allowedCalls).toBeGreaterThan(40);
      expect(refusedCalls).toBeGreaterThan(40);
    },
  );

  it("an intent of another page's form is refused to a role without any of the page's permissions, before the body is used", async () => {
    const orderPage = await loadModule("admin.orders_.$orderId.tsx");
    const support = { Cookie: await staffCookie(staffOf.support) };
    const fulfilment = { Cookie: await staffCookie(staffOf.fulfilment) };
    const prior = await snapshot();
    // Support reads orders but changes none: any intent, known or not, is a 403.
    for (const intent of ["status", "no-such-intent"]) {
      const answer = await call(
        orderPage.action!,
        await postRequest(
          urlencoded(intent, () => [
            ["intent", intent],
            ["status", "shipped"],
          ]),
          support,
        ),
        params(),
      );
      expect({ intent, status: answer.status, message: messageOf(answer) }).toEqual({ intent, status: 403, message: PERMISSION_REFUSED });
    }
    // Fulfilment may use some of its forms: an unknown intent is the page's own 400.
    const unknown = await call(
      orderPage.action!,
      await postRequest(
        urlencoded("unknown", () => [["intent", "no-such-intent"]]),
        fulfilment,
      ),
      params(),
    );
    expect(unknown.status).toBe(400);
    expect(await snapshot()).toEqual(prior);
  });
});

describe("the admin API", () => {
  it("answers a role without the permission 403 in JSON and writes nothing; a role with it is served", async () => {
    const support = { Cookie: await staffCookie(staffOf.support) };
    const fulfilment = { Cookie: await staffCookie(staffOf.fulfilment) };
    const prior = await snapshot();

    // The customers list: support reads customers, fulfilment does not.
    const listed = await call(userListApi.loader, getRequest("/api/user/list", support));
    expect(listed.status).toBe(200);
    const notListed = await call(userListApi.loader, getRequest("/api/user/list", fulfilment));
    expect({ status: notListed.status, type: notListed.headers.get("Content-Type"), body: notListed.body }).toMatchObject({
      status: 403,
      type: expect.stringContaining("application/json"),
      body: { message: PERMISSION_REFUSED },
    });

    // An order's status: support may not change it (nor, as staff, act as a customer).
    const status = await call(
      orderStatusApi.action,
      jsonRequest("PUT", "/api/orders/changeStatus", { orderId, status: "shipped" }, support),
    );
    expect({ status: status.status, body: status.body }).toMatchObject({ status: 403, body: { message: PERMISSION_REFUSED } });

    // A return's decision: fulfilment receives returned goods but does not approve or reject.
    for (const decision of ["approved", "rejected"]) {
      const answer = await call(
        returnStatusApi.action,
        jsonRequest("PUT", "/api/returns/changeStatus", { returnId: 1, status: decision, note: "No." }, fulfilment),
      );
      expect({ decision, status: answer.status, body: answer.body }).toMatchObject({
        decision,
        status: 403,
        body: { message: PERMISSION_REFUSED },
      });
    }
    // Receiving is fulfilment's: the guard lets it through to the return (none here: 404).
    const receive = await call(
      returnStatusApi.action,
      jsonRequest("PUT", "/api/returns/changeStatus", { returnId: 999_999, status: "returned" }, fulfilment),
    );
    expect(receive.status).toBe(404);
    expect(await snapshot()).toEqual(prior);
  });

  it("a customer signed in beside a staff sign-in without orders.status acts on their own orders as the customer", async () => {
    // One browser: the customer's sign-in and a support member's (support may not change statuses).
    const own = await createTestItem("guard-own", { price: 900, stock: 5 });
    await addToCart(customer, own, 1);
    const placed = await placeViaApi(customer, checkoutFields());
    expect(placed.status).toBe(201);
    const ownOrder = asRecord(placed.body).id as number;
    const session = await getSession(getRequest("/"));
    session.set("userId", customer.user.id);
    session.set("staffId", staffOf.support.id);
    session.set("staffSignedInAt", new Date().toISOString());
    const both = { Cookie: mergeCookies([await commitSession(session, getRequest("/"))]) };
    // A status only the shop may set is still refused: the customer's own rules apply.
    const shipped = await call(
      orderStatusApi.action,
      jsonRequest("PUT", "/api/orders/changeStatus", { orderId: ownOrder, status: "shipped" }, both),
    );
    expect(shipped.status).toBe(403);
    const cancelled = await call(
      orderStatusApi.action,
      jsonRequest("PUT", "/api/orders/changeStatus", { orderId: ownOrder, status: "cancelled" }, both),
    );
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    const order = await db.selectFrom("orders").select("status").where("id", "=", ownOrder).executeTakeFirstOrThrow();
    expect(order.status).toBe("cancelled");
  });

  it("a role with orders.status changes an order through the API, recorded as that staff member", async () => {
    const fulfilment = { Cookie: await staffCookie(staffOf.fulfilment) };
    const changed = await call(
      orderStatusApi.action,
      jsonRequest("PUT", "/api/orders/changeStatus", { orderId, status: "shipped", shipUnpaid: true, carrier: "Blue Dart" }, fulfilment),
    );
    expect(changed.status).toBe(200);
    const row = await db
      .selectFrom("auditLog")
      .selectAll()
      .where("entity", "=", "order")
      .where("entityId", "=", String(orderId))
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ action: "status", staffId: staffOf.fulfilment.id, actor: `Guard Fulfilment (Fulfilment)` });
    expect(JSON.parse(row.details!)).toEqual({
      status: ["processing", "shipped"],
      carrier: [null, "Blue Dart"],
      trackingNumber: [null, null],
    });
  });
});

describe("the admin frame", () => {
  const expected: Record<Role, string[]> = {
    owner: [
      "Dashboard",
      "Categories",
      "Products",
      "Users",
      "Orders",
      "Returns",
      "Refunds",
      "Reviews",
      "Coupons",
      "Delivery",
      "Mail",
      "Staff",
      "Audit trail",
    ],
    manager: ["Dashboard", "Categories", "Products", "Users", "Orders", "Returns", "Refunds", "Reviews", "Coupons", "Mail"],
    fulfilment: ["Orders", "Returns"],
    support: ["Users", "Orders", "Returns", "Reviews", "Mail"],
  };

  it("names who is signed in and lists only the sections the role may open", async () => {
    for (const { who, role, cookie } of staffMembers()) {
      const answer = await call(adminFrame.loader, getRequest("/admin", { Cookie: await cookie() }));
      expect(answer.status).toBe(200);
      const staff = asRecord(asRecord(answer.body).staff);
      expect({ who, role: staff.role, roleLabel: staff.roleLabel, permissions: staff.permissions }).toEqual({
        who,
        role,
        roleLabel: ROLE_LABELS[role],
        permissions: [...ROLE_PERMISSIONS[role]],
      });
      expect(staff.name).toBe(who === "the built-in owner" ? "Built-in owner" : `Guard ${ROLE_LABELS[role]}`);
      expect({ who, sections: sectionsWith(staff.permissions as Permission[]).map((s) => s.label) }).toEqual({
        who,
        sections: expected[role],
      });
    }
  });

  it("sends a role without the dashboard's figures from /admin to its first section", () => {
    expect(homeFor("fulfilment")).toBe("/admin/orders");
    expect(homeFor("support")).toBe("/admin/users");
    expect(homeFor("manager")).toBe("/admin");
  });
});
