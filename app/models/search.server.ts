// Catalogue search (issue 14, item 3; docs/decisions/0014): one verb for the results page, the
// API and the header's suggestions. Each database's own full-text indexes (migrations 0011 and
// 0017: one per relevance tier) find the products whose title, description, category title or
// specification values hold every word (the words come from app/utils/search.ts, so nothing the
// shopper types is ever an operator); the category page's filters and sorts apply among the matches,
// by id. Relevance, the same on both (ADR 0014): every word in the title first, then in the title or
// category, then in those or the specifications, then anywhere; by product id within each tier, so
// pages never overlap.
import type { ExpressionBuilder, Kysely, SqlBool } from "kysely";
import { PostgresAdapter, sql } from "kysely";
import type { ListPage, RowWindow } from "~/lib/api-params.server";
import type { Db } from "~/lib/db.server";
import { db as defaultDb, toCount } from "~/lib/db.server";
import type { DB } from "~/lib/db-schema";
import type { Item } from "~/utils/catalogue";
import type { CategoryQuery } from "~/utils/catalogue-schemas";
import type { SearchWord, RELEVANCE_TIERS } from "~/utils/search";
import { fts5Match, SEARCH_MAX_RESULTS, tsQuery } from "~/utils/search";
import { itemFilters, toItem } from "./catalogue.server";

/**
 * The index tables, which the application schema does not list (only this module reads them):
 * migration 0011's index of every field, and 0017's of each relevance tier's fields.
 */
interface SearchTables {
  /** SQLite FTS5, contentless (detail=none): rowid is the item's id; every field (the last tier) */
  itemsFtsAll: { rowid: number };
  /** SQLite FTS5 (detail=none), one per tier before the last: the words of the tier's fields */
  itemsFtsTitle: { rowid: number };
  itemsFtsTitleCategory: { rowid: number };
  itemsFtsTitleCategorySpecs: { rowid: number };
  /** PostgreSQL: one row per item, a tsvector of every field and one of each tier's fields, each with a GIN index */
  itemsSearch: { itemId: number; document: string; titleWords: string; titleCategoryWords: string; titleCategorySpecsWords: string };
}
type SearchDb = Kysely<DB & SearchTables>;

/**
 * Each relevance tier's index (RELEVANCE_TIERS' fields): on SQLite an FTS5 table, on PostgreSQL a
 * tsvector column of items_search. A tier's products are a plain match of its index; the index of
 * a tier holds the previous tier's products too (their words are a subset), which acrossTiers skips.
 */
const TIER_INDEXES = [
  { table: "itemsFtsTitle", column: "titleWords" },
  { table: "itemsFtsTitleCategory", column: "titleCategoryWords" },
  { table: "itemsFtsTitleCategorySpecs", column: "titleCategorySpecsWords" },
  { table: "itemsFtsAll", column: "document" },
] as const satisfies readonly { table: keyof SearchTables; column: keyof SearchTables["itemsSearch"] }[] & {
  length: (typeof RELEVANCE_TIERS)["length"];
};

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export type SearchQuery = CategoryQuery;

const NO_FILTER: SearchQuery = { sort: "default", availability: [], price: [], featured: undefined };

/** The filters as one condition (true without any). */
function filtersOf(query: SearchQuery) {
  return (eb: ExpressionBuilder<DB & SearchTables, "items">) => {
    const parts = itemFilters(eb as unknown as ExpressionBuilder<DB, "items">, query);
    return parts.length ? eb.and(parts) : sql<SqlBool>`1 = 1`;
  };
}

const hasFilters = (query: SearchQuery) => query.availability.length > 0 || query.price.length > 0 || Boolean(query.featured);

const isPostgres = (db: SearchDb) => db.getExecutor().adapter instanceof PostgresAdapter;

interface Matches {
  /**
   * The first COUNT_LIMIT matching ids, from the index alone (SQLite in id order, PostgreSQL in no
   * order): how many match, counted no further than that, and every match when there are no more.
   */
  firstIds: () => Promise<number[]>;
  /** one window of the matching products' ids, most relevant first: by tier, then id (filters apply afterwards, among them) */
  relevantIds: (window: RowWindow) => Promise<number[]>;
}

/** The bounded count's figure: one past the most matches a search considers. */
const COUNT_LIMIT = SEARCH_MAX_RESULTS + 1;

