// Search (docs/decisions/0014) on a mid-size catalogue: the large seed's generator fills this
// file's own database with 5,000 products, then the results page and GET /api/search are checked
// against a reference computed here, in JavaScript, from every row (its words: title, description,
// category title, specification values), independently of either database's full-text engine. Runs
// on SQLite and, with TEST_PG_URL, on PostgreSQL.
import { stringify } from "csv-stringify/sync";
import type { ExpressionBuilder } from "kysely";
import { sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { seedCategories } from "../../db/seed-data";
import { seedLarge } from "../../db/seed.server";
import * as m0011 from "../../migrations/2026-11-25-0011-search-index";
import * as m0017 from "../../migrations/2026-11-26-0017-search-tier-indexes";
import { PUBLIC_API_CACHE } from "~/lib/api.server";
import { db, isPostgresUrl, toCount } from "~/lib/db.server";
import type { DB } from "~/lib/db-schema";
import { migrateToLatest } from "~/lib/migrate.server";
import { deleteProduct, updateProduct } from "~/models/catalogue/admin-products.server";
import { getProductForAdmin } from "~/models/catalogue/admin-lists.server";
import { updateCategory } from "~/models/catalogue/admin-categories.server";
import { toItem } from "~/models/catalogue/products.server";
import { CSV_COLUMNS } from "~/utils/product-csv";
import { importProductsCsv } from "~/models/catalogue/csv-import.server";
import { searchItems } from "~/models/catalogue/search.server";
import * as searchApi from "~/routes/api.search";
import * as searchPage from "~/routes/search";
import type { Item } from "~/utils/catalogue";
import type { CategoryQuery } from "~/utils/catalogue-schemas";
import { CategoryQuerySchema } from "~/utils/catalogue-schemas";
import { parseSearch, SEARCH_MAX_RESULTS } from "~/utils/search";
import { clientOf, LIMITS } from "~/lib/rate-limit.server";
import { env } from "~/lib/env.server";
import { searchFor, SLOW_SEARCH, TOO_MANY_SLOW_SEARCHES } from "~/web/search.server";
import { getRequest } from "../support/requests";
import { asRecord, call, expectApiError, routeArgs } from "../support/route-calls";
import { BUILTIN_OWNER } from "~/models/staff/staff.server";

const TOTAL = 5_000;
const PAGE = 24;

/** A product sold as one piece (no options): its price and stock are the product form's to edit. */
const soldAsOne = (eb: ExpressionBuilder<DB, "items">) =>
  eb.not(eb.exists(eb.selectFrom("productOptions").select("id").whereRef("productOptions.itemId", "=", "items.id")));

beforeAll(async () => {
  await migrateToLatest(db);
  expect(await seedLarge(db, TOTAL)).toEqual({ categories: seedCategories.length, products: TOTAL });
}, 60_000);

// ---- the reference: every product's words, and the matching rule, in JavaScript ----

const wordsOf = (text: string) =>
  text
    .normalize("NFKC")
    .toLowerCase()
    .split(/[^\p{L}\p{M}\p{N}\p{Co}]+/u)
    .filter(Boolean);

interface Doc {
  item: Item;
  words: Set<string>;
  titleWords: Set<string>;
  /** the words of the title, of the title and category, and of those and the specification values: the relevance tiers */
  tierWords: Set<string>[];
}

async function documents(): Promise<Doc[]> {
  const categories = new Map((await db.selectFrom("categories").select(["id", "title"]).execute()).map((c) => [c.id, c.title]));
  const rows = await db.selectFrom("items").selectAll().orderBy("id").execute();
  return rows.map((row) => {
    const item = toItem(row);
    const category = categories.get(item.categoryId) ?? "";
    const specs = Object.values(item.specifications).join(" ");
    const text = [item.title, item.description, category, specs].join(" ");
    const tierWords = [item.title, `${item.title} ${category}`, `${item.title} ${category} ${specs}`].map((t) => new Set(wordsOf(t)));
    return { item, words: new Set(wordsOf(text)), titleWords: new Set(wordsOf(item.title)), tierWords };
  });
}

type Words = ReturnType<typeof parseSearch>["words"];
const holdsAll = (set: Set<string>, words: Words) =>
  words.every((w) => (w.prefix ? [...set].some((x) => x.startsWith(w.text)) : set.has(w.text)));

/** A matching product's relevance tier (product.md): 0 every word in the title, 1 in title or category, 2 or specifications, 3 anywhere. */
const tierOf = (d: Doc, words: Words) => {
  const tier = d.tierWords.findIndex((set) => holdsAll(set, words));
  return tier === -1 ? 3 : tier;
};

/** The products a search must find: every word is a word of the product, or (two characters or more) begins one; most relevant first. */
function reference(docs: Doc[], q: string, query?: CategoryQuery): Item[] {
  const words = parseSearch(q).words;
  let out = docs
    .filter((d) => holdsAll(d.words, words))
    .map((d) => ({ d, tier: tierOf(d, words) }))
    .sort((a, b) => a.tier - b.tier || a.d.item.id - b.d.item.id)
    .map(({ d }) => d.item);
  if (query?.availability.length === 1) out = out.filter((i) => (query.availability[0] === "in-stock" ? i.stock > 0 : i.stock === 0));
  if (query?.featured) out = out.filter((i) => i.featured);
  if (query?.price.includes("under-15000")) out = out.filter((i) => i.price < 15000);
  if (query?.sort === "price-asc") out = [...out].sort((a, b) => a.price - b.price || a.id - b.id);
  if (query?.sort === "price-desc") out = [...out].sort((a, b) => b.price - a.price || b.id - a.id);
  return out;
}

const ids = (items: Item[]) => items.map((i) => i.id);
const sortedIds = (items: Item[]) => ids(items).sort((a, b) => a - b);

const api = (qs: string) => call(searchApi.loader, getRequest(`/api/search?${qs}`));
const openPage = (qs: string) => call(searchPage.loader, getRequest(`/search?${qs}`));

interface ApiBody {
  items: Item[];
  total: number;
  page: number;
  pageSize: number;
}

/** Every result of an API search, page by page (100 a page). */
async function everyResult(qs: string): Promise<ApiBody & { all: Item[] }> {
  const all: Item[] = [];
  let first: ApiBody | undefined;
  for (let page = 1; ; page++) {
    const answer = await api(`${qs}&page=${page}&pageSize=100`);
    expect(answer.status, qs).toBe(200);
    const body = answer.body as ApiBody;
    first ??= body;
    all.push(...body.items);
    if (page * 100 >= body.total) break;
  }
  return { ...first!, all };
}

interface PageData {
  items: Item[];
  info: { page: number; pages: number; total: number; from: number; to: number };
  search: { text: string; searchable: boolean; shortened: boolean };
}

async function pageData(qs: string): Promise<PageData> {
  const answer = await openPage(qs);
  expect(answer.status, qs).toBe(200);
  return answer.body as PageData;
}

describe("search matching rules", () => {
  let docs: Doc[];
  beforeAll(async () => {
    docs = await documents();
  });

  it("every word must match, in any field, and the total is every such product", async () => {
    for (const q of ["teak bed", "sheesham king size", "jaipur rosewood", "velvet recliner", "mango wood sideboard"]) {
      const expected = reference(docs, q);
      expect(expected.length, q).toBeGreaterThan(0);
      const found = await everyResult(`q=${encodeURIComponent(q)}`);
      expect(found.total, q).toBe(expected.length);
      expect(sortedIds(found.all), q).toEqual(sortedIds(expected));
      // Each word alone finds more than both together.
      for (const word of q.split(" ")) expect(reference(docs, word).length).toBeGreaterThanOrEqual(expected.length);
    }
  });

  it("a word's start finds the words it begins: 'shee' finds sheesham; one character only the same word", async () => {
    const shee = await everyResult("q=shee");
    expect(shee.total).toBe(reference(docs, "sheesham").length);
    expect(shee.all.every((i) => /sheesham/i.test(JSON.stringify(i)))).toBe(true);
    const recl = await everyResult("q=recl");
    expect(sortedIds(recl.all)).toEqual(sortedIds(reference(docs, "recl")));
    expect(recl.total).toBeGreaterThanOrEqual(reference(docs, "recliner").length);
    // '3 seater': 3 is a whole word (3-Seater), so 'seater' alone finds more (2-Seater, 6-Seater...).
    const three = await everyResult("q=3%20seater");
    expect(sortedIds(three.all)).toEqual(sortedIds(reference(docs, "3 seater")));
    expect(three.total).toBeLessThan(reference(docs, "seater").length);
    expect(three.total).toBeGreaterThan(0);
  });

  it("ignores case: TEAK, Teak and teak find the same products", async () => {
    const lower = await everyResult("q=teak");
    expect(lower.total).toBe(reference(docs, "teak").length);
    expect((await everyResult("q=TEAK")).total).toBe(lower.total);
    expect(sortedIds((await everyResult("q=Teak")).all)).toEqual(sortedIds(lower.all));
  });

  it("searches specification values: teak, king, recliner, and words found only there", async () => {
    for (const q of ["teak", "king", "recliner"]) {
      const found = await everyResult(`q=${q}`);
      expect(found.total, q).toBeGreaterThan(0);
      expect(sortedIds(found.all), q).toEqual(sortedIds(reference(docs, q)));
    }
    // 'tools' is only ever in the Assembly specification ('Self-assembly, tools included').
    const tools = await everyResult("q=tools");
    expect(tools.total).toBeGreaterThan(0);
    for (const item of tools.all) {
      expect(`${item.title} ${item.description}`.toLowerCase()).not.toContain("tools");
      expect(Object.values(item.specifications).join(" ").toLowerCase()).toContain("tools");
    }
    // A teak-coloured piece whose material and title are not teak is found by its Color.
    const byColour = docs.find((d) => d.item.specifications.Color === "Teak" && !d.titleWords.has("teak"));
    expect(byColour).toBeDefined();
    expect(ids((await everyResult("q=teak")).all)).toContain(byColour!.item.id);
  });

  it("searches category titles: 'dining' finds every product of Dining Room", async () => {
    const dining = await db.selectFrom("categories").select("id").where("slug", "=", "dining-room").executeTakeFirstOrThrow();
    const found = await everyResult("q=dining%20room");
    const inCategory = docs.filter((d) => d.item.categoryId === dining.id).map((d) => d.item);
    expect(found.total).toBe(reference(docs, "dining room").length);
    expect(ids(found.all)).toEqual(expect.arrayContaining(ids(inCategory)));
  });

  it("puts the most relevant first: a title match before a match in the description or specifications only", async () => {
    const found = await everyResult("q=teak");
    const inTitle = (i: Item) => wordsOf(i.title).includes("teak");
    const firstOther = found.all.findIndex((i) => !inTitle(i));
    expect(firstOther).toBeGreaterThan(0);
    // Every title match comes before the first product with teak only elsewhere.
    expect(found.all.slice(firstOther).filter(inTitle).length).toBeLessThan(found.all.filter(inTitle).length * 0.05);
    expect(found.all.slice(0, 24).every(inTitle)).toBe(true);
    // Paging in relevance order neither repeats nor loses a product.
    expect(new Set(ids(found.all)).size).toBe(found.total);
  });

  it("relevance is exact: title, then title or category, then specifications, then anywhere, by id in each, on every page", async () => {
    for (const q of [
      "teak",
      "sofa",
      "bed",
      "teak bed",
      "dining",
      "sheesham king",
      "3 seater",
      "bedroom",
      "tools",
      "poolside",
      "teak naps",
    ]) {
      const expected = reference(docs, q);
      expect(expected.length, q).toBeGreaterThan(0);
      expect(ids((await everyResult(`q=${encodeURIComponent(q)}`)).all), q).toEqual(ids(expected));
    }
    // Every tier is reached: 'bed' in titles, 'bedroom' only a category, 'tools' only a specification, 'poolside' only a description.
    const words = (q: string) => parseSearch(q).words;
    const tiers = (q: string) => new Set(docs.filter((d) => holdsAll(d.words, words(q))).map((d) => tierOf(d, words(q))));
    expect(tiers("bed")).toContain(0);
    expect([...tiers("bedroom")]).toEqual([1]);
    expect([...tiers("tools")]).toEqual([2]);
    expect([...tiers("poolside")]).toEqual([3]);
    expect([...tiers("teak")].sort()).toEqual([0, 2]);
    // Every word counts: with 'naps' (descriptions only) even a teak-titled product is in the last tier.
    expect([...tiers("teak naps")]).toEqual([3]);
    // Small windows start inside and past each tier: pages of 7 of 'teak' put together are the whole list.
    const teak = reference(docs, "teak");
    const seen: Item[] = [];
    for (let page = 1; (page - 1) * 7 < teak.length; page += 1) {
      const answer = await api(`q=teak&page=${page}&pageSize=7`);
      seen.push(...(answer.body as ApiBody).items);
    }
    expect(ids(seen)).toEqual(ids(teak));
    // With filters the order is the same, of the filtered products; and on the results page.
    const inStock = CategoryQuerySchema.parse({ availability: "in-stock" });
    expect(ids((await everyResult("q=teak&availability=in-stock")).all)).toEqual(ids(reference(docs, "teak", inStock)));
    const page3 = await pageData("q=teak&availability=in-stock&page=3");
    expect(ids(page3.items)).toEqual(ids(reference(docs, "teak", inStock).slice(48, 72)));
    expect(ids((await pageData("q=bed&page=2")).items)).toEqual(ids(reference(docs, "bed").slice(24, 48)));
  });

  it("a two-letter word is a prefix only as the last word (sixth security check): crafted searches are exact", async () => {
    // 'be' before another word is the word 'be' (no product has it); as the last word it begins bed, bedroom...
    const holding = (word: string, prefix: string) =>
      docs.filter((d) => d.words.has(word) && [...d.words].some((w) => w.startsWith(prefix))).map((d) => d.item.id);
    expect(holding("be", "teak")).toEqual([]);
    expect((await everyResult("q=be%20teak")).total).toBe(0);
    const teakBe = await everyResult("q=teak%20be");
    expect(teakBe.total).toBeGreaterThan(0);
    expect(ids(teakBe.all)).toEqual(ids(reference(docs, "teak be")));
    const wordsById = new Map(docs.map((d) => [d.item.id, d.words]));
    expect(teakBe.all.every((i) => [...wordsById.get(i.id)!].some((w) => w.startsWith("be") && w !== "be"))).toBe(true);
    // The check's searches and their variants: whole two-letter words, common prefixes; exact, in relevance order.
    for (const q of [
      "fo in fr by ou te ma an",
      "in by to of an",
      "for ins tea fre our and mad woo",
      "with made hand fini wood inch free colo",
    ]) {
      const expected = reference(docs, q).slice(0, SEARCH_MAX_RESULTS);
      const got = await everyResult(`q=${encodeURIComponent(q)}`);
      expect(got.total, q).toBe(expected.length);
      expect(ids(got.all), q).toEqual(ids(expected));
      const inStock = CategoryQuerySchema.parse({ availability: "in-stock", sort: "price-desc" });
      const filtered = await everyResult(`q=${encodeURIComponent(q)}&availability=in-stock&sort=price-desc`);
      expect(ids(filtered.all), q).toEqual(ids(reference(docs, q, inStock)));
    }
  });

  it("no hits: a word no product has is an empty list, on the API and the page", async () => {
    const answer = await api("q=xylophone");
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ items: [], total: 0, page: 1, pageSize: 48, capped: false });
    const page = await pageData("q=xylophone");
    expect(page.items).toEqual([]);
    expect(page.info).toMatchObject({ total: 0, page: 1, pages: 1 });
    expect((await openPage("q=xylophone&page=2")).status).toBe(404);
  });

  it("odd input: quotes and operators are plain words, symbols separate words, nothing is a 5xx", async () => {
    const teakBed = sortedIds(reference(docs, "teak bed"));
    for (const q of [
      '"teak" "bed"',
      "teak AND bed",
      "teak* bed^",
      "(teak) : bed",
      "-teak -bed",
      "teak\u0000bed",
      "🛏️ teak 🛋️ bed",
      "teak\tbed\n",
    ]) {
      const found = await everyResult(`q=${encodeURIComponent(q)}`);
      const words = parseSearch(q).words.map((w) => w.text);
      expect(sortedIds(found.all), q).toEqual(words.includes("and") ? sortedIds(reference(docs, "teak and bed")) : teakBed);
    }
    // Operators as words: NEAR, OR, NOT are ordinary words that products do not have.
    for (const q of ["teak OR bed", "NOT teak", "NEAR(teak bed)", "teak NEAR/2 bed", "col:teak"]) {
      const found = await everyResult(`q=${encodeURIComponent(q)}`);
      expect(sortedIds(found.all), q).toEqual(sortedIds(reference(docs, q)));
    }
    // Nothing to search for: the API says why (400), the page says it in words (200).
    for (const q of ["", " ", "a", "*", "AND OR NOT NEAR * ^ - : ( )".replace(/[A-Z]+/g, ""), '""', "\u0000", "🛋️"]) {
      const error = expectApiError(await api(`q=${encodeURIComponent(q)}`), 400);
      expect(error.errors?.q, JSON.stringify(q)).toEqual(expect.any(String));
      const page = await pageData(`q=${encodeURIComponent(q)}`);
      expect(page.items).toEqual([]);
      expect(page.search.searchable).toBe(false);
    }
    expectApiError(await api(""), 400);
    expect((await pageData("")).search).toEqual({ text: "", searchable: false, shortened: false });
    // 1 KB of text: the API refuses it, the page searches its start and says so.
    const long = Array.from({ length: 200 }, (_, i) => `teak${i}`).join(" ");
    expect(long.length).toBeGreaterThan(1000);
    expect(expectApiError(await api(`q=${encodeURIComponent(long)}`), 400).errors?.q).toMatch(/200 characters/);
    const shortened = await pageData(`q=${encodeURIComponent(long)}`);
    expect(shortened.search.shortened).toBe(true);
    expect(shortened.search.text.length).toBeLessThanOrEqual(200);
    // More than 8 words: the API refuses, the page searches the first 8.
    const nine = "teak bed king size jaipur sheesham wood solid cane";
    expect(expectApiError(await api(`q=${encodeURIComponent(nine)}`), 400).errors?.q).toMatch(/8 words/);
    expect((await pageData(`q=${encodeURIComponent(nine)}`)).search.shortened).toBe(true);
    // A repeated q: the API refuses, the page reads the first.
    expectApiError(await api("q=teak&q=bed"), 400);
    expect((await pageData("q=teak&q=bed")).info.total).toBe(reference(docs, "teak").length);
    // 10 KB of query string of other parameters: still a clean answer.
    const junk = Array.from({ length: 1000 }, (_, i) => `x${i}=y`).join("&");
    expect((await api(`q=teak&${junk}`)).status).toBe(200);
    expect((await openPage(`q=teak&${junk}`)).status).toBe(200);
  });
});

