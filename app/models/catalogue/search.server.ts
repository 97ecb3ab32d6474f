// Catalogue search (docs/decisions/0014): one verb for the results page, the API and the header's
// suggestions. Each database's own full-text indexes (migrations 0011 and 0017: one per relevance
// tier) find the products whose title, description, category title or specification values hold
// every word (the words come from app/utils/search.ts, so nothing the shopper types is ever an
// operator); the category page's filters and sorts apply among the matches, by id. Relevance, the
// same on both (ADR 0014): every word in the title first, then in the title or category, then in
// those or the specifications, then anywhere; by product id within each tier, so pages never
// overlap. The indexes' tables and tiers are search-index.server.ts; each database's reading of
// them, search-sqlite.server.ts and search-postgres.server.ts.
import type { ExpressionBuilder, SqlBool } from "kysely";
import { sql } from "kysely";
import type { ListPage, RowWindow } from "~/lib/paging.server";
import type { Db } from "~/lib/db.server";
import { db as defaultDb } from "~/lib/db.server";
import type { DB } from "~/lib/db-schema";
import type { Item } from "~/utils/catalogue";
import type { SearchWord } from "~/utils/search";
import { whileCurrent } from "~/lib/generation-cache.server";
import { SEARCH_MAX_RESULTS } from "~/utils/search";
import { itemFilters, toItem } from "./products.server";
import type { FilteredQuery } from "./facets.server";
import { facetsOf, knownChoice, matchingProducts, withChosen } from "./facets.server";
import type { Facet } from "~/utils/option-filters";
import { hasChoice } from "~/utils/option-filters";
import type { Matches, SearchDb, SearchTables } from "./search-index.server";
import { isPostgres } from "./search-index.server";
import { postgresMatches } from "./search-postgres.server";
import { sqliteMatches } from "./search-sqlite.server";

export type SearchQuery = FilteredQuery;

const NO_FILTER: SearchQuery = { sort: "default", availability: [], price: [], featured: undefined };

/** The filters as one condition (true without any). */
function filtersOf(query: SearchQuery) {
  return (eb: ExpressionBuilder<DB & SearchTables, "items">) => {
    const parts = itemFilters(eb as unknown as ExpressionBuilder<DB, "items">, query);
    return parts.length ? eb.and(parts) : sql<SqlBool>`1 = 1`;
  };
}

const hasFilters = (query: SearchQuery) =>
  query.availability.length > 0 || query.price.length > 0 || Boolean(query.featured) || hasChoice(query.options);

const UNFILTERED: SearchQuery = NO_FILTER;

/**
 * A search's reads on the shop's database, kept while the data generation is current, as the
 * storefront keeps a category's list and counts (storefront.server): the bounded count's ids, each
 * window of the relevance order (a page of plain results, or the SEARCH_MAX_RESULTS most relevant
 * that filters and price sorts work among) and the option filters' counts. A search's pages, sorts
 * and filters share them, and only a write changes them. Read afresh on another database than the
 * shop's (the tests' spies).
 */
const keptFirstIds = whileCurrent((words: SearchWord[]) => matches(defaultDb as unknown as SearchDb, words).firstIds());
const keptRelevantIds = whileCurrent((words: SearchWord[], window: RowWindow) =>
  matches(defaultDb as unknown as SearchDb, words, () => keptFirstIds(words)).relevantIds(window),
);
const keptFacets = whileCurrent((ids: number[], query: SearchQuery) => facetsOf(defaultDb, { itemIds: ids }, query));

const keptMatches = (words: SearchWord[]): Matches => ({
  firstIds: () => keptFirstIds(words),
  relevantIds: (window) => keptRelevantIds(words, window),
});

/** The products a search considers: every match, or the SEARCH_MAX_RESULTS most relevant. */
async function considered(search: Matches): Promise<number[]> {
  const matched = await search.firstIds();
  return matched.length > SEARCH_MAX_RESULTS ? search.relevantIds({ offset: 0, limit: SEARCH_MAX_RESULTS }) : matched;
}

const facetsAmong = (db: Db, ids: number[], query: SearchQuery) =>
  db === defaultDb ? keptFacets(ids, query) : facetsOf(db, { itemIds: ids }, query);

/** The matching products and their relevance, per database: SQLite FTS5 or PostgreSQL tsvector. */
function matches(db: SearchDb, words: SearchWord[], known?: Matches["firstIds"]): Matches {
  return isPostgres(db) ? postgresMatches(db, words, known) : sqliteMatches(db, words, known);
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
  /** with `withFacets`: the option filters of the products considered, with their counts (facets.server) */
  facets?: Facet[];
}

/**
 * One page of the products that match every word, filtered and sorted like a category page
 * (sort `default` is relevance), and how many match: exactly, up to SEARCH_MAX_RESULTS; past it
 * the page and the count come from the SEARCH_MAX_RESULTS most relevant matches (`capped`). The
 * full-text indexes are read for at most SEARCH_MAX_RESULTS + 1 ids (the bounded count) and each
 * tier up to the window's end; no words answer nothing without asking the database. Chosen option
 * values (`query.options`) that no product considered has are ignored; `withFacets` adds the
 * option filters of the products considered, counted as a category page counts them.
 */
export async function searchItems(
  words: SearchWord[],
  query: SearchQuery = NO_FILTER,
  window: RowWindow = { offset: 0, limit: 24 },
  db: Db = defaultDb,
  withFacets = false,
): Promise<SearchPage> {
  if (words.length === 0) return { rows: [], total: 0, capped: false, ...(withFacets ? { facets: [] } : {}) };
  const search = db === defaultDb ? keptMatches(words) : matches(db as unknown as SearchDb, words);
  if (!hasFilters(query) && query.sort === "default") {
    // The page and the bounded count side by side: the page needs no count (it stops within the figure).
    const within = withinMostRelevant(window);
    const [rows, matched] = await Promise.all([within.limit > 0 ? relevantPage(db, search, within) : [], search.firstIds()]);
    const capped = matched.length > SEARCH_MAX_RESULTS;
    const page = { rows, total: Math.min(matched.length, SEARCH_MAX_RESULTS), capped };
    if (!withFacets) return page;
    const ids = !capped ? matched : await considered(search);
    return { ...page, facets: await facetsAmong(db, ids, UNFILTERED) };
  }
  // Filters and price sorts apply to the SEARCH_MAX_RESULTS most relevant matches, or to every match
  // when there are no more: the full-text index is asked once for them, never again with the filters.
  const matched = await search.firstIds();
  const capped = matched.length > SEARCH_MAX_RESULTS;
  const ids = capped || query.sort === "default" ? await search.relevantIds({ offset: 0, limit: SEARCH_MAX_RESULTS }) : matched;
  if (!withFacets && !hasChoice(query.options)) return { ...(await among(db, ids, query, window)), capped };
  // The values chosen that some product considered has; the counts with the filters, over those before any.
  const all = await facetsAmong(db, ids, UNFILTERED);
  const options = knownChoice(query.options, all);
  const filtered = { ...query, options };
  const [page, counted] = await Promise.all([
    among(db, ids, filtered, window),
    withFacets && hasFilters(filtered) ? facetsAmong(db, ids, { ...filtered, sort: "default" }) : all,
  ]);
  return { ...page, capped, ...(withFacets ? { facets: withChosen(all, counted, options) } : {}) };
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
  const passing = hasChoice(query.options)
    ? (await sql<{ id: number; price: number }>`select m.id, m.price from (${matchingProducts(db, { itemIds: ids }, query)}) m`.execute(db))
        .rows
    : await (db as unknown as SearchDb)
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
