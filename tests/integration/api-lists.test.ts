// Paged lists (docs/api.md, "Lists"): GET /api/orders and GET /api/user/list answer one page,
// newest first, with X-Total-Count and a Link to the next page; bad paging parameters are 400;
// more rows than SQLite takes as parameters in one statement still answer one page. The
// customer's /orders page pages too. Rows are written straight to the database, in bulk.
import crypto from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { db, nowIso, toCount } from "~/lib/db.server";
import { issueToken } from "~/lib/api-tokens.server";
import type { Order } from "~/models/orders/read.server";
import * as ordersList from "~/routes/api.orders";
import * as userList from "~/routes/api.user.list";
import * as ordersPage from "~/routes/orders";
import { grantAdmin } from "~/web/sign-in.server";
import { getRequest, mergeCookies, ORIGIN } from "../support/requests";
import type { Answer } from "../support/route-calls";
import { call, expectApiError } from "../support/route-calls";

/** SQLite's SQLITE_MAX_VARIABLE_NUMBER in the better-sqlite3 build (3.32 and later): 32,766. */
const SQLITE_MAX_PARAMETERS = 32_766;
/** Rows per bulk insert: well under the parameter limit at 19 columns a row. */
const CHUNK = 500;

let adminCookie = "";

beforeAll(async () => {
  await ready;
  adminCookie = mergeCookies([await grantAdmin(getRequest("/"))]);
});

// ---- bulk rows ---------------------------------------------------------------------------

interface TestUser {
  id: number;
  auth: { Authorization: string };
}

/** `n` verified accounts (no password: nothing to hash), newest last. */
async function bulkUsers(tag: string, n: number, verified = true): Promise<number[]> {
  const now = nowIso();
  const run = crypto.randomBytes(4).toString("hex");
  const ids: number[] = [];
  for (let start = 0; start < n; start += CHUNK) {
    const rows = Array.from({ length: Math.min(CHUNK, n - start) }, (_, i) => ({
      name: `Bulk ${tag} ${start + i}`,
      email: `bulk-${tag}-${run}-${start + i}@example.com`,
      mobile: null,
      passwordHash: null,
      emailVerifiedAt: verified ? now : null,
      createdAt: now,
      updatedAt: now,
    }));
    const inserted = await db.insertInto("users").values(rows).returning("id").execute();
    ids.push(...inserted.map((r) => r.id));
  }
  return ids.sort((a, b) => a - b);
}

async function customer(tag: string): Promise<TestUser> {
  const [id] = await bulkUsers(tag, 1);
  return { id: id!, auth: { Authorization: `Bearer ${await issueToken(id!)}` } };
}

/**
 * `n` orders of `userId`, the i-th placed at `start` + i minutes (`sameTimeAsPrevious` lists
 * the i whose time repeats the one before), each with one line titled after its order when
 * `lines` is set. Returns the ids in insertion order.
 */
async function bulkOrders(userId: number, n: number, options: { start?: Date; lines?: boolean; sameTimeAsPrevious?: number[] } = {}) {
  const start = (options.start ?? new Date("2026-01-01T00:00:00.000Z")).getTime();
  const repeat = new Set(options.sameTimeAsPrevious ?? []);
  let minute = 0;
  const times = Array.from({ length: n }, (_, i) => {
    if (i > 0 && !repeat.has(i)) minute += 1;
    return new Date(start + minute * 60_000).toISOString();
  });
  const ids: number[] = [];
  for (let from = 0; from < n; from += CHUNK) {
    const rows = times.slice(from, from + CHUNK).map((at) => ({
      userId,
      status: "processing" as const,
      paymentMethod: "cod" as const,
      paymentOrderId: null,
      paymentId: null,
      idempotencyKey: null,
      subtotal: 1000,
      shipping: 1,
      gst: 180,
      total: 1181,
      shipName: "Bulk Buyer",
      shipAddress: "1 Bulk Lane",
      shipCity: "Pune",
      shipState: "Maharashtra",
      shipPincode: "411001",
      shipPhone: "9876543210",
      shipEmail: "bulk@example.com",
      createdAt: at,
      updatedAt: at,
    }));
    const inserted = await db.insertInto("orders").values(rows).returning("id").execute();
    ids.push(...inserted.map((r) => r.id));
  }
  ids.sort((a, b) => a - b);
  if (options.lines) {
    await db
      .insertInto("orderItems")
      .values(
        ids.map((orderId) => ({
          orderId,
          itemId: null,
          title: `Line of #${orderId}`,
          slug: "bulk",
          imgPath: "/x.svg",
          quantity: 1,
          unitPrice: 1000,
        })),
      )
      .execute();
  }
  return ids;
}

