// Queries that scale (docs/decisions/0027): every catalogue and admin list query the pages and the
// API make, as the model verbs compile them, is explained by the database itself, over 5,000
// products (the large seed) and 4,000 orders:
//   - SQLite: EXPLAIN QUERY PLAN has no bare `SCAN items` / `SCAN orders` (a full table read), and
//     a list that pages in an index's order sorts nothing (no `USE TEMP B-TREE FOR ORDER BY`);
//   - PostgreSQL: with `enable_seqscan = off` (is there an index path at all?) no Seq Scan on items or
//     orders, and the same lists have no Sort node.
// The documented exceptions (the staff's substring search) are checked for what ADR 0014 says of them.
import type { CompiledQuery } from "kysely";
import { CamelCasePlugin, CompiledQuery as Compiled, Kysely, PostgresDialect, sql, SqliteDialect } from "kysely";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedLarge } from "../../db/seed.server";
import * as m0012 from "../../migrations/2026-11-25-0012-list-indexes";
import * as m0016 from "../../migrations/2026-11-25-0016-category-price-stock-index";
import type { Db } from "~/lib/db.server";
import { db, isPostgresUrl, nowIso, sqlitePath } from "~/lib/db.server";
import type { DB } from "~/lib/db-schema";
import { migrateToLatest } from "~/lib/migrate.server";
import type { AuditFilters } from "~/models/audit-read.server";
import { auditBatches, listAuditPage, NO_AUDIT_FILTERS, orderHistory } from "~/models/audit-read.server";
import { listProductsPage } from "~/models/catalogue/admin-lists.server";
import { getItemBySlug, listFeatured, listCategoryItemsPage, listRelated, listFeaturedPage } from "~/models/catalogue/products.server";
import { searchItems } from "~/models/catalogue/search.server";
import type { FilteredQuery } from "~/models/catalogue/facets.server";
import { facetsOf } from "~/models/catalogue/facets.server";
import { listOrdersPage, orderStatusCounts } from "~/models/orders/admin.server";
import { dashboardFigures } from "~/models/dashboard/figures.server";
import { listViewerOrdersPage } from "~/models/orders/list.server";
import { productReviews } from "~/models/reviews/read.server";
import type { AdminListQuery } from "~/utils/admin-schemas";
import { CategoryQuerySchema } from "~/utils/catalogue-schemas";
import { parseSearch } from "~/utils/search";
import { SLOW_SEARCH } from "~/web/search.server";
import { adminWindow } from "../support/paging";

const url = process.env.DATABASE_URL ?? "";
const onPostgres = isPostgresUrl(url);
const ORDERS = 4_000;

// A second connection to the same database that records every query the models send through it.
const recorded: CompiledQuery[] = [];
const spy: Db = new Kysely<DB>({
  dialect: onPostgres
    ? new PostgresDialect({ pool: new pg.Pool({ connectionString: url, max: 2 }) })
    : new SqliteDialect({ database: new Database(sqlitePath(url)) }),
  plugins: [new CamelCasePlugin()],
  log: (event) => {
    if (event.level === "query") recorded.push(event.query);
  },
});

afterAll(async () => {
  await spy.destroy();
});

let livingRoom = 0;
let customer = 0;

