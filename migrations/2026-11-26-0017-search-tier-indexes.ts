// An index per relevance tier (issue 12's sixth security check; docs/decisions/0014): search orders
// its matches by tiers (every word in the title; in the title or category; in those or the
// specification values; anywhere), and until now each tier was read from 0011's one index with
// column filters and a NOT of the previous tier, which walk the whole position lists of every word:
// eight common two-letter prefixes ('fo in fr by ou te ma an') cost 0.1-0.4 s of SQLite a search, and
// PostgreSQL weighed three weighted matches on each of 48,000 matching rows (about 95 ms). Now each
// tier has an index of its own words, read with a plain match in id order.
//
// SQLite: four contentless FTS5 tables, rowid = items.id, 0011's tokenizer, detail=none (a tier is a
// plain match: no positions, no column filters, so the index holds only which products have each
// word), and prefix indexes of 2 to 6 characters (a prefix FTS5 has no index for is the merge of every
// word it begins: 'fini' of finish, finished, finishing; eight such common prefixes cost 36 ms of the
// index of every field at 100,000 products, 7 ms with the indexes): items_fts_title (title),
// items_fts_title_category (title, category title), items_fts_title_category_specs (those and the
// specification values) and items_fts_all (those and the description), which replaces 0011's
// items_fts (dropped with its triggers; down builds it again with 0011's own up). Kept in step by
// triggers, as 0011's table was, in the writing statement's transaction: insert, delete, an update of
// the title, description, specifications or category, and a category's new title.
//
// PostgreSQL: three tsvector columns of items_search, generated from 0011's weighted document
// (ts_filter keeps the lexemes of the title A; title and category A, B; and specifications C), so
// they follow every write of the document with no trigger of their own, each with a GIN index; the
// document is the last tier's. Being columns, each has its own statistics: the planner sees that
// 'bedroom' is in no title.
//
// Frozen once landed.
import type { Kysely } from "kysely";
import { PostgresAdapter, sql } from "kysely";
import { up as upSearchIndex } from "./2026-11-25-0011-search-index";

function isPostgres(db: Kysely<unknown>) {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

// ---- SQLite ----

/** The tier tables and their columns' values, for a row of items (`row`) and its category's title (`category`). */
const specs = (row: string) =>
  `case when json_valid(${row}.specifications) then (select group_concat(value, ' ') from json_each(${row}.specifications)) end`;
const TABLES = [
  { name: "items_fts_title", columns: ["title"], values: (row: string) => [`${row}.title`] },
  {
    name: "items_fts_title_category",
    columns: ["title", "category"],
    values: (row: string, category: string) => [`${row}.title`, category],
  },
  {
    name: "items_fts_title_category_specs",
    columns: ["title", "category", "specs"],
    values: (row: string, category: string) => [`${row}.title`, category, specs(row)],
  },
  {
    name: "items_fts_all",
    columns: ["title", "category", "specs", "description"],
    values: (row: string, category: string) => [`${row}.title`, category, specs(row), `${row}.description`],
  },
];

/** Migration 0011's SQLite index of every field, which items_fts_all replaces (its down builds it again). */
const ITEMS_FTS_TRIGGERS = ["items_fts_category_title", "items_fts_delete", "items_fts_update", "items_fts_insert"];

/** Inserts `from`'s rows into a tier table (`row`: the items row's name in it; `category`: its category title). */
const insertInto = (t: (typeof TABLES)[number], row: string, category: string, from: string) =>
  `insert into ${t.name}(rowid, ${t.columns.join(", ")}) select ${row}.id, ${t.values(row, category).join(", ")} ${from};`;
/** The same into every tier table: a trigger's statements. */
const insertAll = (row: string, category: string, from: string) => TABLES.map((t) => insertInto(t, row, category, from)).join("\n");
const deleteAll = (rowids: string) => TABLES.map((t) => `delete from ${t.name} where rowid in (${rowids});`).join("\n");
const categoryOf = (row: string) => `(select title from categories where id = ${row}.category_id)`;

const TRIGGERS = ["items_fts_tiers_insert", "items_fts_tiers_update", "items_fts_tiers_delete", "items_fts_tiers_category_title"];

async function upSqlite(db: Kysely<unknown>) {
  for (const trigger of ITEMS_FTS_TRIGGERS) await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
  await sql`drop table if exists items_fts`.execute(db);
  for (const t of TABLES) {
    await sql
      .raw(
        `create virtual table ${t.name} using fts5(
           ${t.columns.join(", ")},
           content = '', contentless_delete = 1, detail = none,
           tokenize = "unicode61 remove_diacritics 0 categories 'L* N* Co M*'",
           prefix = '2 3 4 5 6'
         )`,
      )
      .execute(db);
  }
  const from = "from items join categories on categories.id = items.category_id";
  for (const t of TABLES) await sql.raw(insertInto(t, "items", "categories.title", from)).execute(db);
  await sql
    .raw(`create trigger items_fts_tiers_insert after insert on items begin ${insertAll("new", categoryOf("new"), "")} end`)
    .execute(db);
  await sql
    .raw(
      `create trigger items_fts_tiers_update after update of title, description, specifications, category_id on items begin
         ${deleteAll("old.id")}
         ${insertAll("new", categoryOf("new"), "")}
       end`,
    )
    .execute(db);
  await sql.raw(`create trigger items_fts_tiers_delete after delete on items begin ${deleteAll("old.id")} end`).execute(db);
  await sql
    .raw(
      `create trigger items_fts_tiers_category_title after update of title on categories when new.title is not old.title begin
         ${deleteAll("select id from items where category_id = new.id")}
         ${insertAll("items", "new.title", "from items where items.category_id = new.id")}
       end`,
    )
    .execute(db);
}

async function downSqlite(db: Kysely<unknown>) {
  for (const trigger of TRIGGERS) await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
  for (const t of TABLES) await sql.raw(`drop table if exists ${t.name}`).execute(db);
  await upSearchIndex(db);
}

// ---- PostgreSQL ----

const COLUMNS = [
  { name: "title_words", weights: "{a}" },
  { name: "title_category_words", weights: "{a,b}" },
  { name: "title_category_specs_words", weights: "{a,b,c}" },
];

async function upPostgres(db: Kysely<unknown>) {
  // One rewrite of the table for the three columns, then their indexes.
  await sql
    .raw(
      `alter table items_search ${COLUMNS.map(
        (c) => `add column ${c.name} tsvector generated always as (ts_filter(document, '${c.weights}')) stored not null`,
      ).join(", ")}`,
    )
    .execute(db);
  for (const c of COLUMNS) await sql.raw(`create index items_search_${c.name}_idx on items_search using gin (${c.name})`).execute(db);
  // The planner's figures for the new columns from the start (a tier's plan depends on them).
  await sql`analyze items_search`.execute(db);
}

async function downPostgres(db: Kysely<unknown>) {
  await sql.raw(`alter table items_search ${COLUMNS.map((c) => `drop column if exists ${c.name}`).join(", ")}`).execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await upPostgres(db);
  else await upSqlite(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await downPostgres(db);
  else await downSqlite(db);
}