/**
 * A window of ids across the relevance tiers, one after another, each in id order. `idsOf(tier,
 * limit)` reads the first `limit` ids of a tier's index, which holds the earlier
 * tiers' products too: those already taken are skipped here. Each index is read up to the window's
 * end (offset + limit, which searchItems keeps within SEARCH_MAX_RESULTS + a page), never counted: a
 * tier is read only when the earlier ones ran out, so every earlier product is known by then and at
 * most that many of the read ids are skipped. A common word's first page reads its first 24 title
 * matches and stops there.
 */
async function acrossTiers(idsOf: (tier: number, limit: number) => Promise<number[]>, window: RowWindow): Promise<number[]> {
  const wanted = window.offset + window.limit;
  const ids: number[] = [];
  const taken = new Set<number>();
  for (let tier = 0; tier < TIER_INDEXES.length && ids.length < wanted; tier++) {
    for (const id of await idsOf(tier, wanted)) {
      if (taken.has(id)) continue;
      taken.add(id);
      ids.push(id);
    }
  }
  return ids.slice(window.offset, wanted);
}

/** Once, when first asked for (the count and the last tier share one read of the index). */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let promise: Promise<T> | undefined;
  return () => (promise ??= make());
}

/**
 * PostgreSQL's tiers. A GIN index gives its matches in no order, so a tier's first ids in id order
 * come either from a walk of the primary key that tests each product (cheap when the tier is dense:
 * it stops at the window's end) or from the tier's GIN index, every match then sorted (cheap when it
 * is sparse). The planner cannot tell which (a prefix's estimate is a guess: an empty title tier was
 * walked end to end, 134 ms), so the search decides from what it sees: it walks the first
 * WALK_FIRST products (their tiers all at once, about 2 ms), then per tier walks on while the
 * density it saw makes the walk to the window's end cheaper than reading the tier's matches by GIN
 * (need / density against density x products), else reads them by GIN. Either way a tier costs at
 * most about sqrt(window x products) rows: 14,000 for 2,000 of 100,000. Only a search of more than
 * SEARCH_MAX_RESULTS matches walks: the tiers of fewer are read by id.
 */
const WALK_FIRST = 4_000;

interface WalkSegment {
  /** per tier, the ids of the walked products in that tier (or an earlier one), in id order */
  tiers: number[][];
  /** the last id walked (null: none) */
  last: number | null;
  walked: number;
}

