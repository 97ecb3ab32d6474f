// The catalogue's filters by option value (Fabric: Velvet (4), Size: 3-seater (2)) on category and
// search pages, with counts, at 100,000 products (docs/decisions/0036). Options are per product, so
// a filter groups values across products by the option's URL name and the value's (fabric=velvet).
// variant_facets holds one row per active variant and option value, with what a list filters on
// beside it: the product's category, price (its lowest, items.price) and featured flag, and whether
// that variant is in stock. A category's counts read one index range of it and nothing else; a
// product matches when one of its active variants has every chosen value (rows of one variant_id).
// Kept by triggers in the statement that changes what it copies, like items.stock and items.price
// (migration 0032): a variant's values linked or unlinked, its active flag or its stock crossing
// zero, its product's category, price or featured flag, an option or value renamed. A deleted variant
// or value takes its rows with it (foreign keys). Frozen once landed.
import type { Kysely } from "kysely";
import { PostgresAdapter, sql } from "kysely";

function isPostgres(db: Kysely<unknown>) {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** The rows of the active variants' values that `where` picks (x: variant_option_values, pv: product_variants). */
const rowsWhere = (where: string) =>
  `insert into variant_facets (variant_id, option_value_id, item_id, category_id, option_slug, value_slug,
     option_name, value, value_position, in_stock, price, featured)
   select pv.id, v.id, pv.item_id, i.category_id, o.slug, v.slug, o.name, v.value, v.position,
     case when pv.stock > 0 then 1 else 0 end, i.price, i.featured
   from variant_option_values x
   join product_variants pv on pv.id = x.variant_id
   join product_option_values v on v.id = x.option_value_id
   join product_options o on o.id = v.option_id
   join items i on i.id = pv.item_id
   where pv.active = 1 and ${where}`;

const STATEMENTS = {
  linked: (row: string) => rowsWhere(`x.variant_id = ${row}.variant_id and x.option_value_id = ${row}.option_value_id`),
  unlinked: (row: string) => `delete from variant_facets where variant_id = ${row}.variant_id and option_value_id = ${row}.option_value_id`,
  activeChanged: (row: string) => [`delete from variant_facets where variant_id = ${row}.id`, rowsWhere(`x.variant_id = ${row}.id`)],
  stockChanged: (row: string) =>
    `update variant_facets set in_stock = case when ${row}.stock > 0 then 1 else 0 end where variant_id = ${row}.id`,
  itemChanged: (row: string) =>
    `update variant_facets set category_id = ${row}.category_id, price = ${row}.price, featured = ${row}.featured
     where item_id = ${row}.id`,
  optionRenamed: (row: string) =>
    `update variant_facets set option_slug = ${row}.slug, option_name = ${row}.name
     where option_value_id in (select id from product_option_values where option_id = ${row}.id)`,
  valueRenamed: (row: string) =>
    `update variant_facets set value_slug = ${row}.slug, value = ${row}.value, value_position = ${row}.position
     where option_value_id = ${row}.id`,
};

const WHEN = {
  stock: (o: string, n: string) => `(${o}.stock > 0) <> (${n}.stock > 0)`,
  item: (o: string, n: string) => `${o}.category_id <> ${n}.category_id or ${o}.price <> ${n}.price or ${o}.featured <> ${n}.featured`,
  option: (o: string, n: string) => `${o}.slug <> ${n}.slug or ${o}.name <> ${n}.name`,
  value: (o: string, n: string) => `${o}.slug <> ${n}.slug or ${o}.value <> ${n}.value or ${o}.position <> ${n}.position`,
};

async function table(db: Kysely<unknown>) {
  const run = (text: string) => sql.raw(text).execute(db);
  await run(`create table variant_facets (
    variant_id integer not null references product_variants (id) on delete cascade,
    option_value_id integer not null references product_option_values (id) on delete cascade,
    item_id integer not null, category_id integer not null,
    option_slug text not null, value_slug text not null, option_name text not null, value text not null,
    value_position integer not null, in_stock integer not null, price integer not null, featured integer not null,
    primary key (variant_id, option_value_id))`);
  // A category's counts and matches: one range, every filtered column in the index (no table read).
  await run(`create index variant_facets_category_idx on variant_facets
    (category_id, option_slug, value_slug, item_id, in_stock, price, featured, variant_id, option_value_id)`);
  // A search's counts and matches (its products by id), and the triggers' writes by product.
  await run(`create index variant_facets_item_idx on variant_facets
    (item_id, option_slug, value_slug, in_stock, price, featured, variant_id, option_value_id)`);
  // The other chosen options of the same variant, and the rows counted beside them (covering both).
  await run(`create index variant_facets_variant_idx on variant_facets
    (variant_id, option_slug, value_slug, category_id, item_id, in_stock, price, featured, option_value_id)`);
  await run(`create index variant_facets_option_value_idx on variant_facets (option_value_id)`);
  await run(rowsWhere("1 = 1"));
}

async function triggersSqlite(db: Kysely<unknown>) {
  const run = (text: string) => sql.raw(text).execute(db);
  await run(`create trigger variant_facets_linked after insert on variant_option_values begin ${STATEMENTS.linked("new")}; end`);
  await run(`create trigger variant_facets_unlinked after delete on variant_option_values begin ${STATEMENTS.unlinked("old")}; end`);
  await run(`create trigger variant_facets_active after update of active on product_variants when old.active <> new.active
    begin ${STATEMENTS.activeChanged("new").join("; ")}; end`);
  await run(`create trigger variant_facets_stock after update of stock on product_variants when ${WHEN.stock("old", "new")}
    begin ${STATEMENTS.stockChanged("new")}; end`);
  await run(`create trigger variant_facets_item after update of category_id, price, featured on items when ${WHEN.item("old", "new")}
    begin ${STATEMENTS.itemChanged("new")}; end`);
  await run(`create trigger variant_facets_option after update of slug, name on product_options when ${WHEN.option("old", "new")}
    begin ${STATEMENTS.optionRenamed("new")}; end`);
  await run(`create trigger variant_facets_value after update of slug, value, position on product_option_values
    when ${WHEN.value("old", "new")} begin ${STATEMENTS.valueRenamed("new")}; end`);
}

async function triggersPostgres(db: Kysely<unknown>) {
  const run = (text: string) => sql.raw(text).execute(db);
  const fn = async (name: string, body: string, row: "new" | "old" = "new") =>
    run(`create function ${name}() returns trigger language plpgsql as $$ begin ${body}; return ${row === "new" ? "new" : "old"}; end $$`);
  await fn("shop_variant_facets_linked", STATEMENTS.linked("new"));
  await run(`create trigger variant_facets_linked after insert on variant_option_values
    for each row execute function shop_variant_facets_linked()`);
  await fn("shop_variant_facets_unlinked", STATEMENTS.unlinked("old"), "old");
  await run(`create trigger variant_facets_unlinked after delete on variant_option_values
    for each row execute function shop_variant_facets_unlinked()`);
  await fn("shop_variant_facets_active", STATEMENTS.activeChanged("new").join("; "));
  await run(`create trigger variant_facets_active after update of active on product_variants
    for each row when (old.active <> new.active) execute function shop_variant_facets_active()`);
  await fn("shop_variant_facets_stock", STATEMENTS.stockChanged("new"));
  await run(`create trigger variant_facets_stock after update of stock on product_variants
    for each row when (${WHEN.stock("old", "new")}) execute function shop_variant_facets_stock()`);
  await fn("shop_variant_facets_item", STATEMENTS.itemChanged("new"));
  await run(`create trigger variant_facets_item after update of category_id, price, featured on items
    for each row when (${WHEN.item("old", "new")}) execute function shop_variant_facets_item()`);
  await fn("shop_variant_facets_option", STATEMENTS.optionRenamed("new"));
  await run(`create trigger variant_facets_option after update of slug, name on product_options
    for each row when (${WHEN.option("old", "new")}) execute function shop_variant_facets_option()`);
  await fn("shop_variant_facets_value", STATEMENTS.valueRenamed("new"));
  await run(`create trigger variant_facets_value after update of slug, value, position on product_option_values
    for each row when (${WHEN.value("old", "new")}) execute function shop_variant_facets_value()`);
}

const NAMES = ["linked", "unlinked", "active", "stock", "item", "option", "value"];
const TABLE_OF: Record<string, string> = {
  linked: "variant_option_values",
  unlinked: "variant_option_values",
  active: "product_variants",
  stock: "product_variants",
  item: "items",
  option: "product_options",
  value: "product_option_values",
};

export async function up(db: Kysely<unknown>): Promise<void> {
  await table(db);
  await (isPostgres(db) ? triggersPostgres(db) : triggersSqlite(db));
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  const run = (text: string) => sql.raw(text).execute(db);
  for (const name of NAMES) {
    await run(`drop trigger if exists variant_facets_${name}${pg ? ` on ${TABLE_OF[name]}` : ""}`);
    if (pg) await run(`drop function if exists shop_variant_facets_${name}()`);
  }
  await run("drop table if exists variant_facets");
}