beforeAll(async () => {
  await migrateToLatest(db);
  await seedLarge(db, 5_000);
  livingRoom = (await db.selectFrom("categories").select("id").where("slug", "=", "living-room").executeTakeFirstOrThrow()).id;
  const now = Date.now();
  const users = Array.from({ length: 200 }, (_, i) => ({
    name: `Plan Customer ${i}`,
    email: `plan-${i}@example.com`,
    mobile: null,
    passwordHash: null,
    emailVerifiedAt: new Date(now).toISOString(),
    createdAt: new Date(now).toISOString(),
    updatedAt: new Date(now).toISOString(),
  }));
  const ids = (await db.insertInto("users").values(users).returning("id").execute()).map((u) => u.id);
  customer = ids[0]!;
  const statuses = ["processing", "shipped", "delivered", "cancelled"] as const;
  const orders = Array.from({ length: ORDERS }, (_, i) => {
    const at = new Date(now - (ORDERS - i) * 30 * 60 * 1000).toISOString();
    return {
      userId: ids[i % ids.length]!,
      status: statuses[i % 4]!,
      paymentMethod: i % 3 === 0 ? ("online" as const) : ("cod" as const),
      paymentOrderId: null,
      paymentId: null,
      idempotencyKey: null,
      subtotal: 10_000 + i,
      shipping: 0,
      gst: 1_800,
      total: 11_800 + i,
      shipName: `Plan Customer ${i % ids.length}`,
      shipAddress: "1 MG Road",
      shipCity: "Pune",
      shipState: "Maharashtra",
      shipPincode: "411001",
      shipPhone: "9876543210",
      shipEmail: `plan-${i % ids.length}@example.com`,
      carrier: null,
      trackingNumber: null,
      createdAt: at,
      updatedAt: at,
    };
  });
  for (let i = 0; i < orders.length; i += 500)
    await db
      .insertInto("orders")
      .values(orders.slice(i, i + 500))
      .execute();
  // A line or two per order, for the dashboard's top products and categories.
  const placed = await db.selectFrom("orders").select("id").execute();
  const someItems = (await db.selectFrom("items").select("id").limit(50).execute()).map((r) => r.id);
  const lines = placed.flatMap((o, i) =>
    Array.from({ length: 1 + (i % 2) }, (_, k) => ({
      orderId: o.id,
      itemId: someItems[(i + k) % someItems.length]!,
      title: "Plan line",
      slug: "plan-line",
      imgPath: "/x.svg",
      quantity: 1 + k,
      unitPrice: 5_000,
    })),
  );
  for (let i = 0; i < lines.length; i += 500)
    await db
      .insertInto("orderItems")
      .values(lines.slice(i, i + 500))
      .execute();
  await sql`analyze`.execute(db);
}, 120_000);

/** The queries `run` sends to the database. */
async function queriesOf(run: (db: Db) => Promise<unknown>): Promise<CompiledQuery[]> {
  recorded.length = 0;
  await run(spy);
  const out = [...recorded];
  expect(out.length).toBeGreaterThan(0);
  return out;
}

interface Plan {
  /** the plan as text, one step a line */
  text: string;
  /** a table read from end to end */
  fullScans: string[];
  /** the whole result sorted (not an index's order) */
  sorts: boolean;
}

interface PgNode {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Sort Key"?: string[];
  Plans?: PgNode[];
}

async function explain(query: CompiledQuery): Promise<Plan> {
  if (onPostgres) {
    return db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const result = await trx.executeQuery(Compiled.raw(`explain (format json) ${query.sql}`, [...query.parameters]));
      const root = (Object.values(result.rows[0] as object)[0] as { Plan: PgNode }[])[0]!.Plan;
      const nodes: PgNode[] = [];
      const walk = (n: PgNode) => {
        nodes.push(n);
        n.Plans?.forEach(walk);
      };
      walk(root);
      return {
        text: nodes
          .map((n) => `${n["Node Type"]} ${n["Relation Name"] ?? ""} ${n["Index Name"] ?? ""} ${n["Sort Key"]?.join(",") ?? ""}`)
          .join("\n"),
        fullScans: nodes.filter((n) => n["Node Type"] === "Seq Scan").map((n) => n["Relation Name"] ?? "?"),
        sorts: nodes.some((n) => n["Node Type"] === "Sort"),
      };
    });
  }
  const result = await db.executeQuery(Compiled.raw(`explain query plan ${query.sql}`, [...query.parameters]));
  const details = (result.rows as { detail: string }[]).map((r) => r.detail);
  const sorts = details.some((d) => d === "USE TEMP B-TREE FOR ORDER BY");
  return {
    text: details.join("\n"),
    fullScans: details.flatMap((d) => {
      const m = /^SCAN (\w+)(?: AS \w+)?$/.exec(d);
      if (!m) return [];
      // SQLite's table is its rowid index: a bare SCAN in id order with a LIMIT, unsorted, walks that
      // index from one end and stops at the page (PostgreSQL shows it as an Index Scan on the primary key).
      const idWalk =
        new RegExp(`order by "${m[1]}"\\."id"( desc)?( ,|,)?[^]*\\blimit\\b`, "i").test(query.sql) ||
        new RegExp(`order by "id"( desc)?[^]*\\blimit\\b`, "i").test(query.sql);
      return idWalk && !sorts ? [] : [m[1]!];
    }),
    sorts,
  };
}

const BIG_TABLES = ["items", "orders"];

/**
 * Every query `run` makes reads items and orders through an index; with `ordered`, the list
 * query (the one with a LIMIT) comes in an index's order, unsorted.
 */