describe("search: pages, sort and filters", () => {
  let docs: Doc[];
  beforeAll(async () => {
    docs = await documents();
  });

  it("the results page shows 24 a page, 'Showing X to Y of Z', the last page, then a 404", async () => {
    const expected = reference(docs, "teak");
    const pages = Math.ceil(expected.length / PAGE);
    expect(pages).toBeGreaterThan(3);
    const first = await pageData("q=teak");
    expect(first.items).toHaveLength(PAGE);
    expect(first.info).toMatchObject({ page: 1, pages, total: expected.length, from: 1, to: PAGE });
    const last = await pageData(`q=teak&page=${pages}`);
    expect(last.items).toHaveLength(expected.length - (pages - 1) * PAGE);
    expect(last.info).toMatchObject({ page: pages, from: (pages - 1) * PAGE + 1, to: expected.length });
    for (const page of [String(pages + 1), "0", "-1", "abc", "2.5", "", "1234567890"]) {
      const answer = await openPage(`q=teak&page=${encodeURIComponent(page)}`);
      expect(answer.status, `page=${page}`).toBe(404);
      expect(answer.body).toBe("Page Not Found");
    }
    expect((await openPage("q=teak&page=1&page=2")).status).toBe(404);
  });

  it("keeps sort and filters across pages, with the filtered total", async () => {
    const cases: [string, Record<string, string>][] = [
      ["sort=price-asc", { sort: "price-asc" }],
      ["sort=price-desc&availability=in-stock", { sort: "price-desc", availability: "in-stock" }],
      ["availability=out-of-stock&sort=price-asc", { availability: "out-of-stock", sort: "price-asc" }],
      ["price=under-15000&sort=price-desc", { price: "under-15000", sort: "price-desc" }],
    ];
    for (const [qs, raw] of cases) {
      const expected = reference(docs, "teak", CategoryQuerySchema.parse(raw));
      expect(expected.length, qs).toBeGreaterThan(0);
      const seen: Item[] = [];
      let pages = 1;
      for (let page = 1; page <= pages; page++) {
        const data = await pageData(`q=teak&${qs}&page=${page}`);
        expect(data.info.total, qs).toBe(expected.length);
        pages = data.info.pages;
        seen.push(...data.items);
      }
      expect(ids(seen), qs).toEqual(ids(expected));
      expect((await openPage(`q=teak&${qs}&page=${pages + 1}`)).status).toBe(404);
      // The API takes the same parameters.
      const viaApi = await everyResult(`q=teak&${qs}`);
      expect(ids(viaApi.all), qs).toEqual(ids(expected));
    }
    // Relevance with a filter: the filtered set, no repeats.
    const featured = await everyResult("q=sofa&featured=1");
    expect(sortedIds(featured.all)).toEqual(sortedIds(reference(docs, "sofa").filter((i) => i.featured)));
  });

  it("unknown filters: the page ignores them with a 400 and a note; the API refuses them", async () => {
    const answer = await openPage("q=teak&availability=sometimes");
    expect(answer.status).toBe(400);
    expect(asRecord(answer.body).invalid).toBe(true);
    expect((answer.body as PageData).info.total).toBe(reference(docs, "teak").length);
    expect((await openPage("q=teak&sort=cheapest")).status).toBe(200);
    expect(expectApiError(await api("q=teak&sort=cheapest"), 400).errors?.sort).toEqual(expect.any(String));
    expectApiError(await api("q=teak&sort=price-asc&sort=price-desc"), 400);
    expect(expectApiError(await api("q=teak&availability=sometimes"), 400).errors?.availability).toEqual(expect.any(String));
    expect(expectApiError(await api("q=teak&price=free"), 400).errors?.price).toEqual(expect.any(String));
  });

  it("GET /api/search: 48 by default, pageSize up to 100, past the end empty, bad paging 400", async () => {
    const expected = reference(docs, "teak");
    const answer = await api("q=teak");
    const body = asRecord(answer.body);
    // Public and the same for every caller: cacheable like the rest of the catalogue API (ADR 0015).
    expect(answer.headers.get("Cache-Control")).toBe(PUBLIC_API_CACHE);
    const etag = answer.headers.get("ETag")!;
    expect(etag).toMatch(/^W\/"/);
    const unchanged = await searchApi.loader(routeArgs(getRequest("/api/search?q=teak", { "If-None-Match": etag })));
    expect(unchanged.status).toBe(304);
    expect((await api("q=a")).headers.get("Cache-Control")).toBe("no-store");
    expect(Object.keys(body).sort()).toEqual(["capped", "items", "page", "pageSize", "total"]);
    expect(body).toMatchObject({ total: expected.length, page: 1, pageSize: 48 });
    expect(body.items as Item[]).toHaveLength(48);
    const all = await everyResult("q=teak");
    expect(ids((body.items as Item[]).slice(0, 48))).toEqual(ids(all.all.slice(0, 48)));
    const pastEnd = await api(`q=teak&page=${Math.ceil(expected.length / 100) + 1}&pageSize=100`);
    expect(pastEnd.status).toBe(200);
    expect(pastEnd.body).toMatchObject({ items: [], total: expected.length });
    const bad: [string, "page" | "pageSize"][] = [
      ["page=0", "page"],
      ["page=-1", "page"],
      ["page=abc", "page"],
      ["page=1&page=2", "page"],
      ["pageSize=0", "pageSize"],
      ["pageSize=101", "pageSize"],
      ["pageSize=100000", "pageSize"],
    ];
    for (const [qs, field] of bad) {
      const error = expectApiError(await api(`q=teak&${qs}`), 400);
      expect(error.errors?.[field], qs).toEqual(expect.any(String));
    }
    const post = await call(
      searchApi.action,
      new Request("http://localhost:3000/api/search?q=teak", {
        method: "POST",
        headers: { Host: "localhost:3000", Origin: "http://localhost:3000" },
      }),
    );
    expectApiError(post, 405);
  });

  it("the suggestions' call: six most relevant products, the same as the first six of the page", async () => {
    const six = (await api("q=king%20teak&pageSize=6")).body as ApiBody;
    expect(six.items).toHaveLength(6);
    expect(ids(six.items)).toEqual(ids((await pageData("q=king%20teak")).items.slice(0, 6)));
  });
});

async function found(q: string): Promise<number[]> {
  return ids((await searchItems(parseSearch(q).words, undefined, { offset: 0, limit: 100 })).rows);
}

describe("the index stays in step with the catalogue", () => {
  it("after an admin edit of a product: its new words are found, its old ones are not", async () => {
    const product = await db
      .selectFrom("items")
      .selectAll()
      .where("title", "like", "%King Size Bed")
      .where(soldAsOne)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const item = (await getProductForAdmin(product.id))!;
    expect(await found("zebrawood")).toEqual([]);
    await updateProduct(
      item.id,
      {
        title: "Zebrawood Four Poster",
        categoryId: item.categoryId,
        price: item.price,
        imgPath: item.imgPath,
        description: item.description,
        featured: item.featured,
        madeToOrder: item.madeToOrder,
        specifications: { ...item.specifications, Finish: "Quokka lacquer" },
        stock: null,
        version: item.version,
      },
      BUILTIN_OWNER,
    );
    expect(await found("zebrawood")).toEqual([item.id]);
    expect(await found("four poster")).toEqual([item.id]);
    expect(await found("quokka lacquer")).toEqual([item.id]);
    expect(await found(product.title)).not.toContain(item.id);
    // A stock change alone leaves the index as it was.
    const edited = (await getProductForAdmin(item.id))!;
    await updateProduct(item.id, { ...edited, stock: { by: 1, keepInStock: true }, version: edited.version }, BUILTIN_OWNER);
    expect(await found("zebrawood")).toEqual([item.id]);
  });

  it("after a category rename: its products are found by the new title, not the old", async () => {
    const office = await db.selectFrom("categories").selectAll().where("slug", "=", "office").executeTakeFirstOrThrow();
    const count = toCount(
      (
        await db
          .selectFrom("items")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("categoryId", "=", office.id)
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect((await searchItems(parseSearch("workspace").words)).total).toBe(0);
    const started = performance.now();
    await updateCategory(office.id, { title: "Home Workspace", description: office.description, imgPath: office.imgPath }, BUILTIN_OWNER);
    console.info(`renaming a category of ${count} products took ${(performance.now() - started).toFixed(0)} ms`);
    expect((await searchItems(parseSearch("workspace").words)).total).toBe(count);
    const stillOffice = await searchItems(parseSearch("office").words, undefined, { offset: 0, limit: 100 });
    expect(stillOffice.total).toBeLessThan(count);
    await updateCategory(office.id, { title: office.title, description: office.description, imgPath: office.imgPath }, BUILTIN_OWNER);
    expect((await searchItems(parseSearch("workspace").words)).total).toBe(0);
  });

  it("after a product is deleted: it is found no more", async () => {
    const product = await db
      .selectFrom("items")
      .selectAll()
      .where("title", "like", "%Recliner")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(await found(product.title)).toContain(product.id);
    await deleteProduct(product.id, BUILTIN_OWNER);
    expect(await found(product.title)).not.toContain(product.id);
    const total = (await searchItems(parseSearch("recliner").words)).total;
    expect(total).toBe(reference(await documents(), "recliner").length);
  });

  it("after a CSV import: created and updated products are found by their new words", async () => {
    const existing = await db
      .selectFrom("items")
      .selectAll()
      .where("title", "like", "%Study Desk")
      .where(soldAsOne)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const category = await db.selectFrom("categories").select("slug").where("id", "=", existing.categoryId).executeTakeFirstOrThrow();
    const row = (fields: Partial<Record<(typeof CSV_COLUMNS)[number], string | number>>) => {
      const full: Record<string, string | number> = {
        slug: "",
        title: "Okapi Reading Stool",
        category: "office",
        price: 4999,
        stock: 3,
        featured: "no",
        description: "A stool for the search tests.",
        imgPath: "/images/products/okapi.svg",
        specifications: '{"Material":"Padauk"}',
        version: "",
        ...fields,
      };
      return CSV_COLUMNS.map((c) => String(full[c] ?? ""));
    };
    const csv = stringify(
      [
        [...CSV_COLUMNS],
        row({}),
        row({
          slug: existing.slug,
          title: "Narwhal Writing Desk",
          category: category.slug,
          price: existing.price,
          stock: "",
          description: existing.description,
          imgPath: existing.imgPath,
          specifications: existing.specifications,
          version: existing.version,
        }),
      ],
      { record_delimiter: "windows" },
    );
    expect(await importProductsCsv(csv, BUILTIN_OWNER)).toEqual({ created: 1, updated: 1 });
    const created = await db.selectFrom("items").select("id").where("title", "=", "Okapi Reading Stool").executeTakeFirstOrThrow();
    expect(await found("okapi")).toEqual([created.id]);
    expect(await found("padauk")).toEqual([created.id]);
    expect(await found("narwhal writing")).toEqual([existing.id]);
    expect(await found(existing.title)).not.toContain(existing.id);
  });
});

/** The database's own answer: which relevance tiers' indexes (migration 0017; the last is 0011's) hold product `id` for `q`. */
async function indexedTiers(id: number, q: string): Promise<boolean[]> {
  const words = parseSearch(q).words;
  if (isPostgresUrl(process.env.DATABASE_URL ?? "")) {
    const query = words.map((w) => `'${w.text}'${w.prefix ? ":*" : ""}`).join(" & ");
    const columns = ["title_words", "title_category_words", "title_category_specs_words", "document"];
    const found = await sql<Record<string, boolean>>`select ${sql.join(
      columns.map((c, i) => sql`${sql.ref(c)} @@ to_tsquery('simple', ${query}) as ${sql.ref(`t${i}`)}`),
    )} from items_search where item_id = ${id}`.execute(db);
    // No row at all: the product is in no tier (deleted).
    return columns.map((_, i) => found.rows[0]?.[`t${i}`] === true);
  }
  const match = words.map((w) => `"${w.text}"${w.prefix ? "*" : ""}`).join(" ");
  const tables = ["items_fts_title", "items_fts_title_category", "items_fts_title_category_specs", "items_fts_all"];
  const out: boolean[] = [];
  for (const table of tables) {
    // `rowid + 0`: FTS5 takes a plain `rowid = ?` beside MATCH as its own and answers every match.
    const found = await sql<{ rowid: number }>`select rowid from ${sql.raw(table)} where ${sql.raw(table)} match ${match}
      and rowid + 0 = ${id}`.execute(db);
    out.push(found.rows.length === 1);
  }
  return out;
}

/** What the tiers' indexes should say of product `id` for `q`, from its row (the reference's words); all false once deleted. */
async function expectedTiers(id: number, q: string): Promise<boolean[]> {
  const doc = (await documents()).find((d) => d.item.id === id);
  const words = parseSearch(q).words;
  if (!doc) return [false, false, false, false];
  return [...doc.tierWords, doc.words].map((set) => holdsAll(set, words));
}

describe("each relevance tier's index stays in step (migration 0017)", () => {
  it("an edit, a category rename and a delete are reflected in every tier, on the right tiers only", async () => {
    const product = await db.selectFrom("items").selectAll().where("title", "like", "%Bookshelf").orderBy("id").executeTakeFirstOrThrow();
    const category = await db.selectFrom("categories").selectAll().where("id", "=", product.categoryId).executeTakeFirstOrThrow();
    const check = async (q: string, tiers: boolean[]) => {
      expect(await expectedTiers(product.id, q), `reference: ${q}`).toEqual(tiers);
      expect(await indexedTiers(product.id, q), q).toEqual(tiers);
    };
    // An edit: new words in the title (every tier), a specification (the last two), the description (the last only).
    const item = (await getProductForAdmin(product.id))!;
    await updateProduct(
      item.id,
      {
        title: "Quetzal Bookshelf",
        categoryId: item.categoryId,
        price: item.price,
        imgPath: item.imgPath,
        description: `${item.description} Narwhalish grain.`,
        featured: item.featured,
        madeToOrder: item.madeToOrder,
        specifications: { ...item.specifications, Finish: "Axolotl oil" },
        stock: null,
        version: item.version,
      },
      BUILTIN_OWNER,
    );
    await check("quetzal", [true, true, true, true]);
    await check("axolotl", [false, false, true, true]);
    await check("narwhalish", [false, false, false, true]);
    await check("quetzal axolotl", [false, false, true, true]);
    // The old title as a search: no longer every word in the title (the indexes agree with the reference elsewhere).
    const old = await indexedTiers(product.id, product.title);
    expect(old[0]).toBe(false);
    expect(old).toEqual(await expectedTiers(product.id, product.title));
    // A category rename: the product's category words are in the second tier on, the old ones nowhere.
    await updateCategory(
      category.id,
      { title: "Pangolin Rooms", description: category.description, imgPath: category.imgPath },
      BUILTIN_OWNER,
    );
    try {
      await check("pangolin", [false, true, true, true]);
      await check("quetzal pangolin", [false, true, true, true]);
    } finally {
      await updateCategory(
        category.id,
        { title: category.title, description: category.description, imgPath: category.imgPath },
        BUILTIN_OWNER,
      );
    }
    await check("pangolin", [false, false, false, false]);
    // A delete: in no tier.
    await deleteProduct(product.id, BUILTIN_OWNER);
    await check("quetzal", [false, false, false, false]);
    await check("axolotl", [false, false, false, false]);
    expect(await found("quetzal")).toEqual([]);
  });
});

describe("migrations 2026-11-25-0011-search-index and 2026-11-26-0017-search-tier-indexes", () => {
  const raw = () => db.withoutPlugins() as unknown as Parameters<typeof m0011.up>[0];

  it("0011's down drops the index and its triggers (the catalogue still takes writes); up rebuilds it from the products", async () => {
    const before = (await searchItems(parseSearch("teak").words)).total;
    const product = await db
      .selectFrom("items")
      .select(["id", "title"])
      .where("title", "like", "%Coffee Table")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    // 0017 builds on 0011 (on PostgreSQL its columns are items_search's): down in reverse order, up in order.
    await m0017.down(raw());
    await m0011.down(raw());
    try {
      // A word not searched before: a search's reads are kept while the data generation is current,
      // and a migration's DDL moves none (the shop migrates before it serves).
      await expect(searchItems(parseSearch("pangolin ocelot").words)).rejects.toThrow();
      // No trigger is left behind to fail a write.
      await db.updateTable("items").set({ title: "Ocelot Coffee Table" }).where("id", "=", product.id).execute();
    } finally {
      await m0011.up(raw());
      await m0017.up(raw());
    }
    expect((await searchItems(parseSearch("teak").words)).total).toBe(before);
    expect(await found("ocelot")).toEqual([product.id]);
    await db.updateTable("items").set({ title: product.title }).where("id", "=", product.id).execute();
    expect(await found("ocelot")).toEqual([]);
  });

  it("0017's down drops the tier indexes and their triggers; up builds them for the catalogue already there", async () => {
    const docs = await documents();
    const product = await db
      .selectFrom("items")
      .select(["id", "title"])
      .where("title", "like", "%Wardrobe")
      .orderBy("id")
      .executeTakeFirstOrThrow();
    await m0017.down(raw());
    try {
      await expect(searchItems(parseSearch("teak caracal").words)).rejects.toThrow(); // a word not searched before (above)
      await db.updateTable("items").set({ title: "Caracal Wardrobe" }).where("id", "=", product.id).execute();
    } finally {
      const started = performance.now();
      await m0017.up(raw());
      console.info(`migration 0017's up over ${docs.length} products took ${(performance.now() - started).toFixed(0)} ms`);
    }
    // Built from the products as they are now, including the edit made while it was down.
    expect(await indexedTiers(product.id, "caracal")).toEqual([true, true, true, true]);
    expect(ids((await everyResult("q=teak")).all)).toEqual(ids(reference(await documents(), "teak")));
    // Its triggers work again.
    await db.updateTable("items").set({ title: product.title }).where("id", "=", product.id).execute();
    expect(await indexedTiers(product.id, "caracal")).toEqual([false, false, false, false]);
  });
});

// One filtered, price-sorted search of a common word once blocked SQLite for a second: such a search stays bounded.
describe(`a search of more than ${SEARCH_MAX_RESULTS} matches`, () => {
  let docs: Doc[];
  beforeAll(async () => {
    docs = await documents();
  });

  it("its filters, sort, count and pages cover its most relevant matches only, on the API and the page", async () => {
    const word = ["wo", "st", "co", "so", "ch", "ta", "be", "wi", "fi", "re"].find((w) => reference(docs, w).length > SEARCH_MAX_RESULTS);
    expect(word, "a common prefix of the seeded catalogue").toBeDefined();
    const best = reference(docs, word!).slice(0, SEARCH_MAX_RESULTS);

    const plain = (await api(`q=${word}`)).body as ApiBody & { capped: boolean };
    expect(plain).toMatchObject({ total: SEARCH_MAX_RESULTS, capped: true });
    expect(ids(plain.items)).toEqual(ids(best.slice(0, 48)));

    const cheapest = (await api(`q=${word}&sort=price-asc&pageSize=100&page=2`)).body as ApiBody & { capped: boolean };
    const byPrice = [...best].sort((a, b) => a.price - b.price || a.id - b.id);
    expect(cheapest).toMatchObject({ total: SEARCH_MAX_RESULTS, capped: true });
    expect(ids(cheapest.items)).toEqual(ids(byPrice.slice(100, 200)));

    const inStock = (await api(`q=${word}&availability=in-stock&pageSize=100`)).body as ApiBody & { capped: boolean };
    const bestInStock = best.filter((i) => i.stock > 0);
    expect(inStock.total).toBe(bestInStock.length);
    expect(ids(inStock.items)).toEqual(ids(bestInStock.slice(0, 100)));

    // Past the most relevant: nothing, on the API; the page's last page is the last of them, then a 404.
    const past = (await api(`q=${word}&pageSize=100&page=${SEARCH_MAX_RESULTS / 100 + 1}`)).body as ApiBody;
    expect(past.items).toEqual([]);
    const page = await pageData(`q=${word}`);
    expect(page.info).toMatchObject({ total: SEARCH_MAX_RESULTS, pages: Math.ceil(SEARCH_MAX_RESULTS / 24) });
    expect((await openPage(`q=${word}&page=${Math.ceil(SEARCH_MAX_RESULTS / 24) + 1}`)).status).toBe(404);
  });
});

// Sixth security check: crafted many-word searches of common words still cost 0.1-0.4 s of SQLite each.
describe("slow searches count against the address", () => {
  it(`past ${LIMITS.slowSearch.max} slow searches in a minute an address is refused (429); fast ones never count`, async () => {
    const words = parseSearch("teak bed").words;
    const NO_QUERY = CategoryQuerySchema.parse({});
    const saved = SLOW_SEARCH.ms;
    try {
      SLOW_SEARCH.ms = 60_000; // nothing is slow: any number of searches passes
      const patient = { ip: "203.0.113.210" };
      for (let i = 0; i < LIMITS.slowSearch.max + 5; i++) await searchFor(patient, words, NO_QUERY, { offset: 0, limit: 6 });
      SLOW_SEARCH.ms = -1; // every search is slow
      const heavy = { ip: "203.0.113.211" };
      for (let i = 0; i < LIMITS.slowSearch.max; i++) await searchFor(heavy, words, NO_QUERY, { offset: 0, limit: 6 });
      await expect(searchFor(heavy, words, NO_QUERY, { offset: 0, limit: 6 })).rejects.toMatchObject({
        status: 429,
        message: TOO_MANY_SLOW_SEARCHES,
      });
      // The page answers 429 too, not an error (the address as a trusted proxy names it); another address is not held.
      const trusted = env.TRUST_PROXY;
      env.TRUST_PROXY = true;
      try {
        expect(clientOf(getRequest("/", { "X-Forwarded-For": heavy.ip })).ip).toBe(heavy.ip);
        expect((await call(searchPage.loader, getRequest("/search?q=teak", { "X-Forwarded-For": heavy.ip }))).status).toBe(429);
      } finally {
        env.TRUST_PROXY = trusted;
      }
      await expect(searchFor({ ip: "203.0.113.212" }, words, NO_QUERY, { offset: 0, limit: 6 })).resolves.toBeTruthy();
    } finally {
      SLOW_SEARCH.ms = saved;
      await db.deleteFrom("rateLimits").where("key", "like", "slow-search:%").execute();
    }
  });
});