// ---- calls -------------------------------------------------------------------------------

function ordersApi(search: string, headers: Record<string, string>) {
  return call(ordersList.loader, getRequest(`/api/orders${search}`, headers));
}

function usersApi(search: string, headers: Record<string, string> = { Cookie: adminCookie }) {
  return call(userList.loader, getRequest(`/api/user/list${search}`, headers));
}

/** A successful page: a JSON array, its total, and the next page's URL (null on the last page). */
function pageOf<T>(answer: Answer): { rows: T[]; total: number; next: string | null } {
  expect(answer.status).toBe(200);
  expect(answer.headers.get("Content-Type") ?? "").toContain("application/json");
  expect(Array.isArray(answer.body)).toBe(true);
  const total = answer.headers.get("X-Total-Count");
  expect(total).toMatch(/^\d+$/);
  const link = answer.headers.get("Link");
  let next: string | null = null;
  if (link !== null) {
    const match = /^<([^>]+)>; rel="next"$/.exec(link);
    expect(match, `Link header: ${link}`).not.toBeNull();
    next = match![1]!;
  }
  return { rows: answer.body as T[], total: Number(total), next };
}

const ids = (rows: { id: number }[]) => rows.map((r) => r.id);

/** Every order id, as GET /api/orders orders them: newest first, then the higher id. */
async function allOrderIdsNewestFirst(userId?: number): Promise<number[]> {
  let query = db.selectFrom("orders").select("id").orderBy("createdAt", "desc").orderBy("id", "desc");
  if (userId !== undefined) query = query.where("userId", "=", userId);
  return ids(await query.execute());
}

async function verifiedUserIdsNewestFirst(): Promise<number[]> {
  return ids(await db.selectFrom("users").select("id").where("emailVerifiedAt", "is not", null).orderBy("id", "desc").execute());
}

const BAD_PAGING: [string, "page" | "pageSize"][] = [
  ["?page=0", "page"],
  ["?page=-1", "page"],
  ["?page=abc", "page"],
  ["?page=1.5", "page"],
  ["?page=", "page"],
  ["?page=1e3", "page"],
  ["?page=%201", "page"],
  ["?page=1&page=2", "page"],
  ["?page=1&page=1", "page"],
  ["?pageSize=0", "pageSize"],
  ["?pageSize=-5", "pageSize"],
  ["?pageSize=ten", "pageSize"],
  ["?pageSize=2.5", "pageSize"],
  ["?pageSize=201", "pageSize"],
  ["?pageSize=100000000000000000000", "pageSize"],
  ["?pageSize=10&pageSize=20", "pageSize"],
];

// ---- GET /api/orders ---------------------------------------------------------------------

