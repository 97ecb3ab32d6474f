// The back-office through its routes and models: Admin Access login and logout, the admin
// forms' round trips (categories, products, users), list search and pagination, the audit
// log, the dashboard's figures, /api/user/list and the admin order page.
import crypto from "node:crypto";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { adminPassword } from "~/web/admin.server";
import { grantAdmin } from "~/web/sign-in.server";
import { ADMIN_FORBIDDEN, isAdminRequest } from "~/web/visitor.server";
import { ready } from "~/lib/boot.server";
import { db, toCount } from "~/lib/db.server";
import type * as envModule from "~/lib/env.server";
import { env } from "~/lib/env.server";
import { LIMITS } from "~/lib/rate-limit.server";
import { commitSession, getSession, sessionCookie } from "~/lib/session.server";
import type { ListPage } from "~/lib/paging.server";
import { ADMIN_PAGE, pageInfoOf } from "~/lib/paging.server";
import { listCategoriesPage, listProductsPage } from "~/models/catalogue/admin-lists.server";
import { CATEGORY_IN_USE } from "~/models/catalogue/admin-categories.server";
import { latestAudit } from "~/models/audit.server";
import { getCategoryBySlug } from "~/models/catalogue/categories.server";
import { getItemBySlug } from "~/models/catalogue/products.server";
import { dashboardStats, listOrdersPage, orderStatusCounts, percentChange } from "~/models/orders/admin.server";
import { listUsersPage, USER_HAS_ORDERS } from "~/models/users/admin.server";
import type { Order } from "~/models/orders/read.server";
import { getOrder } from "~/models/orders/read.server";
import { listOrders } from "~/models/orders/list.server";
import { SHIP_UNPAID_FIELD, SHIP_UNPAID_REFUSED } from "~/models/orders/status.server";
import { offlinePayment } from "~/lib/payments.server";
import * as createPaymentOrder from "~/routes/rzp.create-order";
import * as dashboard from "~/routes/admin._index";
import * as categoriesPage from "~/routes/admin.categories";
import * as logoutRoute from "~/routes/admin.logout";
import * as orderPage from "~/routes/admin.orders_.$orderId";
import * as productsPage from "~/routes/admin.products";
import * as storefrontProduct from "~/routes/product.$slug";
import * as usersPage from "~/routes/admin.users";
import * as loginRoute from "~/routes/admin_.login";
import * as customerLogin from "~/routes/login";
import * as userList from "~/routes/api.user.list";
import * as changeStatus from "~/routes/api.orders_.changeStatus";
import * as customerOrders from "~/routes/orders";
import { MESSAGES } from "~/utils/account-schemas";
import type { AdminListQuery } from "~/utils/admin-schemas";
import { parseAdminListQuery } from "~/utils/admin-schemas";
import { showingText } from "~/utils/pagination";
import { adminWindow } from "../support/paging";
import { createTestItem } from "../support/items";
import { getRequest, jsonRequest, mergeCookies, ORIGIN } from "../support/requests";
import type { Answer, RouteFn } from "../support/route-calls";
import { asRecord, call, expectApiError, setCookies } from "../support/route-calls";
import type { Customer } from "../support/orders";
import { addToCart, checkoutFields, eventsOf, newCustomer, PASSWORD as CUSTOMER_PASSWORD, placeViaApi } from "../support/orders";

let adminCookie = "";
let firstCategoryId = 0;

beforeAll(async () => {
  await ready;
  adminCookie = mergeCookies([await grantAdmin(getRequest("/"))]);
  firstCategoryId = (await db.selectFrom("categories").select("id").orderBy("id").executeTakeFirstOrThrow()).id;
});

// ---- helpers ----------------------------------------------------------------------------

type Fields = Record<string, string> | [string, string][];

