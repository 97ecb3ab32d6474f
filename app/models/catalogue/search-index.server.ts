// The full-text indexes of the catalogue search (docs/decisions/0014), as both databases share
// them: the index tables, one per relevance tier (migrations 0011 and 0017), what a database's
// matches answer (Matches), and the walk across the tiers that turns them into a window of ids.
import type { Kysely } from "kysely";
import { PostgresAdapter } from "kysely";
import type { RowWindow } from "~/lib/paging.server";
import type { DB } from "~/lib/db-schema";
import type { RELEVANCE_TIERS } from "~/utils/search";
import { SEARCH_MAX_RESULTS } from "~/utils/search";

/**
 * The index tables, which the application schema does not list (only the search modules read them):
 * migration 0011's index of every field, and 0017's of each relevance tier's fields.
 */
export interface SearchTables {
  /** SQLite FTS5, contentless (detail=none): rowid is the item's id; every field (the last tier) */
  itemsFtsAll: { rowid: number };
  /** SQLite FTS5 (detail=none), one per tier before the last: the words of the tier's fields */
  itemsFtsTitle: { rowid: number };
  itemsFtsTitleCategory: { rowid: number };
  itemsFtsTitleCategorySpecs: { rowid: number };
  /** PostgreSQL: one row per item, a tsvector of every field and one of each tier's fields, each with a GIN index */
  itemsSearch: { itemId: number; document: string; titleWords: string; titleCategoryWords: string; titleCategorySpecsWords: string };
}
export type SearchDb = Kysely<DB & SearchTables>;

/**
 * Each relevance tier's index (RELEVANCE_TIERS' fields): on SQLite an FTS5 table, on PostgreSQL a
 * tsvector column of items_search. A tier's products are a plain match of its index; the index of
 * a tier holds the previous tier's products too (their words are a subset), which acrossTiers skips.
 */
export const TIER_INDEXES = [
  { table: "itemsFtsTitle", column: "titleWords" },
  { table: "itemsFtsTitleCategory", column: "titleCategoryWords" },
  { table: "itemsFtsTitleCategorySpecs", column: "titleCategorySpecsWords" },
  { table: "itemsFtsAll", column: "document" },
] as const satisfies readonly { table: keyof SearchTables; column: keyof SearchTables["itemsSearch"] }[] & {
  length: (typeof RELEVANCE_TIERS)["length"];
};

export const isPostgres = (db: SearchDb) => db.getExecutor().adapter instanceof PostgresAdapter;

export interface Matches {
  /**
   * The first COUNT_LIMIT matching ids, from the index alone (SQLite in id order, PostgreSQL in no
   * order): how many match, counted no further than that, and every match when there are no more.
   */
  firstIds: () => Promise<number[]>;
  /** one window of the matching products' ids, most relevant first: by tier, then id (filters apply afterwards, among them) */
  relevantIds: (window: RowWindow) => Promise<number[]>;
}

/** The bounded count's figure: one past the most matches a search considers. */
export const COUNT_LIMIT = SEARCH_MAX_RESULTS + 1;

/**
 * A window of ids across the relevance tiers, one after another, each in id order. `idsOf(tier,
 * limit)` reads the first `limit` ids of a tier's index, which holds the earlier
 * tiers' products too: those already taken are skipped here. Each index is read up to the window's
 * end (offset + limit, which searchItems keeps within SEARCH_MAX_RESULTS + a page), never counted: a
 * tier is read only when the earlier ones ran out, so every earlier product is known by then and at
 * most that many of the read ids are skipped. A common word's first page reads its first 24 title
 * matches and stops there.
 */
export async function acrossTiers(idsOf: (tier: number, limit: number) => Promise<number[]>, window: RowWindow): Promise<number[]> {
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
export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let promise: Promise<T> | undefined;
  return () => (promise ??= make());
}
