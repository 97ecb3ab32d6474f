// Catalogue search (issue 14, item 3; docs/decisions/0014): one verb for the results page, the
// API and the header's suggestions. Each database's own full-text index (migration 0011) finds
// the products whose title, description, category title or specification values hold every word
// (the words come from app/utils/search.ts, so nothing the shopper types is ever an operator);
// the category page's filters and sorts apply on top, in SQL. Relevance, the same on both (ADR 0014):
// every word in the title first, then in the title or category, then in those or the specifications,
// then anywhere; by product id within each tier, so pages never overlap.
import type { ExpressionBuilder, Kysely, SelectQueryBuilder, SqlBool } from "kysely";
import { PostgresAdapter, sql } from "kysely";
import type { ListPage, RowWindow } from "~/lib/api-params.server";
import type { Db } from "~/lib/db.server";
import { db as defaultDb, toCount } from "~/lib/db.server";
import type { DB } from "~/lib/db-schema";
import type { CategoryQuery, Item } from "~/utils/catalogue";
import type { SearchWord } from "~/utils/search";
import { fts5Match, fts5TierMatch, RELEVANCE_TIERS, SEARCH_MAX_RESULTS, tsQuery } from "~/utils/search";
import { itemFilters, toItem } from "./catalogue.server";

/** The index tables of migration 0011, which the application schema does not list (only this module reads them). */
interface SearchTables {
  /** SQLite FTS5, contentless: rowid is the item's id; rank is bm25 with the table's weights */
  itemsFts: { rowid: number; rank: number };
  /** PostgreSQL: one weighted tsvector per item */
  itemsSearch: { itemId: number; document: string };
}
type SearchDb = Kysely<DB & SearchTables>;

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

/** The products matching the words (FROM and WHERE only), as rows of `items`. */
type Matching = SelectQueryBuilder<DB & SearchTables, "items", object>;
/** Rows of SQLite's index (FROM and WHERE only), joined to `items` when filtered. */
type FtsRows = SelectQueryBuilder<DB & SearchTables, "itemsFts", object>;

interface Matches {
  rows: () => Matching;
  /** one window of the matching products' ids (with the filters), most relevant first: by tier, then id */
  relevantIds: (query: SearchQuery, window: RowWindow) => Promise<number[]>;
}

/**
 * A window of ids across relevance tiers taken one after another, each in id order: each tier is
 * asked only for as many rows as the window still needs from its start (offset + limit, which
 * searchItems keeps within SEARCH_MAX_RESULTS + a page), and no tier is ever counted (a count of a
 * tier walks every match of its words: the sixth security check's costliest queries). A common
 * word's first page reads its first 24 title matches from the index and stops there.
 */
async function acrossTiers(idsOf: (tier: number, limit: number) => Promise<number[]>, window: RowWindow): Promise<number[]> {
  const wanted = window.offset + window.limit;
  const ids: number[] = [];
  for (let tier = 0; tier < RELEVANCE_TIERS.length && ids.length < wanted; tier++) ids.push(...(await idsOf(tier, wanted - ids.length)));
  return ids.slice(window.offset, wanted);
}

/**
 * PostgreSQL's first pages: a window ending within PROBE_WINDOW is looked for among the first
 * PROBE_ROWS products in id order (a primary-key walk, about 2 ms), and taken when they hold it
 * whole; else (a rare word, or one seldom in titles) the one pass over every match decides.
 */
const PROBE_WINDOW = 100;
const PROBE_ROWS = 4_000;