function postgresMatches(db: SearchDb, words: SearchWord[]): Matches {
  const query = sql`to_tsquery('simple', ${tsQuery(words)})`;
  const inColumn = (column: string) => sql<SqlBool>`${sql.ref(`itemsSearch.${column}`)} @@ ${query}`;
  // The tier of a product: the first tier whose column holds every word (null: no match).
  const tierCase = sql<number | null>`case when ${inColumn("document")} then case when ${inColumn("titleWords")} then 0
    when ${inColumn("titleCategoryWords")} then 1 when ${inColumn("titleCategorySpecsWords")} then 2 else 3 end end`;
  const walk = async (after: number, count: number): Promise<WalkSegment> => {
    const walked = db
      .selectFrom("itemsSearch")
      .select(["itemsSearch.itemId as id", tierCase.as("tier")])
      .where("itemsSearch.itemId", ">", after)
      .orderBy("itemsSearch.itemId")
      .limit(count)
      .as("w");
    const row = await db
      .selectFrom(walked)
      .select([
        ...TIER_INDEXES.map((_, tier) =>
          sql<number[] | null>`array_agg(w.id order by w.id) filter (where w.tier <= ${tier})`.as(`t${tier}`),
        ),
        sql<number | null>`max(w.id)`.as("last"),
        sql<string>`count(*)`.as("walked"),
      ])
      .executeTakeFirstOrThrow();
    const record = row as unknown as Record<string, number[] | null>;
    return { tiers: TIER_INDEXES.map((_, tier) => record[`t${tier}`] ?? []), last: row.last, walked: toCount(row.walked) };
  };
  const products = once(async () => {
    const found = await sql<{
      n: number;
    }>`select greatest(reltuples, 0)::integer as n from pg_class where oid = 'items_search'::regclass`.execute(db);
    return found.rows[0]?.n ?? 0;
  });
  const byGin = async (tier: number, limit: number) => {
    // Materialized: every match of the tier's column, by its GIN index, then the first by id.
    const found = await db
      .with(
        (cte) => cte("m").materialized(),
        () => db.selectFrom("itemsSearch").select("itemsSearch.itemId as id").where(inColumn(TIER_INDEXES[tier]!.column)),
      )
      .selectFrom("m")
      .select("m.id")
      .orderBy("m.id")
      .limit(limit)
      .execute();
    return found.map((r) => r.id);
  };
  // What the walk has seen so far, shared by the count and the tiers of one search.
  const seen: WalkSegment = { tiers: TIER_INDEXES.map(() => []), last: 0, walked: 0 };
  let done = false;
  const extend = async (count: number) => {
    const next = await walk(seen.last ?? 0, count);
    next.tiers.forEach((ids, tier) => seen.tiers[tier]!.push(...ids));
    if (next.last !== null) seen.last = next.last;
    seen.walked += next.walked;
    done = next.walked < count;
  };
  /** The first `limit` ids of a tier in id order: walked on while that is the cheaper way (above), else by its GIN index. */
  const tierIds = async (tier: number, limit: number, gin: (limit: number) => Promise<number[]>) => {
    if (seen.walked === 0 && !done) await extend(WALK_FIRST);
    for (;;) {
      const have = seen.tiers[tier]!;
      if (have.length >= limit || done) return have.slice(0, limit);
      const density = have.length / seen.walked;
      const toWalk = density > 0 ? (limit - have.length) / density : Infinity;
      if (toWalk > density * (await products())) return gin(limit);
      await extend(Math.ceil(toWalk * 1.2) + 100);
    }
  };
  const last = TIER_INDEXES.length - 1;
  // The bounded count: COUNT_LIMIT matches in no order, as the planner reads them best. A walk first cost
  // every ordinary search its 4,000 rows (12 ms under load) for nothing when the count fell to the GIN index.
  const firstIds = once(async () =>
    (await db.selectFrom("itemsSearch").select("itemId").where(inColumn("document")).limit(COUNT_LIMIT).execute()).map((r) => r.itemId),
  );
  return {
    firstIds,
    relevantIds: async (window) => {
      const matched = await firstIds();
      if (matched.length <= SEARCH_MAX_RESULTS) {
        // Every match is known: their tiers, read by primary key (at most SEARCH_MAX_RESULTS rows), ordered here.
        const found = await db
          .selectFrom("itemsSearch")
          .select(["itemsSearch.itemId as id", tierCase.as("tier")])
          .where(sql<SqlBool>`items_search.item_id = any(${matched}::int[])`)
          .execute();
        found.sort((a, b) => (a.tier ?? last) - (b.tier ?? last) || a.id - b.id);
        return found.slice(window.offset, window.offset + window.limit).map((r) => r.id);
      }
      return acrossTiers((tier, limit) => tierIds(tier, limit, (n) => byGin(tier, n)), window);
    },
  };
}

/** The matching products and their relevance, per database: SQLite FTS5 or PostgreSQL tsvector. */
function matches(db: SearchDb, words: SearchWord[]): Matches {
  if (isPostgres(db)) return postgresMatches(db, words);
  const match = fts5Match(words);
  // The first matches in id order, from the index alone (it holds one row a product): the bounded count,
  // and the last tier's ids (a window never ends past them), in one read.
  const first = once(async () =>
    (
      await db
        .selectFrom("itemsFtsAll")
        .select(sql<number>`items_fts_all.rowid`.as("id"))
        .where(sql<SqlBool>`items_fts_all match ${match}`)
        .orderBy(sql`items_fts_all.rowid`)
        .limit(COUNT_LIMIT)
        .execute()
    ).map((r) => r.id),
  );
  return {
    firstIds: first,
    // Each tier's FTS5 table alone, a plain match: the index gives rowids in order.
    relevantIds: (window) =>
      acrossTiers(async (n, limit) => {
        if (n === TIER_INDEXES.length - 1 && limit <= COUNT_LIMIT) return (await first()).slice(0, limit);
        const table = TIER_INDEXES[n]!.table;
        const name = sql.raw(snake(table));
        const found = await db
          .selectFrom(table as "itemsFtsAll")
          .select(sql<number>`${name}.rowid`.as("id"))
          .where(sql<SqlBool>`${name} match ${match}`)
          .orderBy(sql`${name}.rowid`)
          .limit(limit)
          .execute();
        return found.map((r) => r.id);
      }, window),
  };
}

/**
 * A window of products in relevance order: the ids from the index (and the filters), then those
 * products by id. A product deleted in between is left out of the page.
 */
