// The catalogue search on SQLite (docs/decisions/0014): an FTS5 table per relevance tier.
import type { SqlBool } from "kysely";
import { sql } from "kysely";
import type { SearchWord } from "~/utils/search";
import { fts5Match } from "~/utils/search";
import type { Matches, SearchDb } from "./search-index.server";
import { acrossTiers, COUNT_LIMIT, once, TIER_INDEXES } from "./search-index.server";

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * SQLite's matches: each relevance tier's FTS5 table, read in rowid (product id) order. `known`: the
 * bounded count's ids when they were already read (a kept read, search.server).
 */
export function sqliteMatches(db: SearchDb, words: SearchWord[], known?: Matches["firstIds"]): Matches {
  const match = fts5Match(words);
  // The first matches in id order, from the index alone (it holds one row a product): the bounded count,
  // and the last tier's ids (a window never ends past them), in one read.
  const first =
    known ??
    once(async () =>
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
