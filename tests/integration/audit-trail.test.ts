// The audit trail as owners read it: the reader's filters (person, including the built-in owner
// and the shop, object, India's days at their edges), its pages, the CSV export of the same rows
// (escaped against spreadsheet formulas, read a batch at a time), who may open /admin/audit and
// its export, an order's own history on its page, and that no app code edits or deletes the log.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ready } from "~/lib/boot.server";
import { db, nowIso } from "~/lib/db.server";
import type { AuditEntry } from "~/models/audit.server";
import { recordAudit } from "~/models/audit.server";
import { AUDIT_CSV_COLUMNS, auditCsvStream } from "~/models/audit-csv.server";
import type { AuditFilters } from "~/models/audit-read.server";
import { auditPeople, listAuditPage, NO_AUDIT_FILTERS, orderHistory, parseAuditFilters } from "~/models/audit-read.server";
import type { Actor } from "~/models/staff/staff.server";
import { actorOf, BUILTIN_OWNER, findStaff, SYSTEM_ACTOR } from "~/models/staff/staff.server";
import * as auditCsv from "~/routes/admin.audit_.export[.csv]";
import * as auditPage from "~/routes/admin.audit";
import * as orderPage from "~/routes/admin.orders_.$orderId";
import { PERMISSION_REFUSED } from "~/utils/staff-permissions";
import { grantAdmin } from "~/web/sign-in.server";
import { adminWindow } from "../support/paging";
import { addToCart, checkoutFields, itemMaker, newCustomer, placeViaApi } from "../support/orders";
import { getRequest, mergeCookies } from "../support/requests";
import { asRecord, call } from "../support/route-calls";
import type { TestStaff } from "../support/staff";
import { createStaff, signedInStaff } from "../support/staff";

const ROOT = path.resolve(__dirname, "../..");

// Every row this file writes to the reader lies in 2031 (India's days 10 to 14 November), apart
// from anything else the database holds: the filters below always name those days.
const DAYS = { from: "2031-11-10", to: "2031-11-14" };

let manager: TestStaff;
let fulfilment: TestStaff;
let managerActor: Actor;
let fulfilmentActor: Actor;
let ownerCookie = "";
let builtinCookie = "";
/** The rows written, by name. */
const rows: Record<string, number> = {};

async function writeAt(at: string, name: string, entry: Parameters<typeof recordAudit>[1]) {
  vi.setSystemTime(new Date(at));
  await recordAudit(db, entry);
  rows[name] = (await db.selectFrom("auditLog").select("id").orderBy("id", "desc").executeTakeFirstOrThrow()).id;
}

const within = (f: Partial<AuditFilters>): AuditFilters => ({ ...NO_AUDIT_FILTERS, ...DAYS, ...f });

async function ids(filters: AuditFilters, page = 1): Promise<number[]> {
  return (await listAuditPage(filters, adminWindow(page))).rows.map((r) => r.id);
}

/** Every id the filters match, newest first, read past the pages. */
async function allIds(filters: AuditFilters): Promise<number[]> {
  return (await listAuditPage(filters, { offset: 0, limit: 10_000 })).rows.map((r) => r.id);
}

afterEach(() => {
  vi.useRealTimers();
});

