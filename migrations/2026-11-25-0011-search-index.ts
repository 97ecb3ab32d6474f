// Full-text search over the catalogue (issue 14, item 3; docs/decisions/0014): each database's own
// engine, kept in step with items and categories by triggers, so every change to the catalogue
// changes the index in the same transaction (admin edits, CSV imports, seeds, deletes).
//
// SQLite: a contentless FTS5 table `items_fts` (rowid = items.id; contentless_delete=1 so a row can
// be deleted by rowid), columns title, category (its title), specs (the specification values) and
// description, ranked by bm25 with those weights (10, 4, 2, 1). Words are runs of letters, digits
// and marks (unicode61, categories 'L* N* Co M*', diacritics kept, as PostgreSQL's 'simple' does);
// prefix indexes of 2 and 3 characters make short prefixes cheap.
//
// PostgreSQL: a table `items_search` (item_id → items.id, cascade) holding a weighted tsvector
// (title A, category B, specification values C, description D) of the 'simple' configuration (no
// stemming, no stop words), with a GIN index. Punctuation becomes spaces before parsing, so '3-seater'
// or '2.5' are words the same way as in SQLite. Inserts are indexed per statement (a transition
// table: the large seed's 2,000-row inserts are one INSERT ... SELECT each), updates per row.
//
// Frozen once landed.
import type { Kysely } from "kysely";
import { PostgresAdapter, sql } from "kysely";

function isPostgres(db: Kysely<unknown>) {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

// ---- SQLite ----

/** The specification values of a row's JSON (an invalid one indexes nothing rather than failing the write). */
const sqliteSpecs = (row: string) =>
  `case when json_valid(${row}.specifications) then (select group_concat(value, ' ') from json_each(${row}.specifications)) end`;

const sqliteIndexRow = (row: string) =>
  `insert into items_fts(rowid, title, category, specs, description)
     values (${row}.id, ${row}.title, (select title from categories where id = ${row}.category_id),
             ${sqliteSpecs(row)}, ${row}.description);`;

async function upSqlite(db: Kysely<unknown>) {
  await sql`create virtual table items_fts using fts5(
    title, category, specs, description,
    content = '', contentless_delete = 1,
    tokenize = "unicode61 remove_diacritics 0 categories 'L* N* Co M*'",
    prefix = '2 3'
  )`.execute(db);
  await sql`insert into items_fts(items_fts, rank) values ('rank', 'bm25(10.0, 4.0, 2.0, 1.0)')`.execute(db);
  await sql
    .raw(
      `insert into items_fts(rowid, title, category, specs, description)
       select items.id, items.title, categories.title, ${sqliteSpecs("items")}, items.description
       from items join categories on categories.id = items.category_id`,
    )
    .execute(db);
  await sql.raw(`create trigger items_fts_insert after insert on items begin ${sqliteIndexRow("new")} end`).execute(db);
  await sql
    .raw(
      `create trigger items_fts_update after update of title, description, specifications, category_id on items begin
         delete from items_fts where rowid = old.id;
         ${sqliteIndexRow("new")}
       end`,
    )
    .execute(db);
  await sql.raw(`create trigger items_fts_delete after delete on items begin delete from items_fts where rowid = old.id; end`).execute(db);
  await sql
    .raw(
      `create trigger items_fts_category_title after update of title on categories when new.title is not old.title begin
         delete from items_fts where rowid in (select id from items where category_id = new.id);
         insert into items_fts(rowid, title, category, specs, description)
           select items.id, items.title, new.title, ${sqliteSpecs("items")}, items.description from items where items.category_id = new.id;
       end`,
    )
    .execute(db);
}

async function downSqlite(db: Kysely<unknown>) {
  for (const trigger of ["items_fts_category_title", "items_fts_delete", "items_fts_update", "items_fts_insert"]) {
    await sql.raw(`drop trigger if exists ${trigger}`).execute(db);
  }
  await sql`drop table if exists items_fts`.execute(db);
}

// ---- PostgreSQL ----

async function upPostgres(db: Kysely<unknown>) {
  await sql`create table items_search (
    item_id integer primary key references items (id) on delete cascade,
    document tsvector not null
  )`.execute(db);
  // Punctuation separates words, as in SQLite; an invalid specifications JSON indexes no values.
  await sql`create function items_search_document(title text, category text, specifications text, description text)
    returns tsvector language plpgsql immutable as $$
    declare
      spec_values text := '';
    begin
      begin
        select coalesce(string_agg(value, ' '), '') into spec_values from jsonb_each_text(specifications::jsonb);
      exception when others then
        spec_values := '';
      end;
      return setweight(to_tsvector('simple', regexp_replace(coalesce(title, ''), '[[:punct:]]+', ' ', 'g')), 'A')
        || setweight(to_tsvector('simple', regexp_replace(coalesce(category, ''), '[[:punct:]]+', ' ', 'g')), 'B')
        || setweight(to_tsvector('simple', regexp_replace(spec_values, '[[:punct:]]+', ' ', 'g')), 'C')
        || setweight(to_tsvector('simple', regexp_replace(coalesce(description, ''), '[[:punct:]]+', ' ', 'g')), 'D');
    end $$`.execute(db);
  await sql`insert into items_search (item_id, document)
    select items.id, items_search_document(items.title, categories.title, items.specifications, items.description)
    from items join categories on categories.id = items.category_id`.execute(db);
  await sql`create index items_search_document_idx on items_search using gin (document)`.execute(db);

  await sql`create function items_search_inserted() returns trigger language plpgsql as $$
    begin
      insert into items_search (item_id, document)
        select n.id, items_search_document(n.title, c.title, n.specifications, n.description)
        from new_items n join categories c on c.id = n.category_id;
      return null;
    end $$`.execute(db);
  await sql`create trigger items_search_insert after insert on items
    referencing new table as new_items for each statement execute function items_search_inserted()`.execute(db);

  await sql`create function items_search_updated() returns trigger language plpgsql as $$
    begin
      update items_search set document = items_search_document(new.title, c.title, new.specifications, new.description)
        from categories c where c.id = new.category_id and items_search.item_id = new.id;
      return null;
    end $$`.execute(db);
  await sql`create trigger items_search_update after update of title, description, specifications, category_id on items
    for each row execute function items_search_updated()`.execute(db);

  await sql`create function items_search_category_renamed() returns trigger language plpgsql as $$
    begin
      update items_search set document = items_search_document(i.title, new.title, i.specifications, i.description)
        from items i where i.category_id = new.id and items_search.item_id = i.id;
      return null;
    end $$`.execute(db);
  await sql`create trigger items_search_category_title after update of title on categories
    for each row when (old.title is distinct from new.title) execute function items_search_category_renamed()`.execute(db);
}

async function downPostgres(db: Kysely<unknown>) {
  await sql`drop trigger if exists items_search_category_title on categories`.execute(db);
  await sql`drop trigger if exists items_search_update on items`.execute(db);
  await sql`drop trigger if exists items_search_insert on items`.execute(db);
  await sql`drop function if exists items_search_category_renamed()`.execute(db);
  await sql`drop function if exists items_search_updated()`.execute(db);
  await sql`drop function if exists items_search_inserted()`.execute(db);
  await sql`drop table if exists items_search`.execute(db);
  await sql`drop function if exists items_search_document(text, text, text, text)`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await upPostgres(db);
  else await upSqlite(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgres(db)) await downPostgres(db);
  else await downSqlite(db);
}