describe("GET /api/orders pages", () => {
  let alice: TestUser;
  let bob: TestUser;
  let aliceIds: number[] = [];

  beforeAll(async () => {
    alice = await customer("alice");
    bob = await customer("bob");
    // Seven orders; the 4th shares the 3rd's time, so the id decides between them.
    await bulkOrders(alice.id, 7, { lines: true, sameTimeAsPrevious: [3] });
    await bulkOrders(bob.id, 3, { lines: true, start: new Date("2026-02-01T00:00:00.000Z") });
    aliceIds = await allOrderIdsNewestFirst(alice.id);
    expect(aliceIds).toHaveLength(7);
  });

  it("a customer walks their own orders a page at a time: first, middle, last, past the last", async () => {
    const first = pageOf<Order>(await ordersApi("?pageSize=3", alice.auth));
    expect(ids(first.rows)).toEqual(aliceIds.slice(0, 3));
    expect(first.total).toBe(7);
    expect(first.next).toBe(`${ORIGIN}/api/orders?pageSize=3&page=2`);

    const middle = pageOf<Order>(await ordersApi("?page=2&pageSize=3", alice.auth));
    expect(ids(middle.rows)).toEqual(aliceIds.slice(3, 6));
    expect(middle.total).toBe(7);
    expect(middle.next).toBe(`${ORIGIN}/api/orders?page=3&pageSize=3`);

    const last = pageOf<Order>(await ordersApi("?page=3&pageSize=3", alice.auth));
    expect(ids(last.rows)).toEqual(aliceIds.slice(6));
    expect(last.total).toBe(7);
    expect(last.next).toBeNull();

    const past = pageOf<Order>(await ordersApi("?page=4&pageSize=3", alice.auth));
    expect(past.rows).toEqual([]);
    expect(past.total).toBe(7);
    expect(past.next).toBeNull();

    const far = pageOf<Order>(await ordersApi("?page=999999999999", alice.auth));
    expect(far.rows).toEqual([]);
    expect(far.total).toBe(7);

    // Every order is the caller's, and carries its own lines (and only those).
    for (const order of [...first.rows, ...middle.rows, ...last.rows]) {
      expect(order.userId).toBe(alice.id);
      expect(order.items.map((l) => l.title)).toEqual([`Line of #${order.id}`]);
      expect(order.events).toEqual([]);
    }
  });

  it("the default page is the first 50; a page that holds the rest has no Link; pageSize 200 is allowed", async () => {
    const all = pageOf<Order>(await ordersApi("", alice.auth));
    expect(ids(all.rows)).toEqual(aliceIds);
    expect(all.total).toBe(7);
    expect(all.next).toBeNull();
    expect(ids(pageOf<Order>(await ordersApi("?page=1&pageSize=200", alice.auth)).rows)).toEqual(aliceIds);
    expect(ids(pageOf<Order>(await ordersApi("?pageSize=7", alice.auth)).rows)).toEqual(aliceIds);
    expect(pageOf<Order>(await ordersApi("?pageSize=7", alice.auth)).next).toBeNull();
  });

  it("another customer's orders never show, on any page", async () => {
    const page = pageOf<Order>(await ordersApi("?pageSize=2", bob.auth));
    expect(page.total).toBe(3);
    expect(page.rows.every((o) => o.userId === bob.id)).toBe(true);
    const second = pageOf<Order>(await ordersApi(`?page=2&pageSize=2`, bob.auth));
    expect(second.rows).toHaveLength(1);
    expect(second.next).toBeNull();
    const seen = [...ids(page.rows), ...ids(second.rows)];
    expect(seen).toEqual(await allOrderIdsNewestFirst(bob.id));
    expect(seen.some((id) => aliceIds.includes(id))).toBe(false);
  });

  it("the admin pages through every order; the Link keeps the other parameters", async () => {
    const expected = await allOrderIdsNewestFirst();
    const first = pageOf<Order>(await ordersApi("?pageSize=4&page=1", { Cookie: adminCookie }));
    expect(first.total).toBe(expected.length);
    expect(ids(first.rows)).toEqual(expected.slice(0, 4));
    expect(first.next).toBe(`${ORIGIN}/api/orders?pageSize=4&page=2`);
    const walked: number[] = [];
    let next: string | null = `${ORIGIN}/api/orders?pageSize=4`;
    while (next) {
      const page: { rows: Order[]; next: string | null } = pageOf<Order>(await ordersApi(new URL(next).search, { Cookie: adminCookie }));
      expect(page.rows.length).toBeLessThanOrEqual(4);
      walked.push(...ids(page.rows));
      next = page.next;
    }
    expect(walked).toEqual(expected);
  });

  it.each(BAD_PAGING)("400 for %s, in the error shape, naming the parameter", async (search, field) => {
    const error = expectApiError(await ordersApi(search, alice.auth), 400);
    expect(Object.keys(error.errors ?? {})).toContain(field);
    expect(error.message).toBe(error.errors![field]);
  });

  it("asks who is calling before it reads the paging: 401 without a sign-in, even with a bad page", async () => {
    expectApiError(await ordersApi("?page=0", {}), 401);
    expectApiError(await ordersApi("", {}), 401);
  });
});

// ---- GET /api/user/list ------------------------------------------------------------------