beforeAll(async () => {
  await ready;
  manager = await createStaff("manager", { name: "Asha Rao" });
  fulfilment = await createStaff("fulfilment", { name: "Vikram Singh" });
  managerActor = actorOf((await findStaff(manager.id))!);
  fulfilmentActor = actorOf((await findStaff(fulfilment.id))!);
  ownerCookie = (await signedInStaff("owner")).cookie;
  builtinCookie = mergeCookies([await grantAdmin(getRequest("/"))]);

  vi.useFakeTimers({ toFake: ["Date"] });
  // India's 10 November ends at 18:29:59.999 UTC; its 11 November begins at 18:30 UTC.
  await writeAt("2031-11-10T18:29:59.999Z", "builtinLastOf10th", {
    action: "update",
    entity: "product",
    entityId: 501,
    summary: '=HYPERLINK("https://evil.example/","Click")',
    actor: BUILTIN_OWNER,
    details: { price: [4999, 5499] },
  });
  await writeAt("2031-11-10T18:30:00.000Z", "managerFirstOf11th", {
    action: "status",
    entity: "order",
    entityId: 9001,
    summary: "Order #9001: Processing → Shipped",
    actor: managerActor,
    details: { status: ["processing", "shipped"] },
  });
  await writeAt("2031-11-11T18:29:59.999Z", "systemLastOf11th", {
    action: "status",
    entity: "refund",
    entityId: 77,
    summary: "Refund 77 sent",
    actor: SYSTEM_ACTOR,
  });
  await writeAt("2031-11-11T18:30:00.000Z", "fulfilmentFirstOf12th", {
    action: "status",
    entity: "order",
    entityId: 9001,
    summary: "Order #9001: Shipped → Delivered",
    actor: fulfilmentActor,
    details: { status: ["shipped", "delivered"] },
  });
  // 23 more by the manager, a minute apart on the 13th: 24 of theirs, three pages of 10.
  for (let i = 0; i < 23; i++) {
    await writeAt(new Date(Date.parse("2031-11-13T04:00:00.000Z") + i * 60_000).toISOString(), `managerBulk${i}`, {
      action: "update",
      entity: "product",
      entityId: 600 + i,
      summary: `Product ${600 + i}: stock changed`,
      actor: managerActor,
      details: { stock: [i, i + 1] },
    });
  }
  vi.useRealTimers();
});

describe("the audit reader", () => {
  it("filters by a staff member: their rows only, newest first", async () => {
    const found = await allIds(within({ person: { staffId: manager.id } }));
    expect(found).toHaveLength(24);
    expect(found).toEqual([...found].sort((a, b) => b - a));
    expect(found.at(-1)).toBe(rows.managerFirstOf11th);
    expect(await allIds(within({ person: { staffId: fulfilment.id } }))).toEqual([rows.fulfilmentFirstOf12th]);
  });

  it("filters by the built-in owner and by the shop, though neither has a staff account", async () => {
    expect(await allIds(within({ person: { nonStaff: "builtin" } }))).toEqual([rows.builtinLastOf10th]);
    expect(await allIds(within({ person: { nonStaff: "system" } }))).toEqual([rows.systemLastOf11th]);
  });

  it("filters by object: a kind, and one object of it", async () => {
    expect(await allIds(within({ entity: "order", entityId: "9001" }))).toEqual([rows.fulfilmentFirstOf12th, rows.managerFirstOf11th]);
    expect(await allIds(within({ entity: "order", entityId: "9002" }))).toEqual([]);
    expect(await allIds(within({ entity: "refund" }))).toEqual([rows.systemLastOf11th]);
    expect(await allIds(within({ entity: "product" }))).toHaveLength(24);
    // Person and object together.
    expect(await allIds(within({ entity: "order", person: { staffId: manager.id } }))).toEqual([rows.managerFirstOf11th]);
  });

  it("filters by India's days, to the millisecond at both edges", async () => {
    const day11 = await allIds({ ...NO_AUDIT_FILTERS, from: "2031-11-11", to: "2031-11-11" });
    expect(day11).toEqual([rows.systemLastOf11th, rows.managerFirstOf11th]);
    expect(await allIds({ ...NO_AUDIT_FILTERS, from: "2031-11-10", to: "2031-11-10" })).toEqual([rows.builtinLastOf10th]);
    const from12th = await allIds({ ...NO_AUDIT_FILTERS, from: "2031-11-12" });
    expect(from12th).toContain(rows.fulfilmentFirstOf12th);
    expect(from12th).not.toContain(rows.systemLastOf11th);
    const to10th = await allIds({ ...NO_AUDIT_FILTERS, to: "2031-11-10" });
    expect(to10th).toContain(rows.builtinLastOf10th);
    expect(to10th).not.toContain(rows.managerFirstOf11th);
  });

  it("pages 10 at a time, and counts the whole filtered list", async () => {
    const filters = within({ person: { staffId: manager.id } });
    const all = await allIds(filters);
    const pages = [await ids(filters, 1), await ids(filters, 2), await ids(filters, 3)];
    expect(pages.map((p) => p.length)).toEqual([10, 10, 4]);
    expect(pages.flat()).toEqual(all);
    expect((await listAuditPage(filters, adminWindow(1))).total).toBe(24);
  });

  it("reads the filters from the URL; anything odd is no filter", () => {
    const url = (q: string) => new URL(`http://localhost/admin/audit?${q}`);
    expect(parseAuditFilters(url(`person=${manager.id}&entity=order&entityId=%2012%20&from=2031-11-10&to=2031-11-11`))).toEqual({
      person: { staffId: manager.id },
      entity: "order",
      entityId: "12",
      from: "2031-11-10",
      to: "2031-11-11",
    });
    expect(parseAuditFilters(url("person=builtin")).person).toEqual({ nonStaff: "builtin" });
    expect(parseAuditFilters(url("person=system")).person).toEqual({ nonStaff: "system" });
    expect(parseAuditFilters(url("person=-1&entity=users;drop&from=2031-02-30&to=tomorrow&entityId=7"))).toEqual(NO_AUDIT_FILTERS);
    expect(parseAuditFilters(url("person=99999999999")).person).toBeNull();
  });

  it("offers every staff account and the two actors without one", async () => {
    const people = await auditPeople();
    expect(people).toContainEqual({ value: String(manager.id), label: "Asha Rao (Manager)" });
    expect(people).toContainEqual({ value: String(fulfilment.id), label: "Vikram Singh (Fulfilment)" });
    expect(people.slice(-2)).toEqual([
      { value: "builtin", label: "Built-in owner" },
      { value: "system", label: "The shop" },
    ]);
  });
});