function formPost(path: string, fields: Fields, headers: Record<string, string> = {}): Request {
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { Host: "localhost:3000", Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

/** An admin form post to a route action. */
function adminPost(action: RouteFn, path: string, fields: Fields, params: Record<string, string> = {}): Promise<Answer> {
  return call(action, formPost(path, fields, { Cookie: adminCookie }), params);
}

function expectRedirect(answer: Answer, location: string) {
  expect([302, 303]).toContain(answer.status);
  expect(answer.headers.get("Location")).toBe(location);
}

/** A form action's re-rendered failure: its status, message and field messages. */
function failure(answer: Answer, status: number) {
  expect(answer.status).toBe(status);
  const body = asRecord(answer.body);
  expect(body.ok).toBe(false);
  return body as { formError: string; fieldErrors: Record<string, string>; values?: Record<string, string> };
}

async function sessionIdOf(cookie: string): Promise<string | null> {
  return ((await sessionCookie.parse(cookie)) as string | null) ?? null;
}

async function sessionDataOf(cookie: string): Promise<Record<string, unknown> | null> {
  const id = await sessionIdOf(cookie);
  if (!id) return null;
  const row = await db.selectFrom("sessions").select("data").where("id", "=", id).executeTakeFirst();
  return row ? (JSON.parse(row.data) as Record<string, unknown>) : null;
}

/** A browser session signed in as the customer (no admin flag). */
async function customerSession(customer: Customer): Promise<string> {
  const session = await getSession(getRequest("/"));
  session.set("userId", customer.user.id);
  return mergeCookies([await commitSession(session, getRequest("/"))]);
}

async function count(table: "categories" | "items" | "users" | "orders" | "auditLog"): Promise<number> {
  return toCount(
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
}

async function writes() {
  return {
    categories: await db.selectFrom("categories").selectAll().orderBy("id").execute(),
    items: await db.selectFrom("items").selectAll().orderBy("id").execute(),
    users: await db.selectFrom("users").selectAll().orderBy("id").execute(),
    orders: await db.selectFrom("orders").selectAll().orderBy("id").execute(),
    audit: await count("auditLog"),
  };
}

async function latestAuditRow() {
  return (await latestAudit(1))[0];
}

const uid = () => crypto.randomBytes(4).toString("hex");

/** A product's version, which the edit form carries (an edit of another version is refused). */
async function versionOf(id: number): Promise<string> {
  return String((await db.selectFrom("items").select("version").where("id", "=", id).executeTakeFirstOrThrow()).version);
}

async function placeOrder(customer: Customer, itemId: number, quantity = 1): Promise<Order> {
  await addToCart(customer, itemId, quantity);
  const placed = await placeViaApi(customer, checkoutFields());
  expect(placed.status).toBe(201);
  return asRecord(placed.body) as unknown as Order;
}

async function insertCategory(title: string, description = "A category made by a test.") {
  const now = new Date().toISOString();
  const slug = `${title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")}-${uid()}`;
  return (
    await db
      .insertInto("categories")
      .values({ title, slug, description, imgPath: "/x.svg", createdAt: now, updatedAt: now })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
}

async function insertItem(title: string, categoryId: number, fields: { description?: string; createdAt?: string } = {}) {
  const now = fields.createdAt ?? new Date().toISOString();
  return (
    await db
      .insertInto("items")
      .values({
        categoryId,
        title,
        slug: `test-${uid()}`,
        description: fields.description ?? "A product made by a test.",
        price: 1000,
        imgPath: "/x.svg",
        stock: 5,
        createdAt: now,
        updatedAt: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
}

async function insertUser(name: string, fields: { email?: string; mobile?: string | null; createdAt?: string; verified?: boolean } = {}) {
  const now = fields.createdAt ?? new Date().toISOString();
  return (
    await db
      .insertInto("users")
      .values({
        name,
        email: fields.email ?? `user-${uid()}@example.com`,
        mobile: fields.mobile ?? null,
        passwordHash: null,
        emailVerifiedAt: fields.verified === false ? null : now,
        createdAt: now,
        updatedAt: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
}

type Status = "processing" | "shipped" | "delivered" | "cancelled";

async function insertOrder(userId: number, fields: { shipName?: string; status?: Status; total?: number; createdAt?: string } = {}) {
  const now = fields.createdAt ?? new Date().toISOString();
  const total = fields.total ?? 1000;
  return (
    await db
      .insertInto("orders")
      .values({
        userId,
        status: fields.status ?? "processing",
        paymentMethod: "cod",
        paymentOrderId: null,
        paymentId: null,
        idempotencyKey: null,
        subtotal: total,
        shipping: 0,
        gst: 0,
        total,
        shipName: fields.shipName ?? "Test Receiver",
        shipAddress: "1 Test Road",
        shipCity: "Pune",
        shipState: "Maharashtra",
        shipPincode: "411001",
        shipPhone: "9876543210",
        shipEmail: "receiver@example.com",
        createdAt: now,
        updatedAt: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow()
  ).id;
}

const CATEGORY_FIELDS = { title: "Garden Loungers", description: "Loungers for the lawn.", imgPath: "https://cdn.example.in/loungers.jpg" };

function productFields(
  over: Record<string, string> = {},
  specs: [string, string][] = [
    ["Material", "Teak"],
    ["Seats", "2"],
  ],
): [string, string][] {
  const base: Record<string, string> = {
    title: "Coastal Teak Bench",
    categoryId: String(firstCategoryId),
    price: "12500",
    imgPath: "/images/products/bench.svg",
    description: "A bench for two, oiled teak.",
    featured: "on",
    inStock: "on",
    stock: "4",
    ...over,
  };
  const fields: [string, string][] = Object.entries(base).filter(([, v]) => v !== "__absent__");
  for (const [k, v] of specs) fields.push(["specKey", k], ["specValue", v]);
  return fields;
}

// ---- Admin Access ------------------------------------------------------------------------

function login(fields: Fields, headers: Record<string, string> = {}) {
  return call(loginRoute.action, formPost("/admin/login", fields, headers));
}

const PASSWORD = () => adminPassword()!;

describe("POST /admin/login", () => {
  it("the test environment has an admin password (ADMIN_PASSWORD, else admin12345 outside production)", () => {
    expect(adminPassword()).toBe(env.ADMIN_PASSWORD ?? "admin12345");
  });

  it("a wrong password: 401 'Invalid password' and no admin flag", async () => {
    const customer = await newCustomer("admin-login-wrong");
    const cookie = await customerSession(customer);
    for (const password of ["wrong", "", `${PASSWORD()} `, PASSWORD().toUpperCase() === PASSWORD() ? "x" : PASSWORD().toUpperCase()]) {
      const answer = await login({ password }, { Cookie: cookie });
      expect(answer.status).toBe(401);
      expect(asRecord(answer.body).message).toBe("Invalid password");
      expect(setCookies(answer).filter((c) => c.startsWith("__session="))).toEqual([]);
    }
    const missing = await login({}, { Cookie: cookie });
    expect(missing.status).toBe(401);
    expect(await isAdminRequest(getRequest("/admin", { Cookie: cookie }))).toBe(false);
    expect((await sessionDataOf(cookie))?.isAdmin).toBeUndefined();
  });

  it("a customer signing in on a browser where Admin Access was opened does not keep it", async () => {
    const customer = await newCustomer("admin-then-customer");
    const staffBrowser = mergeCookies([await grantAdmin(getRequest("/"))]);
    expect(await isAdminRequest(getRequest("/admin", { Cookie: staffBrowser }))).toBe(true);
    const signedIn = await call(
      customerLogin.action,
      formPost("/login", { email: customer.email, password: CUSTOMER_PASSWORD }, { Cookie: staffBrowser }),
    );
    expect(signedIn.status).toBe(302);
    const next = mergeCookies(setCookies(signedIn), staffBrowser);
    expect(await sessionDataOf(next)).toMatchObject({ userId: customer.user.id });
    expect((await sessionDataOf(next))?.isAdmin).toBeUndefined();
    expect(await isAdminRequest(getRequest("/admin", { Cookie: next }))).toBe(false);
  });

  it("the right password: 303 to /admin, a fresh session id holding the admin flag, the customer still signed in", async () => {
    const customer = await newCustomer("admin-login-right");
    const cookie = await customerSession(customer);
    const oldId = await sessionIdOf(cookie);
    const answer = await login({ password: PASSWORD() }, { Cookie: cookie });
    expect(answer.status).toBe(303);
    expect(answer.headers.get("Location")).toBe("/admin");
    const next = mergeCookies(setCookies(answer), cookie);
    const newId = await sessionIdOf(next);
    expect(newId).toBeTruthy();
    expect(newId).not.toBe(oldId);
    expect(await db.selectFrom("sessions").select("id").where("id", "=", oldId!).executeTakeFirst()).toBeUndefined();
    expect(await sessionDataOf(next)).toMatchObject({ isAdmin: true, userId: customer.user.id });
    expect(await isAdminRequest(getRequest("/admin", { Cookie: next }))).toBe(true);
    // The old cookie carries nothing any more.
    expect(await isAdminRequest(getRequest("/admin", { Cookie: cookie }))).toBe(false);
    // The admin area opens with it.
    expect((await call(dashboard.loader, getRequest("/admin", { Cookie: next }))).status).toBe(200);
  });

  it("a visitor without any session gets one holding the flag", async () => {
    const answer = await login({ password: PASSWORD() });
    expect(answer.status).toBe(303);
    const cookie = mergeCookies(setCookies(answer));
    expect(await sessionDataOf(cookie)).toMatchObject({ isAdmin: true });
  });

  it("the dialog's variant (respond=inline): the message is answered in place, not thrown to the boundary", async () => {
    // A plain form post throws its failure (the route's boundary draws the form again).
    await expect(
      loginRoute.action({ request: formPost("/admin/login", { password: "nope" }), params: {}, context: {} }),
    ).rejects.toMatchObject({
      data: { message: "Invalid password" },
      init: { status: 401 },
    });
    // The dialog's fetcher gets it back as the action's data.
    const returned = await loginRoute.action({
      request: formPost("/admin/login", { password: "nope", respond: "inline" }),
      params: {},
      context: {},
    });
    const wrong = await call(() => returned, getRequest("/"));
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ message: "Invalid password" });
    expect(setCookies(wrong).filter((c) => c.startsWith("__session="))).toEqual([]);

    const right = await login({ password: PASSWORD(), respond: "inline" });
    expectRedirect(right, "/admin");
    expect(right.status).toBe(303);
    const cookie = mergeCookies(setCookies(right));
    expect(await sessionDataOf(cookie)).toMatchObject({ isAdmin: true });
  });

  const nextTry = LIMITS.adminLogin.max + 1;
  it(`tries are limited per address: the ${nextTry}th from one address → 429, even with the right password`, async () => {
    const trusted = env.TRUST_PROXY;
    env.TRUST_PROXY = true;
    try {
      const from = (ip: string, password: string) => login({ password, respond: "inline" }, { "X-Forwarded-For": ip });
      for (let i = 0; i < LIMITS.adminLogin.max; i++) expect((await from("203.0.113.77", `guess-${i}`)).status).toBe(401);
      const blocked = await from("203.0.113.77", PASSWORD());
      expect(blocked.status).toBe(429);
      expect(blocked.body).toEqual({ message: "Too many attempts. Please wait a while and try again." });
      expect(Number(blocked.headers.get("Retry-After"))).toBeGreaterThan(0);
      expect(setCookies(blocked).filter((c) => c.startsWith("__session="))).toEqual([]);
      // The page form gets the same status.
      const page = await call(loginRoute.action, formPost("/admin/login", { password: PASSWORD() }, { "X-Forwarded-For": "203.0.113.77" }));
      expect(page.status).toBe(429);
      // Another address is not held by the first one's tries.
      expectRedirect(await from("198.51.100.23", PASSWORD()), "/admin");
    } finally {
      env.TRUST_PROXY = trusted;
    }
  });

  it("a GET of /admin/login goes to /admin for the admin, to / for everyone else", async () => {
    expectRedirect(await call(loginRoute.loader, getRequest("/admin/login")), "/");
    expectRedirect(await call(loginRoute.loader, getRequest("/admin/login", { Cookie: adminCookie })), "/admin");
  });
});

describe("POST /admin/logout", () => {
  it("clears the flag and goes to /; a signed-in customer stays signed in", async () => {
    const customer = await newCustomer("admin-logout");
    const customerCookie = await customerSession(customer);
    const cookie = mergeCookies([await grantAdmin(getRequest("/", { Cookie: customerCookie }))], customerCookie);
    expect(await sessionDataOf(cookie)).toMatchObject({ isAdmin: true, userId: customer.user.id });

    // A GET changes nothing.
    expectRedirect(await call(logoutRoute.loader, getRequest("/admin/logout", { Cookie: cookie })), "/");
    expect(await isAdminRequest(getRequest("/", { Cookie: cookie }))).toBe(true);

    const answer = await call(logoutRoute.action, formPost("/admin/logout", {}, { Cookie: cookie }));
    expectRedirect(answer, "/");
    const after = mergeCookies(setCookies(answer), cookie);
    expect(await sessionIdOf(after)).not.toBe(await sessionIdOf(cookie));
    const data = await sessionDataOf(after);
    expect(data?.isAdmin).toBeUndefined();
    expect(data?.userId).toBe(customer.user.id);
    expect(await isAdminRequest(getRequest("/", { Cookie: after }))).toBe(false);
    expectRedirect(await call(dashboard.loader, getRequest("/admin", { Cookie: after })), "/");
    // Still the customer's session: /orders opens.
    expect((await call(customerOrders.loader, getRequest("/orders", { Cookie: after }))).status).toBe(200);
    // The old cookie is no admin either.
    expect(await isAdminRequest(getRequest("/", { Cookie: cookie }))).toBe(false);
  });
});

type EnvModule = typeof envModule;

describe("production without ADMIN_PASSWORD", () => {
  afterEach(() => {
    vi.doUnmock("~/lib/env.server");
    vi.resetModules();
  });

  it("no admin password at all: the login answers 403 'Admin access is not configured'", async () => {
    vi.resetModules();
    vi.doMock("~/lib/env.server", async (importOriginal) => {
      const real = await importOriginal<EnvModule>();
      return { ...real, env: { ...real.env, NODE_ENV: "production", ADMIN_PASSWORD: undefined }, isProduction: true };
    });
    const admin = await import("~/web/admin.server");
    const route = await import("~/routes/admin_.login");
    expect(admin.adminPassword()).toBeNull();
    expect(admin.adminConfigured()).toBe(false);
    expect(admin.isAdminPassword(admin.DEV_ADMIN_PASSWORD)).toBe(false);
    expect(admin.isAdminPassword("")).toBe(false);

    const page = await call(route.action, formPost("/admin/login", { password: admin.DEV_ADMIN_PASSWORD }));
    expect(page.status).toBe(403);
    expect(asRecord(page.body).message).toBe("Admin access is not configured");
    expect(setCookies(page).filter((c) => c.startsWith("__session="))).toEqual([]);
    const inline = await call(route.action, formPost("/admin/login", { password: admin.DEV_ADMIN_PASSWORD, respond: "inline" }));
    expect(inline.status).toBe(403);
    expect(inline.body).toEqual({ message: "Admin access is not configured" });
  });

  it("in production with ADMIN_PASSWORD set, only that password opens", async () => {
    vi.resetModules();
    vi.doMock("~/lib/env.server", async (importOriginal) => {
      const real = await importOriginal<EnvModule>();
      return { ...real, env: { ...real.env, NODE_ENV: "production", ADMIN_PASSWORD: "s3cret-Prod-pass" }, isProduction: true };
    });
    const admin = await import("~/web/admin.server");
    expect(admin.adminPassword()).toBe("s3cret-Prod-pass");
    expect(admin.isAdminPassword("s3cret-Prod-pass")).toBe(true);
    expect(admin.isAdminPassword(admin.DEV_ADMIN_PASSWORD)).toBe(false);
  });
});

// ---- categories --------------------------------------------------------------------------

describe("categories: add, edit, validation", () => {
  it("create: 302 back to the list, in the admin list and on the storefront, slug from the title", async () => {
    const before = await count("auditLog");
    const answer = await adminPost(categoriesPage.action, "/admin/categories?q=garden&page=1&new=1", {
      intent: "create",
      ...CATEGORY_FIELDS,
    });
    expectRedirect(answer, "/admin/categories?q=garden&page=1");
    expect(setCookies(answer).some((c) => c.startsWith("__toast="))).toBe(true);

    const listed = await listCategoriesPage({ q: "Garden Loungers" }, adminWindow(1));
    expect(listed.rows).toHaveLength(1);
    expect(listed.rows[0]).toMatchObject({ ...CATEGORY_FIELDS, slug: "garden-loungers", productCount: 0 });
    const shown = await getCategoryBySlug("garden-loungers");
    expect(shown).toMatchObject({ ...CATEGORY_FIELDS, id: listed.rows[0]!.id });
    expect(await count("auditLog")).toBe(before + 1);
  });

  it("the same title again gets the next free slug; an edit keeps the slug", async () => {
    const answer = await adminPost(categoriesPage.action, "/admin/categories", {
      intent: "create",
      ...CATEGORY_FIELDS,
      description: "The second one.",
    });
    expectRedirect(answer, "/admin/categories");
    const second = await getCategoryBySlug("garden-loungers-2");
    expect(second).toMatchObject({ title: "Garden Loungers", description: "The second one." });
    const third = await adminPost(categoriesPage.action, "/admin/categories", {
      intent: "create",
      ...CATEGORY_FIELDS,
      title: "garden   LOUNGERS!",
    });
    expectRedirect(third, "/admin/categories");
    expect(await getCategoryBySlug("garden-loungers-3")).not.toBeNull();

    const edit = await adminPost(categoriesPage.action, `/admin/categories?edit=${second!.id}`, {
      intent: "update",
      id: String(second!.id),
      title: "Patio Loungers",
      description: "Renamed.",
      imgPath: "/images/categories/patio.svg",
    });
    expectRedirect(edit, "/admin/categories");
    expect(await getCategoryBySlug("garden-loungers-2")).toEqual({
      id: second!.id,
      title: "Patio Loungers",
      description: "Renamed.",
      imgPath: "/images/categories/patio.svg",
      slug: "garden-loungers-2",
    });
    // The first one kept its own slug and fields.
    expect(await getCategoryBySlug("garden-loungers")).toMatchObject(CATEGORY_FIELDS);
  });

  it("validation: 400 with the documented messages beside the fields, nothing written", async () => {
    const before = await writes();
    const empty = failure(
      await adminPost(categoriesPage.action, "/admin/categories", { intent: "create", title: " ", description: "", imgPath: "" }),
      400,
    );
    expect(empty.fieldErrors).toEqual({
      title: "Title is required",
      description: "Description is required",
      imgPath: "Image URL is required",
    });
    expect(empty.formError).toBe("Please check the highlighted fields.");

    for (const [field, message] of [
      ["title", "Title is required"],
      ["description", "Description is required"],
      ["imgPath", "Image URL is required"],
    ] as const) {
      const fields: Record<string, string> = { intent: "create", ...CATEGORY_FIELDS };
      delete fields[field];
      expect(failure(await adminPost(categoriesPage.action, "/admin/categories", fields), 400).fieldErrors).toEqual({ [field]: message });
    }

    const js = failure(
      await adminPost(categoriesPage.action, "/admin/categories", { intent: "create", ...CATEGORY_FIELDS, imgPath: "javascript:alert(1)" }),
      400,
    );
    expect(js.fieldErrors).toEqual({ imgPath: "Please enter a valid image URL (https://… or /images/…)" });
    expect(js.values).toMatchObject({ title: CATEGORY_FIELDS.title, imgPath: "javascript:alert(1)" });

    const existing = (await getCategoryBySlug("garden-loungers"))!;
    const badEdit = failure(
      await adminPost(categoriesPage.action, "/admin/categories", {
        intent: "update",
        id: String(existing.id),
        ...CATEGORY_FIELDS,
        title: "",
      }),
      400,
    );
    expect(badEdit.fieldErrors).toEqual({ title: "Title is required" });
    const missing = failure(
      await adminPost(categoriesPage.action, "/admin/categories", { intent: "update", id: "999999", ...CATEGORY_FIELDS }),
      404,
    );
    expect(missing.formError).toBe("Category Not Found");
    expect(await writes()).toEqual(before);
  });
});

describe("categories: delete", () => {
  it("a category that still has products is refused (409, the message) and nothing is deleted; an empty one deletes", async () => {
    const used = await insertCategory("Delete Refusal");
    const a = await insertItem("Refusal Chair", used);
    await insertItem("Refusal Table", used);
    const before = await writes();
    const refused = failure(
      await adminPost(categoriesPage.action, "/admin/categories?delete=1", { intent: "delete", id: String(used) }),
      409,
    );
    expect(refused.formError).toBe(CATEGORY_IN_USE(2));
    expect(refused.formError).toBe("This category still has 2 products. Move or delete them first, then delete the category.");
    expect(await writes()).toEqual(before);

    await db.deleteFrom("items").where("categoryId", "=", used).where("id", "!=", a).execute();
    expect(
      failure(await adminPost(categoriesPage.action, "/admin/categories", { intent: "delete", id: String(used) }), 409).formError,
    ).toBe(CATEGORY_IN_USE(1));

    const empty = await insertCategory("Delete Me");
    const deleted = await adminPost(categoriesPage.action, "/admin/categories?q=Delete&delete=1", { intent: "delete", id: String(empty) });
    expectRedirect(deleted, "/admin/categories?q=Delete");
    expect(await db.selectFrom("categories").select("id").where("id", "=", empty).executeTakeFirst()).toBeUndefined();
    expect(
      failure(await adminPost(categoriesPage.action, "/admin/categories", { intent: "delete", id: String(empty) }), 404).formError,
    ).toBe("Category Not Found");
    expect(failure(await adminPost(categoriesPage.action, "/admin/categories", { intent: "delete", id: "abc" }), 400).formError).toBe(
      "A valid id is required",
    );
  });
});

describe("a write that empties the page the staff were on", () => {
  it("goes back to the last page that still has rows (that page is a 404 now), and keeps the filters", async () => {
    const word = `Emptied${Date.now()}`;
    const ids: number[] = [];
    for (let i = 0; i < 12; i += 1) ids.push(await insertCategory(`${word} ${String(i).padStart(2, "0")}`));
    // Twelve matches: ten on page 1, two on page 2. Deleting one leaves eleven: page 2 still has a row.
    const kept = await adminPost(categoriesPage.action, `/admin/categories?q=${word}&page=2&delete=1`, {
      intent: "delete",
      id: String(ids[0]),
    });
    expectRedirect(kept, `/admin/categories?q=${word}&page=2`);
    // Deleting another leaves ten: page 2 is empty, so the staff go back to page 1 (no page parameter).
    const emptied = await adminPost(categoriesPage.action, `/admin/categories?q=${word}&page=2&delete=1`, {
      intent: "delete",
      id: String(ids[1]),
    });
    expectRedirect(emptied, `/admin/categories?q=${word}`);
  });
});

// ---- products ----------------------------------------------------------------------------

describe("products: add, edit, delete", () => {
  it("create: the fields, In Stock with its count, the specification rows as a map, on the storefront", async () => {
    const answer = await adminPost(productsPage.action, "/admin/products?category=all&new=1", [["intent", "create"], ...productFields()]);
    expectRedirect(answer, "/admin/products?category=all");
    const item = await getItemBySlug("coastal-teak-bench");
    expect(item).toMatchObject({
      title: "Coastal Teak Bench",
      categoryId: firstCategoryId,
      price: 12500,
      imgPath: "/images/products/bench.svg",
      description: "A bench for two, oiled teak.",
      featured: true,
      inStock: true,
      stock: 4,
      specifications: { Material: "Teak", Seats: "2" },
    });
    const listed = await listProductsPage({ q: "Coastal Teak", category: "all" }, adminWindow(1));
    expect(listed.rows.map((r) => r.id)).toEqual([item!.id]);
    expect(listed.rows[0]!.categoryTitle).toBeTruthy();

    // Price 0 is allowed; In Stock off means 0 units; a repeated title gets the next slug.
    const free = await adminPost(productsPage.action, "/admin/products", [
      ["intent", "create"],
      ...productFields({ price: "0", inStock: "__absent__", featured: "__absent__", stock: "9" }, []),
    ]);
    expectRedirect(free, "/admin/products");
    expect(await getItemBySlug("coastal-teak-bench-2")).toMatchObject({
      price: 0,
      stock: 0,
      inStock: false,
      featured: false,
      specifications: {},
    });
  });

  it("validation: 400 with the messages, nothing written", async () => {
    const before = await writes();
    const post = async (over: Record<string, string>, specs?: [string, string][]) =>
      failure(await adminPost(productsPage.action, "/admin/products", [["intent", "create"], ...productFields(over, specs)]), 400);
    expect((await post({ price: "-1" })).fieldErrors).toEqual({ price: "Price must be 0 or more" });
    expect((await post({ price: "abc" })).fieldErrors).toEqual({ price: "Price must be a number" });
    expect((await post({ categoryId: "" })).fieldErrors).toEqual({ categoryId: "Category is required" });
    expect((await post({ categoryId: "__absent__" })).fieldErrors).toEqual({ categoryId: "Category is required" });
    expect((await post({ categoryId: "999999" })).fieldErrors).toEqual({ categoryId: "Please choose a category" });
    expect((await post({ stock: "0" })).fieldErrors).toEqual({ stock: "Enter the units in stock (at least 1), or untick In Stock" });
    expect((await post({ title: "", description: "" })).fieldErrors).toEqual({
      title: "Title is required",
      description: "Description is required",
    });
    expect((await post({ imgPath: "javascript:alert(1)" })).fieldErrors).toEqual({
      imgPath: "Please enter a valid image URL (https://… or /images/…)",
    });
    expect(
      (
        await post({}, [
          ["Material", "Teak"],
          ["material", "Oak"],
        ])
      ).fieldErrors,
    ).toEqual({ specifications: 'Row 2: "material" is listed twice' });
    expect(await writes()).toEqual(before);
  });

  it("edit: new fields and specifications, the slug kept; a bad edit changes nothing", async () => {
    const item = (await getItemBySlug("coastal-teak-bench"))!;
    const other = await insertCategory("Benches");
    const answer = await adminPost(productsPage.action, `/admin/products?edit=${item.id}`, [
      ["intent", "update"],
      ["id", String(item.id)],
      ["version", await versionOf(item.id)],
      ...productFields(
        { title: "Coastal Teak Bench XL", categoryId: String(other), price: "14999.6", stock: "2", featured: "__absent__" },
        [["Length", "180 cm"]],
      ),
    ]);
    expectRedirect(answer, "/admin/products");
    expect(await getItemBySlug("coastal-teak-bench")).toEqual({
      ...item,
      title: "Coastal Teak Bench XL",
      categoryId: other,
      price: 15000,
      stock: 2,
      featured: false,
      specifications: { Length: "180 cm" },
    });
    const before = await writes();
    const bad = failure(
      await adminPost(productsPage.action, "/admin/products", [
        ["intent", "update"],
        ["id", String(item.id)],
        ...productFields({ price: "-5" }),
      ]),
      400,
    );
    expect(bad.fieldErrors).toEqual({ price: "Price must be 0 or more" });
    expect(await writes()).toEqual(before);
  });

  it("made to order: the box sets and clears it (create, edit, versioned, audited); the product's delivery answer follows", async () => {
    // The product page's Check delivery for Ahmedabad (a metro zone: 5-7 business days).
    const onPage = async (slug: string) => {
      const page = await call(storefrontProduct.loader, getRequest(`/product/${slug}?pincode=380009`), { slug });
      expect(page.status).toBe(200);
      const body = asRecord(page.body);
      return { madeToOrder: asRecord(body.item).madeToOrder, days: asRecord(asRecord(body.delivery).quote).days };
    };
    const title = `Made To Order Almirah ${uid()}`;
    const created = await adminPost(productsPage.action, "/admin/products", [
      ["intent", "create"],
      ...productFields({ title, madeToOrder: "on" }),
    ]);
    expectRedirect(created, "/admin/products");
    const item = (await listProductsPage({ q: title, category: "all" }, adminWindow(1), db)).rows[0]!;
    expect(item.madeToOrder).toBe(true);
    expect(await onPage(item.slug)).toEqual({ madeToOrder: true, days: { min: 14, max: 21 } });
    expect((await latestAuditRow())!.summary).toMatch(/^Created product .*, made to order$/);

    // A refused form shows the box as it was posted.
    const refused = failure(
      await adminPost(productsPage.action, "/admin/products", [["intent", "create"], ...productFields({ price: "x", madeToOrder: "on" })]),
      400,
    );
    expect(refused.values?.madeToOrder).toBe("on");

    const edit = async (version: string, madeToOrder: boolean) =>
      adminPost(productsPage.action, `/admin/products?edit=${item.id}`, [
        ["intent", "update"],
        ["id", String(item.id)],
        ["version", version],
        ...productFields({ title, madeToOrder: madeToOrder ? "on" : "__absent__", stock: "__absent__" }),
      ]);
    const opened = await versionOf(item.id);
    expectRedirect(await edit(opened, false), "/admin/products");
    expect(await onPage(item.slug)).toEqual({ madeToOrder: false, days: { min: 5, max: 7 } });
    expect((await latestAuditRow())!.summary).toBe(`Edited product "${title}": madeToOrder changed`);

    // The form opened before that edit is refused and writes nothing; the current one sets it again.
    const before = await writes();
    expect(failure(await edit(opened, true), 409).formError).toMatch(/changed since you opened it/);
    expect(await writes()).toEqual(before);
    expectRedirect(await edit(await versionOf(item.id), true), "/admin/products");
    expect(await onPage(item.slug)).toEqual({ madeToOrder: true, days: { min: 14, max: 21 } });
  });

  it("delete: gone from the catalogue; a past order keeps its own title and price and stays readable", async () => {
    const customer = await newCustomer("admin-del-product");
    const created = await adminPost(productsPage.action, "/admin/products", [
      ["intent", "create"],
      ...productFields({ title: "Short Lived Stool", price: "2750", stock: "10" }),
    ]);
    expectRedirect(created, "/admin/products");
    const stool = (await getItemBySlug("short-lived-stool"))!;
    const order = await placeOrder(customer, stool.id, 2);
    expect(order.items).toMatchObject([{ itemId: stool.id, title: "Short Lived Stool", price: 2750, quantity: 2 }]);

    const answer = await adminPost(productsPage.action, `/admin/products?delete=${stool.id}`, { intent: "delete", id: String(stool.id) });
    expectRedirect(answer, "/admin/products");
    expect(await getItemBySlug("short-lived-stool")).toBeNull();
    const kept = await getOrder(order.id, { userId: customer.user.id, isAdmin: false });
    expect(kept).not.toBeNull();
    expect(kept!.items).toMatchObject([{ itemId: null, title: "Short Lived Stool", slug: "short-lived-stool", price: 2750, quantity: 2 }]);
    expect(kept!.total).toBe(order.total);
    expect(kept!.subtotal).toBe(order.subtotal);
    expect(
      failure(await adminPost(productsPage.action, "/admin/products", { intent: "delete", id: String(stool.id) }), 404).formError,
    ).toBe("Product Not Found");
  });
});

// ---- users -------------------------------------------------------------------------------

describe("users: add, edit, delete", () => {
  it("create without a password; mobile optional (null when blank); a duplicate email → 409 on the field", async () => {
    const email = `walkin-${uid()}@example.com`;
    const answer = await adminPost(usersPage.action, "/admin/users?new=1", {
      intent: "create",
      name: "Walk-in Customer",
      email: email.toUpperCase(),
      mobile: "",
    });
    expectRedirect(answer, "/admin/users");
    const row = await db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: "Walk-in Customer", email, mobile: null, passwordHash: null });
    expect(row.emailVerifiedAt).toBeTruthy();
    const listed = await listUsersPage({ q: email }, adminWindow(1));
    expect(listed.rows).toMatchObject([{ id: row.id, name: "Walk-in Customer", email, mobile: null, orderCount: 0, canLogIn: false }]);

    const withMobile = await adminPost(usersPage.action, "/admin/users", {
      intent: "create",
      name: "Phone Customer",
      email: `phone-${uid()}@example.com`,
      mobile: "+91 98765-43210",
    });
    expectRedirect(withMobile, "/admin/users");
    expect((await db.selectFrom("users").select("mobile").where("name", "=", "Phone Customer").executeTakeFirstOrThrow()).mobile).toBe(
      "9876543210",
    );

    const before = await writes();
    const duplicate = failure(
      await adminPost(usersPage.action, "/admin/users", {
        intent: "create",
        name: "Someone Else",
        email: ` ${email.toUpperCase()} `,
        mobile: "",
      }),
      409,
    );
    expect(duplicate.fieldErrors).toEqual({ email: MESSAGES.emailInUse });
    const invalid = failure(
      await adminPost(usersPage.action, "/admin/users", { intent: "create", name: "", email: "not-an-email", mobile: "12345" }),
      400,
    );
    expect(invalid.fieldErrors).toMatchObject({ name: "Name is required", mobile: MESSAGES.mobile });
    expect(invalid.fieldErrors.email).toBeTruthy();
    expect(await writes()).toEqual(before);
  });

  it("edit: name, email and mobile change; another account's email is refused", async () => {
    const id = await insertUser("Edit Me", { email: `edit-${uid()}@example.com` });
    const taken = `taken-${uid()}@example.com`;
    await insertUser("Taken", { email: taken });
    const newEmail = `edited-${uid()}@example.com`;
    const answer = await adminPost(usersPage.action, `/admin/users?edit=${id}`, {
      intent: "update",
      id: String(id),
      name: "Edited Name",
      email: newEmail,
      mobile: "9123456789",
    });
    expectRedirect(answer, "/admin/users");
    expect(await db.selectFrom("users").select(["name", "email", "mobile"]).where("id", "=", id).executeTakeFirstOrThrow()).toEqual({
      name: "Edited Name",
      email: newEmail,
      mobile: "9123456789",
    });

    const before = await writes();
    const clash = failure(
      await adminPost(usersPage.action, "/admin/users", {
        intent: "update",
        id: String(id),
        name: "Edited Name",
        email: taken,
        mobile: "",
      }),
      409,
    );
    expect(clash.fieldErrors).toEqual({ email: MESSAGES.emailInUse });
    expect(
      failure(
        await adminPost(usersPage.action, "/admin/users", {
          intent: "update",
          id: "999999",
          name: "X",
          email: `x-${uid()}@example.com`,
          mobile: "",
        }),
        404,
      ).formError,
    ).toBe("User Not Found");
    expect(await writes()).toEqual(before);
  });

  it("delete: a user without orders goes; one with orders is refused (409) and nothing is deleted", async () => {
    const lone = await newCustomer("admin-del-user");
    const loneCookie = await customerSession(lone);
    const answer = await adminPost(usersPage.action, `/admin/users?delete=${lone.user.id}`, { intent: "delete", id: String(lone.user.id) });
    expectRedirect(answer, "/admin/users");
    expect(await db.selectFrom("users").select("id").where("id", "=", lone.user.id).executeTakeFirst()).toBeUndefined();
    expect(await db.selectFrom("apiTokens").select("id").where("userId", "=", lone.user.id).executeTakeFirst()).toBeUndefined();
    // Signed out everywhere: the browser session went with the account.
    expect(
      await db
        .selectFrom("sessions")
        .select("id")
        .where("id", "=", (await sessionIdOf(loneCookie))!)
        .executeTakeFirst(),
    ).toBeUndefined();

    const buyer = await newCustomer("admin-del-buyer");
    const item = await createTestItem(`admin-del-buyer-${uid()}`, { price: 900, stock: 20 });
    await placeOrder(buyer, item, 1);
    await placeOrder(buyer, item, 1);
    const before = await writes();
    const refused = failure(await adminPost(usersPage.action, "/admin/users", { intent: "delete", id: String(buyer.user.id) }), 409);
    expect(refused.formError).toBe(USER_HAS_ORDERS(2));
    expect(await writes()).toEqual(before);
    expect(await listOrders({ userId: buyer.user.id, isAdmin: false })).toHaveLength(2);
  });
});

// ---- search and pagination ---------------------------------------------------------------

type Lister = (q: string, page: number) => Promise<ListPage<{ id: number }>>;

/** 0, 10, 11 and 25 matching rows: pages, from/to, rows per page, a page past the end (no rows, a 404), the text. */
async function checkBoundaries(list: Lister, queries: Record<0 | 10 | 11 | 25, string>, noun?: string) {
  const expected: Record<0 | 10 | 11 | 25, { pages: number; perPage: number[] }> = {
    0: { pages: 1, perPage: [0] },
    10: { pages: 1, perPage: [10] },
    11: { pages: 2, perPage: [10, 1] },
    25: { pages: 3, perPage: [10, 10, 5] },
  };
  for (const n of [0, 10, 11, 25] as const) {
    const q = queries[n];
    const seen: number[] = [];
    const { pages, perPage } = expected[n];
    for (let page = 1; page <= pages; page++) {
      const { rows, total } = await list(q, page);
      const info = pageInfoOf({ page, pageSize: ADMIN_PAGE.pageSize }, total);
      const from = n === 0 ? 0 : (page - 1) * 10 + 1;
      const to = n === 0 ? 0 : from + perPage[page - 1]! - 1;
      expect({
        q,
        page,
        rows: rows.length,
        info: { page: info.page, pages: info.pages, total: info.total, from: info.from, to: info.to },
      }).toEqual({
        q,
        page,
        rows: perPage[page - 1],
        info: { page, pages, total: n, from, to },
      });
      expect(showingText(info, noun)).toBe(`Showing ${from} to ${to} of ${n}${noun ? ` ${noun}` : ""}`);
      seen.push(...rows.map((r) => r.id));
    }
    expect(new Set(seen).size).toBe(n);
    // A page past the end reads no rows, and is a 404 on the page that lists.
    const past = await list(q, pages + 1);
    expect(past).toEqual({ rows: [], total: n });
    expect(() => pageInfoOf({ page: pages + 1, pageSize: ADMIN_PAGE.pageSize }, past.total)).toThrow(Response);
  }
}

/** A list query as the URL gives it: the defaults, with `over` applied. */
const listQuery = (over: Partial<AdminListQuery> = {}): AdminListQuery => ({ ...parseAdminListQuery(new URL(`${ORIGIN}/admin`)), ...over });
const BASE_QUERY = listQuery();

describe("search and pagination", () => {
  it("categories: title and description, case-insensitive", async () => {
    // 25 'Quokka' (13 by title, 12 by description only), 11 'Wombat', 10 'Dingo'.
    for (let i = 0; i < 25; i++)
      await (i < 13 ? insertCategory(`Quokka Range ${i}`) : insertCategory(`Marsupial ${i}`, `Lounge chairs, the qUOKKa collection ${i}`));
    for (let i = 0; i < 11; i++) await insertCategory(`Wombat Shelf ${i}`);
    for (let i = 0; i < 10; i++) await insertCategory(`Dingo Desk ${i}`);
    await checkBoundaries((q, page) => listCategoriesPage({ q }, adminWindow(page)), {
      0: "Platypus",
      10: "dINGO",
      11: "WOMBAT shelf",
      25: "quokka",
    });
    const all = await listCategoriesPage({ q: "" }, adminWindow(1));
    expect(all.total).toBe(await count("categories"));
  });

  it("products: title and description, case-insensitive, with the category filter", async () => {
    const a = await insertCategory("Filter A");
    const b = await insertCategory("Filter B");
    for (let i = 0; i < 25; i++)
      await insertItem(i % 2 ? `Kookaburra Chair ${i}` : `Plain Chair ${i}`, i < 15 ? a : b, {
        description: i % 2 ? "Plain." : "Carved with a KOOKABURRA motif.",
      });
    for (let i = 0; i < 11; i++) await insertItem(`Echidna Stool ${i}`, a);
    for (let i = 0; i < 10; i++) await insertItem(`Bilby Bench ${i}`, b);
    await checkBoundaries((q, page) => listProductsPage({ ...BASE_QUERY, q }, adminWindow(page)), {
      0: "Platypus",
      10: "bilby",
      11: "ECHIDNA",
      25: "kookaburra",
    });
    const inA = await listProductsPage({ ...BASE_QUERY, q: "kookaburra", category: a }, adminWindow(1));
    expect(inA.total).toBe(15);
    expect(inA.rows.every((r) => r.categoryId === a && r.categoryTitle === "Filter A")).toBe(true);
    expect((await listProductsPage({ ...BASE_QUERY, q: "kookaburra", category: b }, adminWindow(1))).total).toBe(10);
    expect((await listProductsPage({ ...BASE_QUERY, q: "echidna", category: b }, adminWindow(1))).total).toBe(0);
    expect((await listProductsPage({ ...BASE_QUERY, category: a }, adminWindow(1))).total).toBe(15 + 11);
    expect((await listProductsPage(BASE_QUERY, adminWindow(1))).total).toBe(await count("items"));
  });

  it("users: name, email or mobile, case-insensitive; pending sign-ups are not listed", async () => {
    // 25 'numbat': 12 by name, 13 by email only. 10 by mobile only ('81111…'), 11 'Quoll'.
    for (let i = 0; i < 25; i++) {
      if (i < 12) await insertUser(`Numbat Person ${i}`);
      else await insertUser(`Person ${i}`, { email: `numbat.fan${i}-${uid()}@example.com` });
    }
    for (let i = 0; i < 5; i++) await insertUser(`Mobile Person ${i}`, { mobile: `7000077${String(i).padStart(3, "0")}` });
    await insertUser("Numbat Unverified", { verified: false });
    for (let i = 0; i < 11; i++) await insertUser(`Quoll ${i}`);
    for (let i = 0; i < 10; i++) await insertUser(`Person ${i}`, { mobile: `81111${String(i).padStart(5, "0")}` });
    await checkBoundaries((q, page) => listUsersPage({ q }, adminWindow(page)), { 0: "Platypus", 10: "81111", 11: "qUOLL", 25: "numbat" });
    expect((await listUsersPage({ q: "NUMBAT.FAN" }, adminWindow(1))).total).toBe(13);
    const byMobile = await listUsersPage({ q: "7000077" }, adminWindow(1));
    expect(byMobile.rows.every((r) => r.mobile?.startsWith("7000077"))).toBe(true);
    expect(byMobile.total).toBe(5);
    expect((await listUsersPage({ q: "" }, adminWindow(1))).total).toBe(
      toCount(
        (
          await db
            .selectFrom("users")
            .select((eb) => eb.fn.countAll().as("n"))
            .where("emailVerifiedAt", "is not", null)
            .executeTakeFirstOrThrow()
        ).n,
      ),
    );
  });

  it("orders: id (with or without '#') and shipping name, with the status filter", async () => {
    const owner = await insertUser("Order Owner");
    const statuses: Status[] = ["processing", "shipped", "delivered", "cancelled"];
    const ids: number[] = [];
    for (let i = 0; i < 25; i++) ids.push(await insertOrder(owner, { shipName: `Rosella Hart ${i}`, status: statuses[i % 4] }));
    for (let i = 0; i < 11; i++) await insertOrder(owner, { shipName: `Galah Singh ${i}` });
    for (let i = 0; i < 10; i++) await insertOrder(owner, { shipName: `Emu Rao ${i}` });
    await checkBoundaries(
      (q, page) => listOrdersPage({ ...BASE_QUERY, q }, adminWindow(page)),
      { 0: "Platypus", 10: "emu rao", 11: "GALAH", 25: "rosella" },
      "orders",
    );

    // Statuses go round: 7 processing (0, 4 … 24), 6 each of shipped, delivered, cancelled.
    for (const [status, n] of [
      ["processing", 7],
      ["shipped", 6],
      ["delivered", 6],
      ["cancelled", 6],
    ] as const) {
      const filtered = await listOrdersPage({ ...BASE_QUERY, q: "ROSELLA", status }, adminWindow(1));
      expect({ status, total: filtered.total }).toEqual({ status, total: n });
      expect(filtered.rows.every((r) => r.status === status && r.customer.startsWith("Rosella"))).toBe(true);
    }
    const shipped = await listOrdersPage({ ...BASE_QUERY, status: "shipped" }, adminWindow(1));
    expect(shipped.rows.every((r) => r.status === "shipped")).toBe(true);
    expect(shipped.total).toBe((await orderStatusCounts()).shipped);

    const target = ids[7]!;
    for (const q of [String(target), `#${target}`, ` #${target} `]) {
      const found = await listOrdersPage({ ...BASE_QUERY, q: q.trim() }, adminWindow(1));
      expect(found.rows.map((r) => r.id)).toContain(target);
      // Every hit has the digits in its number or its shipping name.
      expect(found.rows.every((r) => String(r.id).includes(String(target)) || r.customer.includes(String(target)))).toBe(true);
    }
    const row = (await listOrdersPage({ ...BASE_QUERY, q: `#${target}` }, adminWindow(1))).rows.find((r) => r.id === target)!;
    expect(row).toMatchObject({ id: target, customer: "Rosella Hart 7", status: "cancelled", total: 1000, itemCount: 0 });
    // Newest first.
    const page1 = await listOrdersPage({ ...BASE_QUERY, q: "rosella" }, adminWindow(1));
    const dates = page1.rows.map((r) => `${r.createdAt}|${String(r.id).padStart(9, "0")}`);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it("'%' and '_' in a search are matched literally", async () => {
    await insertCategory("Flat 50% Off", "Sale corner");
    await insertCategory("Snake_Case Shelf", "Odd names");
    const owner = await insertUser("Under_Score Person", { email: `under_score-${uid()}@example.com` });
    await insertUser("Percent 100% Person");
    const cat = await insertCategory("Literal Items");
    await insertItem("Half 50% Table", cat);
    await insertItem("Under_Line Lamp", cat);
    await insertOrder(owner, { shipName: "Ms 100% Sure" });
    await insertOrder(owner, { shipName: "Mr Under_Score" });

    const categories = await db.selectFrom("categories").select(["title", "description"]).execute();
    const items = await db.selectFrom("items").select(["title", "description"]).execute();
    const users = await db.selectFrom("users").select(["name", "email", "mobile"]).where("emailVerifiedAt", "is not", null).execute();
    const orders = await db.selectFrom("orders").select(["shipName", "id"]).execute();
    for (const ch of ["%", "_", "50%", "e_s"]) {
      const has = (...values: (string | null)[]) => values.some((v) => (v ?? "").toLowerCase().includes(ch.toLowerCase()));
      const expectations = [
        [(await listCategoriesPage({ q: ch }, adminWindow(1))).total, categories.filter((c) => has(c.title, c.description)).length],
        [(await listProductsPage({ ...BASE_QUERY, q: ch }, adminWindow(1))).total, items.filter((c) => has(c.title, c.description)).length],
        [(await listUsersPage({ q: ch }, adminWindow(1))).total, users.filter((u) => has(u.name, u.email, u.mobile)).length],
        [
          (await listOrdersPage({ ...BASE_QUERY, q: ch }, adminWindow(1))).total,
          orders.filter((o) => has(o.shipName, String(o.id))).length,
        ],
      ];
      for (const [got, want] of expectations) expect({ ch, got }).toEqual({ ch, got: want });
    }
    expect((await listCategoriesPage({ q: "%" }, adminWindow(1))).total).toBeGreaterThanOrEqual(1);
    expect((await listCategoriesPage({ q: "%" }, adminWindow(1))).total).toBeLessThan(await count("categories"));
    expect((await listOrdersPage({ ...BASE_QUERY, q: "_" }, adminWindow(1))).rows.map((r) => r.customer)).toEqual(["Mr Under_Score"]);
  });

  it("the list loaders read the URL state (a junk filter falls back to its default; a page that is not one is a 404)", async () => {
    const answer = await call(categoriesPage.loader, getRequest("/admin/categories?q=quokka&page=3", { Cookie: adminCookie }));
    expect(answer.status).toBe(200);
    const body = asRecord(answer.body);
    expect(body.q).toBe("quokka");
    expect(body.error).toBeNull();
    expect(asRecord(asRecord(body.list).info)).toMatchObject({ page: 3, pages: 3, total: 25, from: 21, to: 25 });
    const junk = asRecord((await call(productsPage.loader, getRequest("/admin/products?category=xyz", { Cookie: adminCookie }))).body);
    expect(junk.category).toBe("all");
    expect(asRecord(asRecord(junk.list).info).page).toBe(1);
    for (const page of ["abc", "0", "4"])
      expect(
        (await call(categoriesPage.loader, getRequest(`/admin/categories?q=quokka&page=${page}`, { Cookie: adminCookie }))).status,
      ).toBe(404);
    const orders = asRecord(
      (
        await call(
          (await import("~/routes/admin.orders")).loader,
          getRequest("/admin/orders?status=shipped&q=%23", { Cookie: adminCookie }),
        )
      ).body,
    );
    expect(orders.status).toBe("shipped");
    expect(asRecord(asRecord(orders.list).counts).total).toBe(await count("orders"));
  });
});

// ---- audit log ---------------------------------------------------------------------------

describe("audit log", () => {
  it("create, edit and delete of a category, a product and a user each write a row with entity, id and a summary", async () => {
    const tag = uid();
    const expectAudit = async (action: string, entity: string, entityId: number, summary: RegExp) => {
      const row = await latestAuditRow();
      expect(row).toMatchObject({ action, entity, entityId: String(entityId) });
      expect(row!.summary).toMatch(summary);
      expect(Date.parse(row!.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    };

    expectRedirect(
      await adminPost(categoriesPage.action, "/admin/categories", { intent: "create", ...CATEGORY_FIELDS, title: `Audit Cat ${tag}` }),
      "/admin/categories",
    );
    const cat = (await getCategoryBySlug(`audit-cat-${tag}`))!;
    await expectAudit("create", "category", cat.id, new RegExp(`Created category "Audit Cat ${tag}"`));
    expectRedirect(
      await adminPost(categoriesPage.action, "/admin/categories", {
        intent: "update",
        id: String(cat.id),
        ...CATEGORY_FIELDS,
        title: `Audit Cat ${tag} Two`,
      }),
      "/admin/categories",
    );
    await expectAudit("update", "category", cat.id, /Edited category .*title.*changed/);

    expectRedirect(
      await adminPost(productsPage.action, "/admin/products", [
        ["intent", "create"],
        ...productFields({ title: `Audit Prod ${tag}`, categoryId: String(cat.id) }),
      ]),
      "/admin/products",
    );
    const prod = (await getItemBySlug(`audit-prod-${tag}`))!;
    await expectAudit("create", "product", prod.id, new RegExp(`Created product "Audit Prod ${tag}"`));
    expectRedirect(
      await adminPost(productsPage.action, "/admin/products", [
        ["intent", "update"],
        ["id", String(prod.id)],
        ["version", await versionOf(prod.id)],
        ...productFields({ title: `Audit Prod ${tag}`, categoryId: String(cat.id), price: "1" }),
      ]),
      "/admin/products",
    );
    await expectAudit("update", "product", prod.id, /Edited product .*price changed/);
    expectRedirect(await adminPost(productsPage.action, "/admin/products", { intent: "delete", id: String(prod.id) }), "/admin/products");
    await expectAudit("delete", "product", prod.id, new RegExp(`Deleted product "Audit Prod ${tag}"`));
    expectRedirect(
      await adminPost(categoriesPage.action, "/admin/categories", { intent: "delete", id: String(cat.id) }),
      "/admin/categories",
    );
    await expectAudit("delete", "category", cat.id, new RegExp(`Deleted category "Audit Cat ${tag} Two"`));

    const email = `audit-${tag}@example.com`;
    expectRedirect(
      await adminPost(usersPage.action, "/admin/users", { intent: "create", name: "Audit User", email, mobile: "" }),
      "/admin/users",
    );
    const user = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow();
    await expectAudit("create", "user", user.id, new RegExp(`Created user Audit User <${email}>`));
    expectRedirect(
      await adminPost(usersPage.action, "/admin/users", {
        intent: "update",
        id: String(user.id),
        name: "Audit User Renamed",
        email,
        mobile: "",
      }),
      "/admin/users",
    );
    await expectAudit("update", "user", user.id, /Edited user Audit User Renamed.*name changed/);
    expectRedirect(await adminPost(usersPage.action, "/admin/users", { intent: "delete", id: String(user.id) }), "/admin/users");
    await expectAudit("delete", "user", user.id, /Deleted user Audit User Renamed/);

    // A refused change writes no row.
    const before = await count("auditLog");
    failure(await adminPost(usersPage.action, "/admin/users", { intent: "create", name: "", email: "", mobile: "" }), 400);
    expect(await count("auditLog")).toBe(before);
  });

  it("an admin status change writes a row, from the order page and from PUT /api/orders/changeStatus", async () => {
    const customer = await newCustomer("admin-audit-status");
    const item = await createTestItem(`audit-status-${uid()}`, { price: 1200, stock: 20 });
    const order = await placeOrder(customer, item);
    expectRedirect(
      await adminPost(
        orderPage.action,
        `/admin/orders/${order.id}`,
        { intent: "status", status: "shipped" },
        { orderId: String(order.id) },
      ),
      `/admin/orders/${order.id}`,
    );
    expect(await latestAuditRow()).toMatchObject({
      action: "status",
      entity: "order",
      entityId: String(order.id),
      summary: `Order #${order.id}: processing → shipped`,
    });

    const api = await call(
      changeStatus.action,
      jsonRequest("PUT", "/api/orders/changeStatus", { orderId: order.id, status: "delivered" }, { Cookie: adminCookie }),
    );
    expect(api.status).toBe(200);
    expect(api.body).toEqual({ success: true });
    expect(await latestAuditRow()).toMatchObject({
      action: "status",
      entity: "order",
      entityId: String(order.id),
      summary: `Order #${order.id}: shipped → delivered`,
    });
    expect((await eventsOf(order.id)).slice(1)).toEqual([
      { fromStatus: "processing", toStatus: "shipped", actor: "admin", actorUserId: null },
      { fromStatus: "shipped", toStatus: "delivered", actor: "admin", actorUserId: null },
    ]);

    // A customer's own cancellation is not an admin change: no audit row.
    const other = await placeOrder(customer, item);
    const before = await count("auditLog");
    const cancelled = await call(
      changeStatus.action,
      jsonRequest("PUT", "/api/orders/changeStatus", { orderId: other.id, status: "cancelled" }, customer.auth),
    );
    expect(cancelled.status).toBe(200);
    expect(await count("auditLog")).toBe(before);
  });

  it("the dashboard loader returns the latest 10, newest first", async () => {
    expect(await count("auditLog")).toBeGreaterThan(10);
    const answer = await call(dashboard.loader, getRequest("/admin", { Cookie: adminCookie }));
    expect(answer.status).toBe(200);
    const audit = asRecord(answer.body).audit as { id: number }[];
    expect(audit).toHaveLength(10);
    const newest = await db.selectFrom("auditLog").selectAll().orderBy("id", "desc").limit(10).execute();
    expect(audit).toEqual(newest);
  });
});

// ---- dashboard ---------------------------------------------------------------------------

describe("dashboard figures", () => {
  it("percentChange", () => {
    expect(percentChange(5, 0)).toBeNull();
    expect(percentChange(0, 0)).toBeNull();
    expect(percentChange(3, 2)).toBe(50);
    expect(percentChange(1, 3)).toBe(-66.7);
    expect(percentChange(0, 4)).toBe(-100);
    expect(percentChange(4, 4)).toBe(0);
  });

  it("stat cards from the database, the change against the 30 days before, status counts, the 5 newest orders", async () => {
    // A 'now' far ahead, so that only the rows made here fall into its two windows.
    const now = new Date("2100-03-01T00:00:00.000Z");
    const DAY = 24 * 60 * 60 * 1000;
    const at = (days: number) => new Date(now.getTime() - days * DAY).toISOString();
    const owner = await insertUser("Dashboard Owner");
    // Recent 30 days: revenue 3000 + 2000 + 100 (5000 cancelled does not count), 4 orders.
    const o1 = await insertOrder(owner, { shipName: "Dash One", status: "processing", total: 3000, createdAt: at(1) });
    const o2 = await insertOrder(owner, { shipName: "Dash Two", status: "delivered", total: 2000, createdAt: at(2) });
    const o3 = await insertOrder(owner, { shipName: "Dash Three", status: "cancelled", total: 5000, createdAt: at(3) });
    const o4 = await insertOrder(owner, { shipName: "Dash Edge", status: "shipped", total: 100, createdAt: at(30) });
    // The 30 days before: revenue 4000 (1000 cancelled), 2 orders.
    const o5 = await insertOrder(owner, { shipName: "Dash Before", status: "shipped", total: 4000, createdAt: at(31) });
    await insertOrder(owner, { shipName: "Dash Before Cancelled", status: "cancelled", total: 1000, createdAt: at(59) });
    // Older than both windows: in the totals only.
    await insertOrder(owner, { shipName: "Dash Old", status: "delivered", total: 700, createdAt: at(61) });
    await db
      .insertInto("orderItems")
      .values([
        { orderId: o1, itemId: null, title: "Dash Chair", slug: "dash-chair", imgPath: "/x.svg", quantity: 2, unitPrice: 1000 },
        { orderId: o1, itemId: null, title: "Dash Table", slug: "dash-table", imgPath: "/x.svg", quantity: 3, unitPrice: 333 },
      ])
      .execute();
    // Products: 3 recent, 4 before. Customers: 2 recent (the unverified one does not count), none before.
    const cat = await insertCategory("Dashboard Products");
    for (const d of [1, 5, 29]) await insertItem(`Dash Product ${d}`, cat, { createdAt: at(d) });
    for (const d of [31, 40, 50, 59.9]) await insertItem(`Dash Old Product ${d}`, cat, { createdAt: at(d) });
    await insertUser("Dash Customer A", { createdAt: at(4) });
    await insertUser("Dash Customer B", { createdAt: at(10) });
    await insertUser("Dash Pending", { createdAt: at(11), verified: false });

    const stats = await dashboardStats(now);
    const orders = await db.selectFrom("orders").select(["status", "total"]).execute();
    const live = orders.filter((o) => o.status !== "cancelled");
    const revenue = live.reduce((sum, o) => sum + o.total, 0);
    const byKey = Object.fromEntries(stats.cards.map((c) => [c.key, c]));
    expect(stats.cards.map((c) => c.key)).toEqual(["revenue", "orders", "products", "customers"]);
    expect(byKey.revenue).toMatchObject({ label: "Total Revenue", value: revenue, recent: 5100, change: 27.5 });
    expect(byKey.orders).toMatchObject({ label: "Total Orders", value: orders.length, recent: 4, change: 100 });
    expect(byKey.products).toMatchObject({ label: "Total Products", value: await count("items"), recent: 3, change: -25 });
    const verified = toCount(
      (
        await db
          .selectFrom("users")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("emailVerifiedAt", "is not", null)
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(byKey.customers).toMatchObject({ label: "Total Customers", value: verified, recent: 2, change: null });

    const counts = { processing: 0, shipped: 0, delivered: 0, cancelled: 0 };
    for (const o of orders) counts[o.status]++;
    expect(stats.counts).toEqual({ ...counts, total: orders.length });
    expect(stats.quick).toMatchObject({
      averageOrderValue: Math.round(revenue / live.length),
      awaitingShipment: counts.processing,
      categories: await count("categories"),
    });
    expect(stats.recentOrders.map((r) => r.id)).toEqual([o1, o2, o3, o4, o5]);
    expect(stats.recentOrders[0]).toMatchObject({
      id: o1,
      customer: "Dash One",
      itemCount: 5,
      total: 3000,
      status: "processing",
      createdAt: at(1),
    });

    // Only rows in the 30 days before and none since: a change of -100%.
    const later = await dashboardStats(new Date(now.getTime() + 30 * DAY));
    expect(later.cards.find((c) => c.key === "customers")).toMatchObject({ recent: 0, change: -100 });
    // Nothing in either window: no change to show.
    const empty = await dashboardStats(new Date(now.getTime() + 200 * DAY));
    for (const card of empty.cards) expect(card).toMatchObject({ recent: 0, change: null });
  });

  it("the dashboard loader answers the same figures for today", async () => {
    const answer = await call(dashboard.loader, getRequest("/admin", { Cookie: adminCookie }));
    const stats = asRecord(asRecord(answer.body).stats);
    expect(stats.counts).toEqual(await orderStatusCounts());
    expect((stats.recentOrders as unknown[]).length).toBe(5);
  });
});

// ---- /api/user/list ----------------------------------------------------------------------

describe("GET /api/user/list", () => {
  it("403 JSON without the admin flag, whoever asks", async () => {
    const customer = await newCustomer("admin-userlist");
    const cookie = await customerSession(customer);
    const askers: Record<string, string>[] = [{}, { Cookie: cookie }, customer.auth, { ...customer.auth, Cookie: adminCookie }];
    for (const headers of askers) {
      const answer = await call(userList.loader, getRequest("/api/user/list", headers));
      expect(expectApiError(answer, 403).message).toBe(ADMIN_FORBIDDEN);
    }
  });

  it("with the flag: every account as User (id, name, email, mobile), never a password hash (paging: api-lists.test.ts)", async () => {
    const customer = await newCustomer("admin-userlist-ok");
    const answer = await call(userList.loader, getRequest("/api/user/list?pageSize=200", { Cookie: adminCookie }));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toContain("application/json");
    const users = answer.body as Record<string, unknown>[];
    expect(Array.isArray(users)).toBe(true);
    for (const u of users) expect(Object.keys(u).sort()).toEqual(["email", "id", "mobile", "name"]);
    expect(users).toContainEqual({ id: customer.user.id, name: customer.user.name, email: customer.email, mobile: null });
    const text = JSON.stringify(users);
    expect(text).not.toMatch(/password|scrypt|\$[0-9a-z]+\$/i);
    const verified = toCount(
      (
        await db
          .selectFrom("users")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("emailVerifiedAt", "is not", null)
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(verified).toBeLessThanOrEqual(200);
    expect(users).toHaveLength(verified);
    expect(answer.headers.get("X-Total-Count")).toBe(String(verified));
    expect(users.map((u) => u.id as number)).toEqual([...users.map((u) => u.id as number)].sort((x, y) => y - x));
  });
});

// ---- the admin order page ----------------------------------------------------------------

describe("the admin order page", () => {
  it("an order paid on the test gateway is shipped only when the shop confirms it (page and API); the list marks it", async () => {
    const customer = await newCustomer("admin-test-paid");
    const item = await createTestItem(`admin-test-paid-${uid()}`, { price: 3100, stock: 10 });
    await addToCart(customer, item, 1);
    const created = await call(createPaymentOrder.action, jsonRequest("POST", "/rzp/create-order", {}, customer.auth));
    const paymentOrderId = asRecord(created.body).id as string;
    const paid = offlinePayment(paymentOrderId);
    const proof = { razorpay_order_id: paymentOrderId, razorpay_payment_id: paid.paymentId, razorpay_signature: paid.signature };
    const placed = await placeViaApi(customer, checkoutFields({ paymentMethod: "online", ...proof }));
    expect(placed.status).toBe(201);
    const order = asRecord(placed.body) as unknown as Order;
    expect(order.testPayment).toBe(true);
    const params = { orderId: String(order.id) };
    const path = `/admin/orders/${order.id}`;

    const list = await listOrdersPage({ ...listQuery(), q: `#${order.id}` }, adminWindow(1));
    expect(list.rows.find((r) => r.id === order.id)).toMatchObject({ testPayment: true });

    const before = await writes();
    const page = failure(await adminPost(orderPage.action, path, { intent: "status", status: "shipped" }, params), 409);
    expect(page.formError).toBe(SHIP_UNPAID_REFUSED);
    expect(page.fieldErrors).toEqual({ shipUnpaid: SHIP_UNPAID_FIELD });
    const api = await call(
      changeStatus.action,
      jsonRequest("PUT", "/api/orders/changeStatus", { orderId: order.id, status: "shipped" }, { Cookie: adminCookie }),
    );
    expect(expectApiError(api, 409).message).toBe(SHIP_UNPAID_REFUSED);
    expect(await writes()).toEqual(before);

    expectRedirect(await adminPost(orderPage.action, path, { intent: "status", status: "shipped", shipUnpaid: "on" }, params), path);
    expect((await getOrder(order.id, { userId: null, isAdmin: true }))?.status).toBe("shipped");

    // Through the API, with shipUnpaid: true.
    await addToCart(customer, item, 1);
    const second = await call(createPaymentOrder.action, jsonRequest("POST", "/rzp/create-order", {}, customer.auth));
    const secondId = asRecord(second.body).id as string;
    const secondPaid = offlinePayment(secondId);
    const secondOrder = asRecord(
      (
        await placeViaApi(
          customer,
          checkoutFields({
            paymentMethod: "online",
            razorpay_order_id: secondId,
            razorpay_payment_id: secondPaid.paymentId,
            razorpay_signature: secondPaid.signature,
          }),
        )
      ).body,
    ).id as number;
    const shipped = await call(
      changeStatus.action,
      jsonRequest(
        "PUT",
        "/api/orders/changeStatus",
        { orderId: secondOrder, status: "shipped", shipUnpaid: true },
        { Cookie: adminCookie },
      ),
    );
    expect(shipped.status).toBe(200);
    // A cash-on-delivery order needs no confirmation.
    const cod = await placeOrder(customer, item, 1);
    const codRow = (await listOrdersPage({ ...listQuery(), q: `#${cod.id}` }, adminWindow(1))).rows.find((r) => r.id === cod.id);
    expect(codRow).toMatchObject({ testPayment: false });
    expectRedirect(
      await adminPost(orderPage.action, `/admin/orders/${cod.id}`, { intent: "status", status: "shipped" }, { orderId: String(cod.id) }),
      `/admin/orders/${cod.id}`,
    );
  });

  it("processing → shipped → delivered; an illegal change → 409 re-rendered; the customer sees it on /orders", async () => {
    const customer = await newCustomer("admin-order-page");
    const customerCookie = await customerSession(customer);
    const item = await createTestItem(`admin-order-page-${uid()}`, { price: 4200, stock: 10 });
    const order = await placeOrder(customer, item, 1);
    const params = { orderId: String(order.id) };
    const path = `/admin/orders/${order.id}`;

    const view = await call(orderPage.loader, getRequest(path, { Cookie: adminCookie }), params);
    expect(view.status).toBe(200);
    expect(asRecord(view.body)).toMatchObject({ order: { id: order.id, status: "processing" }, next: ["shipped", "cancelled"] });
    const missing = await call(orderPage.loader, getRequest("/admin/orders/999999", { Cookie: adminCookie }), { orderId: "999999" });
    expect(missing.status).toBe(404);

    const illegalEarly = failure(await adminPost(orderPage.action, path, { intent: "status", status: "delivered" }, params), 409);
    expect(illegalEarly.formError).toBe("An order cannot go from processing to delivered");

    expectRedirect(await adminPost(orderPage.action, path, { intent: "status", status: "shipped" }, params), path);
    expectRedirect(await adminPost(orderPage.action, path, { intent: "status", status: "delivered" }, params), path);

    const before = await writes();
    const illegal = failure(await adminPost(orderPage.action, path, { intent: "status", status: "cancelled" }, params), 409);
    expect(illegal.formError).toBe("This order is delivered; its status can no longer change");
    expect(
      failure(await adminPost(orderPage.action, path, { intent: "status", status: "lost" }, params), 400).fieldErrors.status,
    ).toBeTruthy();
    expect(failure(await adminPost(orderPage.action, path, { intent: "other", status: "shipped" }, params), 400).formError).toBe(
      "Unknown action",
    );
    expect(
      failure(
        await adminPost(orderPage.action, "/admin/orders/999999", { intent: "status", status: "shipped" }, { orderId: "999999" }),
        404,
      ).formError,
    ).toBe("Order Not Found");
    expect(await writes()).toEqual(before);

    const page = await call(customerOrders.loader, getRequest("/orders", { Cookie: customerCookie }));
    const mine = (asRecord(page.body).orders as Order[]).find((o) => o.id === order.id)!;
    expect(mine.status).toBe("delivered");
    expect((await listOrders({ userId: customer.user.id, isAdmin: false })).find((o) => o.id === order.id)?.status).toBe("delivered");
    expect(mine.events.map((e) => [e.from, e.status, e.actor])).toEqual([
      [null, "processing", "customer"],
      ["processing", "shipped", "admin"],
      ["shipped", "delivered", "admin"],
    ]);
    expect((await eventsOf(order.id)).filter((e) => e.actor === "admin").every((e) => e.actorUserId === null)).toBe(true);
  });
});