async function relevantPage(db: Db, search: Matches, window: RowWindow): Promise<Item[]> {
  const ids = await search.relevantIds(window);
  if (ids.length === 0) return [];
  const rows = await db.selectFrom("items").selectAll().where("id", "in", ids).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toItem(row)] : [];
  });
}

/** The part of a window that lies within the SEARCH_MAX_RESULTS most relevant results (limit 0 past them). */
function withinMostRelevant(window: RowWindow): RowWindow {
  return { offset: window.offset, limit: Math.max(0, Math.min(window.limit, SEARCH_MAX_RESULTS - window.offset)) };
}

export interface SearchPage extends ListPage<Item> {
  /** more than SEARCH_MAX_RESULTS products matched: only the most relevant of them were considered */
  capped: boolean;
}

/**
 * One page of the products that match every word, filtered and sorted like a category page
 * (sort `default` is relevance), and how many match: exactly, up to SEARCH_MAX_RESULTS; past it
 * the page and the count come from the SEARCH_MAX_RESULTS most relevant matches (`capped`). The
 * full-text indexes are read for at most SEARCH_MAX_RESULTS + 1 ids (the bounded count) and each
 * tier up to the window's end; no words answer nothing without asking the database.
 */
export async function searchItems(
  words: SearchWord[],
  query: SearchQuery = NO_FILTER,
  window: RowWindow = { offset: 0, limit: 24 },
  db: Db = defaultDb,
): Promise<SearchPage> {
  if (words.length === 0) return { rows: [], total: 0, capped: false };
  const search = matches(db as unknown as SearchDb, words);
  if (!hasFilters(query) && query.sort === "default") {
    // The page and the bounded count side by side: the page needs no count (it stops within the figure).
    const within = withinMostRelevant(window);
    const [rows, matched] = await Promise.all([within.limit > 0 ? relevantPage(db, search, within) : [], search.firstIds()]);
    return { rows, total: Math.min(matched.length, SEARCH_MAX_RESULTS), capped: matched.length > SEARCH_MAX_RESULTS };
  }
  // Filters and price sorts apply to the SEARCH_MAX_RESULTS most relevant matches, or to every match
  // when there are no more: the full-text index is asked once for them, never again with the filters.
  const matched = await search.firstIds();
  const capped = matched.length > SEARCH_MAX_RESULTS;
  const ids = capped || query.sort === "default" ? await search.relevantIds({ offset: 0, limit: SEARCH_MAX_RESULTS }) : matched;
  return { ...(await among(db, ids, query, window)), capped };
}

/**
 * The filters, sort, count and page of a search among `ids` (at most SEARCH_MAX_RESULTS products,
 * in relevance order when the sort is relevance): one read by primary key of the ids that pass the
 * filters and their prices, ordered here, then the page's products (a window past them is empty).
 */
async function among(db: Db, ids: number[], query: SearchQuery, window: RowWindow): Promise<ListPage<Item>> {
  const within = withinMostRelevant(window);
  // The ids as one parameter (a JSON array; PostgreSQL an int[]), not 2,000: one short statement to prepare.
  const idIn = isPostgres(db as unknown as SearchDb)
    ? sql<SqlBool>`items.id = any(${ids}::int[])`
    : sql<SqlBool>`items.id in (select value from json_each(${JSON.stringify(ids)}))`;
  const passing = await (db as unknown as SearchDb)
    .selectFrom("items")
    .select(["items.id", "items.price"])
    .where(idIn)
    .where(filtersOf(query))
    .execute();
  const total = passing.length;
  if (within.limit === 0 || total === 0) return { rows: [], total };
  let order: number[];
  if (query.sort === "default") {
    // Relevance: the ids that pass, in the relevance order they came in.
    const passed = new Set(passing.map((r) => r.id));
    order = ids.filter((id) => passed.has(id));
  } else {
    const sign = query.sort === "price-asc" ? 1 : -1;
    order = passing.sort((a, b) => sign * (a.price - b.price || a.id - b.id)).map((r) => r.id);
  }
  const page = order.slice(within.offset, within.offset + within.limit);
  if (page.length === 0) return { rows: [], total };
  const found = await db.selectFrom("items").selectAll().where("id", "in", page).execute();
  const byId = new Map(found.map((r) => [r.id, r]));
  return { rows: page.flatMap((id) => (byId.has(id) ? [toItem(byId.get(id)!)] : [])), total };
}