describe("GET /api/user/list pages", () => {
  beforeAll(async () => {
    await bulkUsers("list", 9);
    await bulkUsers("waiting", 3, false);
  });

  it("the admin walks every verified account a page at a time, newest first", async () => {
    const expected = await verifiedUserIdsNewestFirst();
    const first = pageOf<{ id: number }>(await usersApi("?pageSize=4"));
    expect(first.total).toBe(expected.length);
    expect(ids(first.rows)).toEqual(expected.slice(0, 4));
    expect(first.next).toBe(`${ORIGIN}/api/user/list?pageSize=4&page=2`);
    for (const u of first.rows) expect(Object.keys(u).sort()).toEqual(["email", "id", "mobile", "name"]);

    const middle = pageOf<{ id: number }>(await usersApi("?page=2&pageSize=4"));
    expect(ids(middle.rows)).toEqual(expected.slice(4, 8));

    const lastPage = Math.ceil(expected.length / 4);
    const last = pageOf<{ id: number }>(await usersApi(`?page=${lastPage}&pageSize=4`));
    expect(ids(last.rows)).toEqual(expected.slice((lastPage - 1) * 4));
    expect(last.next).toBeNull();

    const past = pageOf<{ id: number }>(await usersApi(`?page=${lastPage + 1}&pageSize=4`));
    expect(past.rows).toEqual([]);
    expect(past.total).toBe(expected.length);
    expect(past.next).toBeNull();

    const whole = pageOf<{ id: number }>(await usersApi(""));
    expect(ids(whole.rows)).toEqual(expected.slice(0, 50));
  });

  it.each(BAD_PAGING)("400 for %s", async (search, field) => {
    const error = expectApiError(await usersApi(search), 400);
    expect(Object.keys(error.errors ?? {})).toContain(field);
  });

  it("a customer's token or session is still 403, paging or not", async () => {
    const someone = await customer("not-admin");
    for (const search of ["", "?page=2", "?page=0"]) {
      expect(expectApiError(await usersApi(search, someone.auth), 403).message).toBe("Admin access required");
      expect(expectApiError(await usersApi(search, {}), 403).message).toBe("Admin access required");
    }
  });
});

// ---- the customer's /orders page -----------------------------------------------------------

describe("the /orders page", () => {
  it("shows ten orders a page, newest first; a page past the end, or not a page number, is a 404", async () => {
    const carol = await customer("carol");
    await bulkOrders(carol.id, 12, { lines: true, start: new Date("2026-03-01T00:00:00.000Z") });
    const expected = await allOrderIdsNewestFirst(carol.id);
    const load = async (search: string) => {
      const answer = await call(ordersPage.loader, getRequest(`/orders${search}`, carol.auth));
      expect(answer.status).toBe(200);
      return answer.body as { orders: Order[]; info: { page: number; pages: number; total: number } };
    };
    const first = await load("");
    expect(ids(first.orders)).toEqual(expected.slice(0, 10));
    expect(first.info).toMatchObject({ page: 1, pages: 2, total: 12 });
    const second = await load("?page=2");
    expect(ids(second.orders)).toEqual(expected.slice(10));
    for (const page of ["3", "9", "abc", "0"])
      expect((await call(ordersPage.loader, getRequest(`/orders?page=${page}`, carol.auth))).status, page).toBe(404);
  });
});

// ---- more rows than one statement takes as parameters ----------------------------------------

describe("lists longer than SQLite's parameter limit", () => {
  it("GET /api/orders for the admin answers one page (the old IN over every id broke here)", async () => {
    const buyer = await customer("bulk-buyer");
    await bulkOrders(buyer.id, SQLITE_MAX_PARAMETERS + 100, { start: new Date("2025-01-01T00:00:00.000Z") });
    const total = toCount(
      (
        await db
          .selectFrom("orders")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(total).toBeGreaterThan(SQLITE_MAX_PARAMETERS);

    const page = pageOf<Order>(await ordersApi("", { Cookie: adminCookie }));
    expect(page.rows).toHaveLength(50);
    expect(page.total).toBe(total);
    expect(page.next).toBe(`${ORIGIN}/api/orders?page=2`);
    expect(ids(page.rows)).toEqual((await allOrderIdsNewestFirst()).slice(0, 50));

    const own = pageOf<Order>(await ordersApi("?page=3&pageSize=200", buyer.auth));
    expect(own.rows).toHaveLength(200);
    expect(own.total).toBe(SQLITE_MAX_PARAMETERS + 100);
  }, 120_000);

  it("GET /api/user/list answers one page of many thousands of accounts", async () => {
    await bulkUsers("many", SQLITE_MAX_PARAMETERS + 100);
    const expected = await verifiedUserIdsNewestFirst();
    const page = pageOf<{ id: number }>(await usersApi("?pageSize=200&page=2"));
    expect(page.rows).toHaveLength(200);
    expect(page.total).toBe(expected.length);
    expect(ids(page.rows)).toEqual(expected.slice(200, 400));
    expect(page.next).toBe(`${ORIGIN}/api/user/list?pageSize=200&page=3`);
  }, 120_000);
});
