// The catalogue search on PostgreSQL (docs/decisions/0014): items_search's tsvector columns, one
// per relevance tier, each with a GIN index.
import type { SqlBool } from "kysely";
import { sql } from "kysely";
import { toCount } from "~/lib/db.server";
import type { SearchWord } from "~/utils/search";
import { SEARCH_MAX_RESULTS, tsQuery } from "~/utils/search";
import type { Matches, SearchDb } from "./search-index.server";
import { acrossTiers, COUNT_LIMIT, once, TIER_INDEXES } from "./search-index.server";

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

/** `known`: the bounded count's ids when they were already read (a kept read, search.server). */
export function postgresMatches(db: SearchDb, words: SearchWord[], known?: Matches["firstIds"]): Matches {
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
  const firstIds =
    known ??
    once(async () =>
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