/** The matching products and their relevance, per database: SQLite FTS5 or PostgreSQL tsvector. */
function matches(db: SearchDb, words: SearchWord[]): Matches {
  if (isPostgres(db)) {
    const query = sql`to_tsquery('simple', ${tsQuery(words)})`;
    // The tier of a matching row: the first tier whose weights hold every word (ADR 0014).
    const inTier = (tier: number, table = "items_search") =>
      sql<SqlBool>`${sql.ref(`${table}.document`)} @@ to_tsquery('simple', ${tsQuery(words, RELEVANCE_TIERS[tier]!.weights)})`;
    const tierOf = sql<number>`case when ${inTier(0)} then 0 when ${inTier(1)} then 1 when ${inTier(2)} then 2 else 3 end`;
    const rows = () =>
      db
        .selectFrom("itemsSearch")
        .innerJoin("items", "items.id", "itemsSearch.itemId")
        .where(sql<SqlBool>`items_search.document @@ ${query}`) as unknown as Matching;
    return {
      rows,
      relevantIds: async (filters, window) => {
        // A first page of a common word: its title matches are dense, so the first few thousand ids
        // hold the window (exactly the window a full pass would give: tier 0 comes first, in id order).
        if (!hasFilters(filters) && window.offset + window.limit <= PROBE_WINDOW) {
          const head = db.selectFrom("itemsSearch").select(["itemId", "document"]).orderBy("itemId").limit(PROBE_ROWS).as("head");
          const probed = await db
            .selectFrom(head)
            .select("head.itemId as id")
            .where(inTier(0, "head"))
            .orderBy("head.itemId")
            .limit(window.limit)
            .offset(window.offset)
            .execute();
          if (probed.length === window.limit) return probed.map((r) => r.id);
        }
        // One pass over the matches: the tier costs what ts_rank cost (a weighted match per row).
        const found = hasFilters(filters)
          ? await rows()
              .select("items.id")
              .where(filtersOf(filters))
              .orderBy(tierOf)
              .orderBy("items.id")
              .limit(window.limit)
              .offset(window.offset)
              .execute()
          : await db
              .selectFrom("itemsSearch")
              .select("itemId as id")
              .where(sql<SqlBool>`document @@ ${query}`)
              .orderBy(tierOf)
              .orderBy("itemId")
              .limit(window.limit)
              .offset(window.offset)
              .execute();
        return found.map((r) => r.id);
      },
    };
  }
  const match = fts5Match(words);
  const rows = () =>
    db
      .selectFrom("itemsFts")
      .innerJoin("items", "items.id", "itemsFts.rowid")
      .where(sql<SqlBool>`items_fts match ${match}`) as unknown as Matching;
  // One tier alone (FTS5 column filters), with the filters when there are any; the index gives rowids in order.
  const tier = (n: number, filters: SearchQuery): FtsRows => {
    const condition = sql<SqlBool>`items_fts match ${fts5TierMatch(words, n)}`;
    if (!hasFilters(filters)) return db.selectFrom("itemsFts").where(condition);
    const joined = db.selectFrom("itemsFts").innerJoin("items", "items.id", "itemsFts.rowid").where(condition) as unknown as Matching;
    return joined.where(filtersOf(filters)) as unknown as FtsRows;
  };
  return {
    rows,
    relevantIds: (filters, window) =>
      acrossTiers(async (n, limit) => {
        const found = await tier(n, filters)
          .select(sql<number>`items_fts.rowid`.as("id"))
          .orderBy(sql`items_fts.rowid`)
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
async function relevantPage(db: Db, search: Matches, query: SearchQuery, window: RowWindow): Promise<Item[]> {
  const ids = await search.relevantIds(query, window);
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

/** How many products match, counting no further than `limit` (the index stops there). */
async function countUpTo(db: SearchDb, search: Matches, limit: number): Promise<number> {
  const { n } = await db
    .selectFrom(search.rows().select("items.id").limit(limit).as("m"))
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirstOrThrow();
  return toCount(n);
}

/**
 * One page of the products that match every word, filtered and sorted like a category page
 * (sort `default` is relevance), and how many match: exactly, up to SEARCH_MAX_RESULTS; past it
 * the page and the count come from the SEARCH_MAX_RESULTS most relevant matches (`capped`). Reads
 * `window.limit` rows, plus a count bounded by the same figure; no words answer nothing without
 * asking the database.
 */
export async function searchItems(
  words: SearchWord[],
  query: SearchQuery = NO_FILTER,
  window: RowWindow = { offset: 0, limit: 24 },
  db: Db = defaultDb,
): Promise<SearchPage> {
  if (words.length === 0) return { rows: [], total: 0, capped: false };
  const searchDb = db as unknown as SearchDb;
  const search = matches(searchDb, words);
  const bounded = () => countUpTo(searchDb, search, SEARCH_MAX_RESULTS + 1);
  if (!hasFilters(query) && query.sort === "default") {
    // The page and the bounded count side by side: the page needs no count (it stops within the figure).
    const within = withinMostRelevant(window);
    const [rows, n] = await Promise.all([within.limit > 0 ? relevantPage(db, search, query, within) : [], bounded()]);
    return { rows, total: Math.min(n, SEARCH_MAX_RESULTS), capped: n > SEARCH_MAX_RESULTS };
  }
  if ((await bounded()) > SEARCH_MAX_RESULTS) return { ...(await amongMostRelevant(db, search, query, window)), capped: true };
  // At most SEARCH_MAX_RESULTS matches: every query below reads no more than that.
  const count = search
    .rows()
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where(filtersOf(query))
    .executeTakeFirstOrThrow();
  if (query.sort === "default") {
    const [rows, total] = await Promise.all([relevantPage(db, search, query, window), count]);
    return { rows, total: toCount(total.n), capped: false };
  }
  const [found, total] = await Promise.all([
    sortedByPrice(search.rows(), query).limit(window.limit).offset(window.offset).execute(),
    count,
  ]);
  return { rows: found.map(toItem), total: toCount(total.n), capped: false };
}

function sortedByPrice<Q extends SelectQueryBuilder<DB & SearchTables, "items", object>>(rows: Q, query: SearchQuery) {
  const filtered = rows.selectAll("items").where(filtersOf(query));
  return query.sort === "price-asc"
    ? filtered.orderBy("items.price", "asc").orderBy("items.id", "asc")
    : filtered.orderBy("items.price", "desc").orderBy("items.id", "desc");
}

/**
 * A filtered or price-sorted search of more than SEARCH_MAX_RESULTS matches: the
 * SEARCH_MAX_RESULTS most relevant ids first, then the filters, sort, count and page among those
 * products only (a window past them is empty).
 */
async function amongMostRelevant(db: Db, search: Matches, query: SearchQuery, window: RowWindow): Promise<ListPage<Item>> {
  const within = withinMostRelevant(window);
  const ids = await search.relevantIds(NO_FILTER, { offset: 0, limit: SEARCH_MAX_RESULTS });
  const among = () => (db as unknown as SearchDb).selectFrom("items").where("items.id", "in", ids) as unknown as Matching;
  const { n } = await among()
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where(filtersOf(query))
    .executeTakeFirstOrThrow();
  const total = toCount(n);
  if (within.limit === 0) return { rows: [], total };
  if (query.sort !== "default") {
    const found = await sortedByPrice(among(), query).limit(within.limit).offset(within.offset).execute();
    return { rows: found.map(toItem), total };
  }
  // Relevance with filters: the ids that pass, in the relevance order they came in.
  const passing = new Set((await among().select("items.id").where(filtersOf(query)).execute()).map((r) => r.id));
  const page = ids.filter((id) => passing.has(id)).slice(within.offset, within.offset + within.limit);
  if (page.length === 0) return { rows: [], total };
  const rows = await db.selectFrom("items").selectAll().where("id", "in", page).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return { rows: page.flatMap((id) => (byId.has(id) ? [toItem(byId.get(id)!)] : [])), total };
}