async function expectIndexed(label: string, run: (db: Db) => Promise<unknown>, { ordered = false, coveredCount = false } = {}) {
  for (const query of await queriesOf(run)) {
    const plan = await explain(query);
    const context = `${label}\n${query.sql}\n${plan.text}`;
    if (process.env.PLAN_DEBUG && label.startsWith(process.env.PLAN_DEBUG)) console.info(context, plan.sorts);
    expect(
      plan.fullScans.filter((t) => BIG_TABLES.includes(t)),
      context,
    ).toEqual([]);
    // PostgreSQL weighs the cost: deep in a 1,000-row category it may rather sort half of it than walk
    // the index, so its order is checked on first pages (where a sort would read the whole list for 24 rows).
    const deep = onPostgres && /\boffset\b/i.test(query.sql) && Number(query.parameters.at(-1)) > 0;
    if (ordered && /\blimit\b/i.test(query.sql) && !deep) expect(plan.sorts, context).toBe(false);
    // SQLite: the count reads an index alone, never the products' rows (PostgreSQL's choice between an
    // index-only and a bitmap scan depends on its visibility map, so only the index path is checked there).
    if (coveredCount && !onPostgres && /count\(\*\)/i.test(query.sql))
      expect(plan.text, context).toMatch(/^SEARCH items USING COVERING INDEX/);
  }
}

const q = (raw: Record<string, string | string[]>) => CategoryQuerySchema.parse(raw);
const window = (page: number) => ({ offset: (page - 1) * 24, limit: 24 });
const ADMIN: AdminListQuery = { q: "", category: "all", status: "all", payment: "all", from: "", to: "" };