/** The CSV's records (header first) from a response or a stream. */
async function csvOf(body: Response | ReadableStream<Uint8Array>): Promise<string[][]> {
  const bytes = new Uint8Array(await new Response(body instanceof Response ? body.body : body).arrayBuffer());
  // A UTF-8 byte order mark first, so that Excel reads the names right.
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  return parse(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes.subarray(3)), { relax_column_count: false }) as string[][];
}

describe("the CSV export", () => {
  it("has every row the filters match (all pages), newest first, the same as the page lists them", async () => {
    const filters = within({ person: { staffId: manager.id } });
    const [header, ...records] = await csvOf(auditCsvStream(filters));
    expect(header).toEqual([...AUDIT_CSV_COLUMNS]);
    const listed = (await listAuditPage(filters, { offset: 0, limit: 100 })).rows;
    expect(records).toHaveLength(24);
    expect(records.map((r) => r[1])).toEqual(listed.map((r) => r.createdAt));
    expect(records.map((r) => r[7])).toEqual(listed.map((r) => r.summary));
    expect(records[0]![2]).toBe("Asha Rao (Manager)");
    expect(records[0]![3]).toBe(String(manager.id));
    expect(records[0]![8]).toBe("stock: 22 → 23");
    // India's time: 04:22 UTC is 9:52 am.
    expect(records[0]![0]).toBe("13 Nov 2031, 9:52 am");
  });

  it("reads a batch at a time and writes the same file whatever the batch", async () => {
    const filters = within({});
    const whole = await csvOf(auditCsvStream(filters));
    const batched = await csvOf(auditCsvStream(filters, db, 3));
    expect(whole).toHaveLength(28);
    expect(batched).toEqual(whole);
  });

  it("makes a cell a spreadsheet would run as a formula safe", async () => {
    const [, record] = await csvOf(auditCsvStream(within({ person: { nonStaff: "builtin" } })));
    expect(record![7]).toBe(`'=HYPERLINK("https://evil.example/","Click")`);
    expect(record![2]).toBe("Built-in owner");
    expect(record![5]).toBe("Product");
    expect(record![6]).toBe("501");
    expect(record![8]).toBe("price: 4999 → 5499");
  });

  it("the route answers the page's filters as a download", async () => {
    const answer = await auditCsv.loader({
      request: getRequest(`/admin/audit/export.csv?person=system&from=${DAYS.from}&to=${DAYS.to}`, { Cookie: ownerCookie }),
      params: {},
      context: {},
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(answer.headers.get("Content-Disposition")).toMatch(/^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/);
    const [, ...records] = await csvOf(answer);
    expect(records.map((r) => r[7])).toEqual(["Refund 77 sent"]);
  });
});

describe("who may read the audit trail", () => {
  const pageRequest = (cookie: string, query = "") => getRequest(`/admin/audit${query}`, cookie ? { Cookie: cookie } : {});
  const csvRequest = (cookie: string) => getRequest("/admin/audit/export.csv", cookie ? { Cookie: cookie } : {});

  it("an owner account and the built-in owner: the page and the export", async () => {
    for (const cookie of [ownerCookie, builtinCookie]) {
      const page = await call(auditPage.loader, pageRequest(cookie, `?from=${DAYS.from}&to=${DAYS.to}&person=${manager.id}&page=3`));
      expect(page.status).toBe(200);
      const body = asRecord(page.body);
      expect((body.rows as unknown[]).length).toBe(4);
      expect(asRecord(body.info)).toMatchObject({ page: 3, pages: 3, total: 24 });
      expect(body.exportHref).toBe(`/admin/audit/export.csv?person=${manager.id}&from=${DAYS.from}&to=${DAYS.to}`);
      expect((await call(auditCsv.loader, csvRequest(cookie))).status).toBe(200);
    }
  });

  it("shows each row's time in India, who, the action, a link to its object and what changed", async () => {
    const page = await call(auditPage.loader, pageRequest(ownerCookie, `?entity=order&entityId=9001&from=${DAYS.from}&to=${DAYS.to}`));
    const [latest] = asRecord(page.body).rows as Record<string, unknown>[];
    expect(latest).toMatchObject({
      id: rows.fulfilmentFirstOf12th,
      at: "12 Nov 2031, 12:00 am",
      who: "Vikram Singh (Fulfilment)",
      action: "Status changed",
      object: "Order #9001",
      href: "/admin/orders/9001",
      changes: [{ field: "status", before: "shipped", after: "delivered" }],
    });
  });

  it("a page past the last is a 404, like every admin list", async () => {
    const answer = await call(auditPage.loader, pageRequest(ownerCookie, `?from=${DAYS.from}&to=${DAYS.to}&person=${manager.id}&page=4`));
    expect(answer.status).toBe(404);
  });

  it("managers, fulfilment and support are refused with 403 and the permission message", async () => {
    for (const role of ["manager", "fulfilment", "support"] as const) {
      const { cookie } = await signedInStaff(role);
      for (const [fn, request] of [
        [auditPage.loader, pageRequest(cookie)],
        [auditCsv.loader, csvRequest(cookie)],
      ] as const) {
        const answer = await call(fn, request);
        expect(answer.status, role).toBe(403);
        expect(asRecord(answer.body).message).toBe(PERMISSION_REFUSED);
      }
    }
  });

  it("nobody signed in: the page sends the browser to /, the export is not served", async () => {
    for (const fn of [auditPage.loader, auditCsv.loader]) {
      const answer = await call(fn, csvRequest(""));
      expect(answer.status).toBe(302);
      expect(answer.headers.get("Location")).toBe("/");
    }
  });

  it("both routes declare the permission the owners alone have", () => {
    expect(auditPage.permissions).toEqual({ loader: "audit.read", action: "audit.read" });
    expect(auditCsv.permissions).toEqual({ loader: "audit.read", action: "audit.read" });
  });
});

describe("an order's own history", () => {
  const item = itemMaker("audit-history");

  it("the order page lists the changes made to the order and its returns, with who and when", async () => {
    const customer = await newCustomer("audit-history");
    await addToCart(customer, await item("history-chair", 2400, 10), 1);
    const placed = await placeViaApi(customer, checkoutFields());
    expect(placed.status).toBe(201);
    const orderId = Number(asRecord(placed.body).id);
    const now = nowIso();
    const returned = await db
      .insertInto("returnRequests")
      .values({
        orderId,
        userId: customer.user.id,
        status: "requested",
        reason: "damaged",
        details: "A leg came broken.",
        staffNote: null,
        refundAmount: 2400,
        createdAt: now,
        updatedAt: now,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    await recordAudit(db, {
      action: "status",
      entity: "order",
      entityId: orderId,
      summary: `Order #${orderId}: Processing → Shipped`,
      actor: fulfilmentActor,
      details: { status: ["processing", "shipped"] },
    });
    await recordAudit(db, { action: "status", entity: "return", entityId: returned.id, summary: "Return approved", actor: managerActor });
    // Another order's change is not this order's history.
    await recordAudit(db, { action: "status", entity: "order", entityId: orderId + 1000, summary: "Someone else's", actor: managerActor });

    const history: AuditEntry[] = await orderHistory(orderId);
    expect(history.map((h) => [h.summary, h.actor])).toEqual([
      [`Order #${orderId}: Processing → Shipped`, "Vikram Singh (Fulfilment)"],
      ["Return approved", "Asha Rao (Manager)"],
    ]);

    const page = await call(orderPage.loader, getRequest(`/admin/orders/${orderId}`, { Cookie: ownerCookie }), {
      orderId: String(orderId),
    });
    expect(page.status).toBe(200);
    expect((asRecord(page.body).history as AuditEntry[]).map((h) => h.summary)).toEqual(history.map((h) => h.summary));
  });
});

describe("the log is append-only for the app", () => {
  function sources(dir: string): string[] {
    return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return sources(rel);
      return /\.(ts|tsx|mts|js|mjs)$/.test(entry.name) ? [rel] : [];
    });
  }
  // Kysely's builders and raw SQL, in either spelling of the table.
  const WRITES = [
    /updateTable\(\s*["'`](auditLog|audit_log)["'`]/,
    /deleteFrom\(\s*["'`](auditLog|audit_log)["'`]/,
    /\bupdate\s+["'`]?audit_log\b/i,
    /\bdelete\s+from\s+["'`]?audit_log\b/i,
    /\btruncate\s+(table\s+)?["'`]?audit_log\b/i,
  ];

  it("finds the app's sources (the walk itself works)", () => {
    const files = sources("app");
    expect(files).toContain("app/models/audit.server.ts");
    expect(files.length).toBeGreaterThan(100);
  });

  it("no code under app/ updates or deletes audit rows", () => {
    const found = sources("app").flatMap((file) =>
      readFileSync(path.join(ROOT, file), "utf8")
        .split("\n")
        .flatMap((line, i) => (WRITES.some((w) => w.test(line)) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });

  it("the patterns catch what they are meant to", () => {
    for (const line of [
      'await db.updateTable("auditLog").set({ summary: "" })',
      "trx.deleteFrom('auditLog').execute()",
      "sql`delete from audit_log where id = ${id}`",
      'sql`UPDATE "audit_log" SET summary = ${s}`',
    ])
      expect(
        WRITES.some((w) => w.test(line)),
        line,
      ).toBe(true);
    expect(WRITES.some((w) => w.test('db.insertInto("auditLog")'))).toBe(false);
  });
});
