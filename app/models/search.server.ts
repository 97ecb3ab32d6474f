// Catalogue search (issue 14, item 3; docs/decisions/0014): one verb for the results page, the
// API and the header's suggestions. Each database's own full-text index (migration 0011) finds
// the products whose title, description, category title or specification values hold every word
// (the words come from app/utils/search.ts, so nothing the shopper types is ever an operator);
// the category page's filters and sorts apply on top, in SQL. Relevance: bm25 on SQLite (FTS5),
// ts_rank on PostgreSQL, then the product id, so pages never overlap.
import type { ExpressionBuilder, Kysely, RawBuilder, SelectQueryBuilder, SqlBool } from "kysely";
import { PostgresAdapter, sql } from "kysely";
import type { ListPage, RowWindow } from "~/lib/api-params.server";
import type { Db } from "~/lib/db.server";
import { db as defaultDb, toCount } from "~/lib/db.server";
import type { DB } from "~/lib/db-schema";
import type { CategoryQuery, Item } from "~/utils/catalogue";
import type { SearchWord } from "~/utils/search";
import { fts5Match, tsQuery } from "~/utils/search";
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

interface Matches {
  rows: () => Matching;
  /** the relevance of a matching row, and which way is most relevant first */
  relevance: RawBuilder<number>;
  relevanceOrder: "asc" | "desc";
  /** how many products match, read from the index alone */
  count: () => Promise<{ n: number | string }>;
  /** one window of the matching products' ids, most relevant first, read from the index alone */
  rankedIds: (window: RowWindow) => Promise<number[]>;
}

/** The matching products and their relevance, per database: SQLite FTS5 or PostgreSQL tsvector. */
function matches(db: SearchDb, words: SearchWord[]): Matches {
  if (isPostgres(db)) {
    const query = sql`to_tsquery('simple', ${tsQuery(words)})`;
    return {
      rows: () =>
        db
          .selectFrom("itemsSearch")
          .innerJoin("items", "items.id", "itemsSearch.itemId")
          .where(sql<SqlBool>`items_search.document @@ ${query}`) as unknown as Matching,
      relevance: sql<number>`ts_rank(items_search.document, ${query})`,
      relevanceOrder: "desc",
      count: () =>
        db
          .selectFrom("itemsSearch")
          .select((eb) => eb.fn.countAll<number | string>().as("n"))
          .where(sql<SqlBool>`document @@ ${query}`)
          .executeTakeFirstOrThrow(),
      rankedIds: async (window) => {
        const rows = await db
          .selectFrom("itemsSearch")
          .select("itemId as id")
          .where(sql<SqlBool>`document @@ ${query}`)
          .orderBy(sql`ts_rank(document, ${query})`, "desc")
          .orderBy("itemId")
          .limit(window.limit)
          .offset(window.offset)
          .execute();
        return rows.map((r) => r.id);
      },
    };
  }
  const match = fts5Match(words);
  return {
    rows: () =>
      db
        .selectFrom("itemsFts")
        .innerJoin("items", "items.id", "itemsFts.rowid")
        .where(sql<SqlBool>`items_fts match ${match}`) as unknown as Matching,
    relevance: sql<number>`items_fts.rank`,
    relevanceOrder: "asc",
    count: () =>
      db
        .selectFrom("itemsFts")
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where(sql<SqlBool>`items_fts match ${match}`)
        .executeTakeFirstOrThrow(),
    rankedIds: async (window) => {
      const rows = await db
        .selectFrom("itemsFts")
        .select("rowid as id")
        .where(sql<SqlBool>`items_fts match ${match}`)
        .orderBy(sql`rank`)
        .orderBy("rowid")
        .limit(window.limit)
        .offset(window.offset)
        .execute();
      return rows.map((r) => r.id);
    },
  };
}

/**
 * The most relevant page without filters: ranked in the index alone (no product row is read for
 * the thousands of matches a common word has), then that page's products by id. A product deleted
 * in between is left out of the page.
 */
async function rankedPage(db: Db, search: Matches, window: RowWindow): Promise<Item[]> {
  const ids = await search.rankedIds(window);
  if (ids.length === 0) return [];
  const rows = await db.selectFrom("items").selectAll().where("id", "in", ids).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toItem(row)] : [];
  });
}

/**
 * One page of the products that match every word, filtered and sorted like a category page
 * (sort `default` is relevance), and how many match in all. Reads `window.limit` rows at most,
 * plus a count; no words answer nothing without asking the database.
 */
export async function searchItems(
  words: SearchWord[],
  query: SearchQuery = NO_FILTER,
  window: RowWindow = { offset: 0, limit: 24 },
  db: Db = defaultDb,
): Promise<ListPage<Item>> {
  if (words.length === 0) return { rows: [], total: 0 };
  const search = matches(db as unknown as SearchDb, words);
  // Without filters every index row is a product (the triggers keep them one to one): count the index alone.
  if (!hasFilters(query) && query.sort === "default") {
    const [rows, total] = await Promise.all([rankedPage(db, search, window), search.count()]);
    return { rows, total: toCount(total.n) };
  }
  let rows = search.rows().selectAll("items").where(filtersOf(query));
  if (query.sort === "price-asc") rows = rows.orderBy("items.price", "asc").orderBy("items.id", "asc");
  else if (query.sort === "price-desc") rows = rows.orderBy("items.price", "desc").orderBy("items.id", "desc");
  else rows = rows.orderBy(search.relevance, search.relevanceOrder).orderBy("items.id", "asc");
  const count = hasFilters(query)
    ? search
        .rows()
        .select((eb) => eb.fn.countAll<number | string>().as("n"))
        .where(filtersOf(query))
        .executeTakeFirstOrThrow()
    : search.count();
  const [found, total] = await Promise.all([rows.limit(window.limit).offset(window.offset).execute(), count]);
  return { rows: found.map(toItem), total: toCount(total.n) };
}