describe(`query plans on ${onPostgres ? "PostgreSQL" : "SQLite"}`, () => {
  it("the large seed ends with fresh statistics, and on PostgreSQL a vacuum (a count can read an index alone)", async () => {
    if (onPostgres) {
      const tables = await sql<{ relname: string; relallvisible: number; relpages: number }>`
        select relname, relallvisible, relpages from pg_class where relname in ('items', 'items_search') order by relname`.execute(db);
      expect(tables.rows.map((t) => t.relname)).toEqual(["items", "items_search"]);
      // Vacuumed by the seed itself, not by autovacuum later: every page of both is marked all-visible.
      for (const t of tables.rows) expect(t.relallvisible, t.relname).toBe(t.relpages);
    } else {
      const stats = await sql<{ tbl: string }>`select distinct tbl from sqlite_stat1 where tbl = 'items'`.execute(db);
      expect(stats.rows).toEqual([{ tbl: "items" }]);
    }
  });

  it("category pages: every sort and filter, their pages and counts, on indexes", async () => {
    // [what, the query, in an index's order, counted from an index alone]
    const cases: [string, Record<string, string | string[]>, boolean, boolean?][] = [
      ["default order", {}, true, true],
      ["price, low to high", { sort: "price-asc" }, true, true],
      ["price, high to low", { sort: "price-desc" }, true, true],
      ["in stock", { availability: "in-stock" }, true, true],
      ["out of stock", { availability: "out-of-stock" }, true, true],
      ["in stock by price", { availability: "in-stock", sort: "price-asc" }, true, true],
      // Few rows: PostgreSQL may bitmap-read them from (category_id, featured, id) and sort that handful.
      ["featured", { featured: "1" }, !onPostgres, true],
      // A price range is a range of the price index: its rows (a share of the category) are put in id order.
      ["a price range", { price: "15000-30000" }, false, true],
      ["a price range by price", { price: "15000-30000", sort: "price-desc" }, true, true],
      ["two price ranges, in stock", { price: ["under-15000", "above-50000"], availability: "in-stock" }, false],
      // Ranges that touch are one range of (category_id, price, id, stock) (migration 0016): the stock is
      // checked in the index, so the sorted page comes in its order and the count reads it alone.
      [
        "two touching price ranges, in stock, by price",
        { price: ["15000-30000", "30000-50000"], availability: "in-stock", sort: "price-asc" },
        true,
        true,
      ],
      ["two touching price ranges, in stock", { price: ["15000-30000", "30000-50000"], availability: "in-stock" }, false, true],
    ];
    for (const [label, raw, ordered, coveredCount = false] of cases) {
      const query = q(raw);
      for (const page of [1, 20]) {
        await expectIndexed(`category: ${label}, page ${page}`, (d) => listCategoryItemsPage(livingRoom, query, window(page), d), {
          ordered,
          coveredCount,
        });
      }
    }
  });

  it("availability with price ranges reads the stock from (category_id, price, id, stock), not the products (0016)", async () => {
    const query = q({ price: ["15000-30000", "30000-50000"], availability: "in-stock", sort: "price-asc" });
    // Deep in a 1,000-product category PostgreSQL may rather sort the filtered rows (see expectIndexed): its first page is checked.
    for (const page of onPostgres ? [1] : [1, 20]) {
      for (const statement of await queriesOf((d) => listCategoryItemsPage(livingRoom, query, window(page), d))) {
        const plan = await explain(statement);
        const context = `${statement.sql}\n${plan.text}`;
        // A later page reads its ids from the index alone (the offset skips index entries), then those products by id.
        if (/where "id" in/i.test(statement.sql)) continue;
        if (!onPostgres && page > 1 && /\boffset\b/i.test(statement.sql)) expect(plan.text, context).toMatch(/USING COVERING INDEX/);
        // PostgreSQL's count may take another index path, by its visibility map (see expectIndexed): its page is checked.
        if (!onPostgres || /\blimit\b/i.test(statement.sql)) expect(plan.text, context).toMatch(/items_category_id_price_id_stock_idx/);
        // One range (the two touch), no OR of ranges: the page is read in the index's order.
        expect(statement.sql, context).not.toMatch(/\bor\b/i);
        if (onPostgres && /\blimit\b/i.test(statement.sql)) {
          // The stock is an index condition: checked before any product row is read.
          const json = await db.transaction().execute(async (trx) => {
            await sql`set local enable_seqscan = off`.execute(trx);
            const r = await trx.executeQuery(Compiled.raw(`explain (format json) ${statement.sql}`, [...statement.parameters]));
            return JSON.stringify(r.rows[0]);
          });
          expect(json, context).toMatch(/"Index Cond":"[^"]*stock > /);
        }
      }
    }
  });

  it("the home page's featured list, the featured API, related products, a product by slug", async () => {
    await expectIndexed("featured (home)", (d) => listFeatured(4, d), { ordered: true });
    await expectIndexed("featured (API), page 2", (d) => listFeaturedPage({ offset: 48, limit: 48 }, d), { ordered: true });
    await expectIndexed("related", (d) => listRelated("no-such-slug", 4, d), { ordered: true });
    await expectIndexed("product by slug", (d) => getItemBySlug("teak-king-size-bed-with-storage", d));
  });

  it("a product's reviews: the histogram and both orders of its page read the reviews indexes, unsorted", async () => {
    const item = (await getItemBySlug("teak-king-size-bed-with-storage"))!;
    for (const sort of ["newest", "helpful"] as const) {
      for (const query of await queriesOf((d) => productReviews(item.id, { sort, page: 2 }, undefined, d))) {
        const plan = await explain(query);
        const context = `reviews, ${sort}\n${query.sql}\n${plan.text}`;
        expect(
          plan.fullScans.filter((t) => [...BIG_TABLES, "reviews", "users"].includes(t)),
          context,
        ).toEqual([]);
        if (/from "reviews"/.test(query.sql)) expect(plan.text, context).toMatch(/reviews_item_visible_/);
        if (/\blimit\b/i.test(query.sql)) expect(plan.sorts, context).toBe(false);
      }
    }
  });

  it("search: relevance, price sorts and filters read the full-text index, then products by id", async () => {
    const words = parseSearch("teak bed").words;
    await expectIndexed("search: relevance", (d) => searchItems(words, undefined, window(1), d));
    await expectIndexed("search: relevance, page 3", (d) => searchItems(words, undefined, window(3), d));
    await expectIndexed("search: in stock", (d) => searchItems(words, q({ availability: "in-stock" }), window(1), d));
    await expectIndexed("search: by price", (d) => searchItems(words, q({ sort: "price-asc" }), window(1), d));
    await expectIndexed("search: featured, by price", (d) => searchItems(words, q({ featured: "1", sort: "price-desc" }), window(1), d));
    await expectIndexed("search: prefix", (d) => searchItems(parseSearch("shee").words, undefined, window(1), d));
  });

  // Sixth security check: crafted searches of common short words, deep pages, filters (ADR 0014, migration 0017).
  const crafted: [string, Record<string, string>, number][] = [
    ["fo in fr by ou te ma an", {}, 1],
    ["fo in fr by ou te ma an", { availability: "in-stock", sort: "price-desc" }, 20],
    ["in by to of an", { availability: "in-stock" }, 40],
    ["for ins tea fre our and mad woo", {}, 80],
    ["with made hand fini wood inch free colo", { sort: "price-asc" }, 1],
    ["bedroom", {}, 1],
    ["shee", {}, 80],
  ];

  it("search: each relevance tier is a plain match of its own index, in id order (no column filter, no NOT, no count)", async () => {
    for (const [text, raw, page] of crafted) {
      const statements = await queriesOf((d) => searchItems(parseSearch(text).words, q(raw), window(page), d));
      for (const statement of statements) {
        const plan = await explain(statement);
        const context = `${text}\n${statement.sql}\n${JSON.stringify(statement.parameters.slice(0, 4))}\n${plan.text}`;
        expect(
          plan.fullScans.filter((t) => BIG_TABLES.includes(t)),
          context,
        ).toEqual([]);
        if (onPostgres) {
          // No pass that orders every match by its tier (the one pass this replaced).
          expect(statement.sql, context).not.toMatch(/order by case/i);
          continue;
        }
        const match = /(\w+) match \?/i.exec(statement.sql);
        if (!match) continue;
        // The match is the words alone: no column filter ({title}:), no NOT, nothing but quoted words.
        const words = statement.parameters.find((p) => typeof p === "string" && p.startsWith('"'));
        expect(words, context).toMatch(/^"[^"]+"\*?( "[^"]+"\*?)*$/);
        // The full-text index reads with the match (not a scan of the index), in rowid order, unsorted.
        expect(plan.text, context).toMatch(new RegExp(`SCAN ${match[1]} VIRTUAL TABLE INDEX \\d+:M`));
        if (/\blimit\b/i.test(statement.sql) && /order by \w+\.rowid/i.test(statement.sql)) expect(plan.sorts, context).toBe(false);
      }
    }
  });

  it("search: the crafted searches cost little (a bound generous enough for a loaded machine: under the slow-search mark)", async () => {
    for (const [text, raw, page] of crafted) {
      const words = parseSearch(text).words;
      const times: number[] = [];
      // The best of five: what the search itself costs; a busy machine only ever adds to it.
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        await searchItems(words, q(raw), window(page));
        times.push(performance.now() - started);
      }
      expect(Math.min(...times), `${text} ${JSON.stringify(raw)} page ${page}`).toBeLessThan(SLOW_SEARCH.ms);
    }
  });

  it("search on PostgreSQL: a dense tier is walked in id order and stops at the window, an empty one read from its GIN index", async () => {
    if (!onPostgres) return;
    const statements = async (text: string) =>
      (await queriesOf((d) => searchItems(parseSearch(text).words, undefined, window(1), d))).map((c) => c.sql);
    // 'wo' begins a word of most products and of many titles (wooden): the walk of the first ids counts it
    // past the cap and holds its first page; no GIN read, no pass over every match.
    const wo = await statements("wo");
    expect(wo.some((s) => /array_agg/.test(s))).toBe(true);
    expect(wo.some((s) => /as materialized/.test(s))).toBe(false);
    // 'cm' is in every product's dimensions and in no title: the title tier comes from its GIN index.
    const cm = await statements("cm");
    expect(cm.some((s) => /as materialized .*"title_words" @@/.test(s))).toBe(true);
    // 'sofa' (fewer than 2,000 matches): every match is known, their tiers read by id.
    expect((await statements("sofa")).some((s) => /= any\(/.test(s))).toBe(true);
  });

  it("option filters: a category's and a search's counts and matches read variant_facets' covering indexes (0034)", async () => {
    const chosen = (raw: Record<string, string | string[]>, options: Record<string, string[]>) => ({ ...q(raw), options });
    const cases: [string, FilteredQuery][] = [
      ["no filter", chosen({}, {})],
      ["one value", chosen({}, { fabric: ["velvet"] })],
      ["two values, by price", chosen({ sort: "price-desc" }, { fabric: ["velvet", "suede"] })],
      [
        "a value, price ranges, in stock",
        chosen({ price: ["15000-30000", "30000-50000"], availability: "in-stock" }, { fabric: ["velvet"] }),
      ],
      ["two options, out of stock", chosen({ availability: "out-of-stock" }, { fabric: ["velvet"], colour: ["teal"] })],
    ];
    const words = parseSearch("sofa").words;
    for (const [label, query] of cases) {
      const runs: [string, (d: Db) => Promise<unknown>][] = [
        [`facets: ${label}`, (d) => facetsOf(d, { categoryId: livingRoom }, query)],
        [`category: ${label}, page 20`, (d) => listCategoryItemsPage(livingRoom, query, window(20), d)],
        [`search: ${label}`, (d) => searchItems(words, query, window(1), d, true)],
      ];
      for (const [what, run] of runs) {
        for (const statement of await queriesOf(run)) {
          const plan = await explain(statement);
          const context = `${what}\n${statement.sql}\n${plan.text}`;
          expect(
            plan.fullScans.filter((t) => [...BIG_TABLES, "variant_facets"].includes(t)),
            context,
          ).toEqual([]);
          if (!/from variant_facets/i.test(statement.sql)) continue;
          expect(plan.text, context).toMatch(/variant_facets_(category|item|variant)_idx/);
          // SQLite reads the facets from their indexes alone, never a row of the table.
          if (!onPostgres)
            expect(
              plan.text.split("\n").filter((l) => /variant_facets|\b[fg]\d?\b/.test(l) && /USING INDEX/.test(l)),
              context,
            ).toEqual([]);
        }
      }
    }
  });

  it("admin products: all and one category, first and later pages, and their counts", async () => {
    await expectIndexed("admin products", (d) => listProductsPage(ADMIN, adminWindow(1), d), { ordered: true });
    await expectIndexed("admin products, page 40", (d) => listProductsPage({ ...ADMIN }, adminWindow(40), d), { ordered: true });
    await expectIndexed("admin products, one category", (d) => listProductsPage({ ...ADMIN, category: livingRoom }, adminWindow(1), d), {
      ordered: true,
    });
  });

  it("admin orders: newest first, by status, by payment, by date, and the status counts; a customer's orders", async () => {
    await expectIndexed("admin orders", (d) => listOrdersPage(ADMIN, adminWindow(1), d), { ordered: true });
    await expectIndexed("admin orders, page 30", (d) => listOrdersPage({ ...ADMIN }, adminWindow(30), d), { ordered: true });
    await expectIndexed("admin orders, shipped", (d) => listOrdersPage({ ...ADMIN, status: "shipped" }, adminWindow(1), d), {
      ordered: true,
    });
    await expectIndexed("admin orders, online", (d) => listOrdersPage({ ...ADMIN, payment: "online" }, adminWindow(1), d), {
      ordered: true,
    });
    const day = new Date(Date.now() - 20 * 24 * 3600 * 1000).toISOString().slice(0, 10);
    await expectIndexed("admin orders, from a day", (d) => listOrdersPage({ ...ADMIN, from: day }, adminWindow(1), d), { ordered: true });
    await expectIndexed("order status counts", (d) => orderStatusCounts(d));
    await expectIndexed("a customer's orders", (d) =>
      listViewerOrdersPage({ userId: customer, isAdmin: false }, { offset: 0, limit: 50 }, d),
    );
  });

  it("the dashboard's figures: each reads an index range, the per-day figures group in the index's order (0027)", async () => {
    for (const range of [30, 90] as const) {
      // Today's window of running totals set first: moving it is a write of the first reading of a day.
      await dashboardFigures(range, new Date());
      for (const query of await queriesOf((d) => dashboardFigures(range, new Date(), d))) {
        const plan = await explain(query);
        const context = `dashboard, ${range} days\n${query.sql}\n${plan.text}`;
        if (process.env.PLAN_DEBUG && "dashboard".startsWith(process.env.PLAN_DEBUG)) console.info(context);
        expect(
          plan.fullScans.filter((t) =>
            [
              ...BIG_TABLES,
              "product_variants",
              "order_items",
              "refunds",
              "return_requests",
              "order_day_figures",
              "item_day_figures",
              "product_period_figures",
            ].includes(t),
          ),
          context,
        ).toEqual([]);
        // Orders are read from the day's index alone, never their rows.
        if (/from "orders"/.test(query.sql)) expect(plan.text, context).toMatch(/orders_ist_day_figures_idx/);
        if (/join "order_items"/.test(query.sql)) expect(plan.text, context).toMatch(/order_items_order_id_sale_idx/);
        if (!onPostgres && /from "orders"/.test(query.sql)) {
          expect(plan.text, context).toMatch(/USING COVERING INDEX orders_ist_day_figures_idx/);
          // Per day, status and payment: grouped as the index is ordered, no sort of the range's orders.
          if (/group by date\(/.test(query.sql)) expect(plan.text, context).not.toMatch(/TEMP B-TREE/);
        }
        // Low stock is per variant on sale: read from the partial index of their stock (0035), each product by its key.
        if (/"made_to_order" = /.test(query.sql)) expect(plan.text, context).toMatch(/product_variants_active_stock_idx/);
      }
    }
  });

  it("the audit trail: each filter reads its index, newest first, unsorted; the export and an order's history too", async () => {
    // 12,000 rows over 60 days: three staff members, the built-in owner and the shop; every kind of object.
    const staff: number[] = [];
    for (const name of ["Plan Owner", "Plan Manager", "Plan Fulfilment"])
      staff.push(
        (
          await db
            .insertInto("staff")
            .values({ name, email: `${name.replace(" ", ".").toLowerCase()}@example.com`, role: "manager", createdAt: nowIso() })
            .returning("id")
            .executeTakeFirstOrThrow()
        ).id,
      );
    const entities = [
      "order",
      "product",
      "category",
      "coupon",
      "return",
      "refund",
      "review",
      "user",
      "delivery_zone",
      "mail",
      "staff",
    ] as const;
    const start = Date.now() - 60 * 24 * 3600 * 1000;
    const AUDIT_ROWS = 12_000;
    const rows = Array.from({ length: AUDIT_ROWS }, (_, i) => {
      const who = i % 5;
      return {
        action: "update" as const,
        entity: entities[i % entities.length]!,
        entityId: String(1 + (i % 700)),
        summary: `Plan change ${i}`,
        createdAt: new Date(start + i * 7 * 60 * 1000).toISOString(),
        staffId: who < 3 ? staff[who]! : null,
        actor: who < 3 ? `Staff ${who}` : who === 3 ? "Built-in owner" : "The shop",
        details: null,
      };
    });
    for (let i = 0; i < rows.length; i += 500)
      await db
        .insertInto("auditLog")
        .values(rows.slice(i, i + 500))
        .execute();
    await sql`analyze`.execute(db);

    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 24 * 3600 * 1000).toISOString().slice(0, 10);
    // [what, the filters, the index SQLite reads the page from, few rows: PostgreSQL may bitmap-read and sort that handful]
    const cases: [string, AuditFilters, RegExp, boolean][] = [
      ["everything", NO_AUDIT_FILTERS, /^SCAN audit_log$/, false],
      ["a staff member", { ...NO_AUDIT_FILTERS, person: { staffId: staff[1]! } }, /audit_log_staff_idx \(staff_id=\?\)/, false],
      ["the built-in owner", { ...NO_AUDIT_FILTERS, person: { nonStaff: "builtin" } }, /audit_log_staff_idx \(staff_id=\?\)/, false],
      ["the shop", { ...NO_AUDIT_FILTERS, person: { nonStaff: "system" } }, /audit_log_staff_idx \(staff_id=\?\)/, false],
      ["one order", { ...NO_AUDIT_FILTERS, entity: "order", entityId: "12" }, /audit_log_entity_idx \(entity=\? AND entity_id=\?\)/, true],
      ["every order", { ...NO_AUDIT_FILTERS, entity: "order" }, /audit_log_entity_id_order_idx \(entity=\?\)/, false],
      ["every staff change", { ...NO_AUDIT_FILTERS, entity: "staff" }, /audit_log_entity_id_order_idx \(entity=\?\)/, false],
      [
        "three days",
        { ...NO_AUDIT_FILTERS, from: day(40), to: day(38) },
        /audit_log_created_at_id_idx \(created_at>\? AND created_at<\?\)/,
        false,
      ],
      [
        "a day long ago",
        { ...NO_AUDIT_FILTERS, from: day(58), to: day(58) },
        /audit_log_created_at_id_idx \(created_at>\? AND created_at<\?\)/,
        false,
      ],
      ["from a day", { ...NO_AUDIT_FILTERS, from: day(20) }, /audit_log_created_at_id_idx \(created_at>\?\)/, false],
      [
        "a staff member's orders in a week",
        { ...NO_AUDIT_FILTERS, person: { staffId: staff[0]! }, entity: "order", from: day(30), to: day(24) },
        /audit_log_(staff|entity_id_order)_idx/,
        true,
      ],
    ];
    const check = async (label: string, query: CompiledQuery, pageIndex: RegExp | null, fewRows: boolean) => {
      const plan = await explain(query);
      const context = `audit: ${label}\n${query.sql}\n${plan.text}`;
      if (process.env.PLAN_DEBUG && "audit".startsWith(process.env.PLAN_DEBUG)) console.info(context, plan.sorts);
      expect(plan.fullScans, context).toEqual([]);
      if (!/\blimit\b/i.test(query.sql)) return;
      if (!onPostgres || !fewRows) expect(plan.sorts, context).toBe(false);
      if (!onPostgres && pageIndex) expect(plan.text, context).toMatch(pageIndex);
    };
    for (const [label, filters, index, fewRows] of cases) {
      for (const page of [1, 5])
        for (const query of await queriesOf((d) => listAuditPage(filters, adminWindow(page), d)))
          await check(`${label}, page ${page}`, query, index, fewRows);
      // The export's later batches start after the last row read: still an index range, unsorted.
      const batches = await queriesOf(async (d) => {
        let n = 0;
        for await (const rows of auditBatches(filters, 50, d)) if (++n === 3 || rows.length === 0) break;
      });
      for (const query of batches) await check(`${label}, export`, query, null, fewRows);
    }
    // An order's history: its returns and refunds by the order's id, then their rows by object (a handful, in id order).
    for (const query of await queriesOf((d) => orderHistory(12, d))) {
      const plan = await explain(query);
      const context = `audit: an order's history\n${query.sql}\n${plan.text}`;
      expect(plan.fullScans, context).toEqual([]);
      if (onPostgres) expect(plan.text, context).not.toMatch(/Seq Scan/);
      if (/from "audit_log"/.test(query.sql) && !onPostgres)
        expect(plan.text, context).toMatch(/audit_log_entity_idx \(entity=\? AND entity_id=\?\)/);
    }
  });

  it("the documented exception: the staff's substring search filters the rows of the list's own order, unsorted", async () => {
    // docs/decisions/0014: LIKE '%x%' has no index; the page walks the list's order and stops at a page of matches.
    for (const query of await queriesOf((d) => listProductsPage({ ...ADMIN, q: "teak" }, adminWindow(1), d))) {
      const plan = await explain(query);
      if (/\blimit\b/i.test(query.sql)) expect(plan.sorts, `${query.sql}\n${plan.text}`).toBe(false);
    }
  });

  it("migration 0016's down restores (category_id, price, id); up replaces it with (category_id, price, id, stock) again", async () => {
    const raw = db.withoutPlugins() as unknown as Parameters<typeof m0016.up>[0];
    const indexes = async () => {
      const rows = onPostgres
        ? await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'items'`.execute(db)
        : await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'items'`.execute(db);
      return rows.rows.map((r) => r.name);
    };
    expect(await indexes()).toContain("items_category_id_price_id_stock_idx");
    expect(await indexes()).not.toContain("items_category_id_price_id_idx");
    await m0016.down(raw);
    try {
      expect(await indexes()).toContain("items_category_id_price_id_idx");
      expect(await indexes()).not.toContain("items_category_id_price_id_stock_idx");
    } finally {
      await m0016.up(raw);
      await sql`analyze`.execute(db);
    }
    expect(await indexes()).toContain("items_category_id_price_id_stock_idx");
    expect(await indexes()).not.toContain("items_category_id_price_id_idx");
    await expectIndexed(
      "category by price, after down and up",
      (d) => listCategoryItemsPage(livingRoom, q({ sort: "price-desc" }), window(1), d),
      {
        ordered: true,
        coveredCount: true,
      },
    );
  });

  it("migration 0012's down drops its indexes and restores the ones it replaced; up brings them back", async () => {
    const raw = db.withoutPlugins() as unknown as Parameters<typeof m0012.up>[0];
    const indexes = async () => {
      const rows = onPostgres
        ? await sql<{ name: string }>`select indexname as name from pg_indexes where tablename in ('items', 'orders')`.execute(db)
        : await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name in ('items', 'orders')`.execute(db);
      return rows.rows.map((r) => r.name);
    };
    const added = [
      "items_category_id_stock_id_idx",
      "items_category_id_featured_id_idx",
      "orders_created_at_id_idx",
      "orders_status_created_at_id_idx",
      "orders_payment_method_created_at_id_idx",
    ];
    const replaced = ["orders_created_at_idx", "orders_status_idx"];
    expect(await indexes()).toEqual(expect.arrayContaining(added));
    await m0012.down(raw);
    try {
      const after = await indexes();
      expect(after.filter((n) => added.includes(n))).toEqual([]);
      expect(after).toEqual(expect.arrayContaining(replaced));
    } finally {
      await m0012.up(raw);
      await sql`analyze`.execute(db);
    }
    const again = await indexes();
    expect(again).toEqual(expect.arrayContaining(added));
    expect(again.filter((n) => replaced.includes(n))).toEqual([]);
    await expectIndexed(
      "admin orders, shipped, after down and up",
      (d) => listOrdersPage({ ...ADMIN, status: "shipped" }, adminWindow(1), d),
      {
        ordered: true,
      },
    );
  });
});
