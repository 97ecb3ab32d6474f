// Pieces as they are sold (ADR 0034): a product has up to three options (Finish, Size, Fabric),
// each with ordered values, and one variant per combination sold, with its own SKU, price, stock,
// weight, dimensions and active flag. A product without options has exactly one variant, its
// default (option_key ''), so every product, cart, order and API client keeps working unchanged.
//   product_options (item_id, name, slug for the URL: ?finish=walnut, position 0-2)
//   product_option_values (option_id, value, slug, position; item_id beside it for a product's reads)
//   product_variants (item_id, sku unique, option_key: its values' ids in option order, '' for the
//     default; price, stock, weight_grams, length/width/height_cm, active, position, version)
//   variant_option_values (variant_id, option_value_id): a variant's values, for filters.
// The stock and price are the variants'. items.stock (the active variants' stock, summed) and
// items.price (the lowest active price; kept as it was while none is active) are kept from them
// by triggers, so the catalogue's lists, filters and indexes read one row per product; a direct
// write of items.stock or items.price that disagrees with the variants is refused by a trigger.
// A variant's change bumps its product's version, so an editor's form made before it is stale.
// Every product is born with its default variant (a trigger on items: price and stock of the
// row, SKU 'FS-{id}'); existing products get theirs here.
// Cart lines and payment holds move to the variant (one line per variant: the same sofa in two
// fabrics is two lines); order lines keep the variant they were (variant_id, sku, variant_label
// as ordered: a snapshot like title, so variant_id has no foreign key and may outlive the row).
// SQLite cannot change a unique or primary key in place: cart_lines and stock_reservations are
// rebuilt with their rows (ids kept), in one transaction. Frozen once landed.
import type { Kysely } from "kysely";
import { PostgresAdapter, sql } from "kysely";

function isPostgres(db: Kysely<unknown>) {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

const id = (pg: boolean) => (pg ? "id serial primary key" : "id integer primary key autoincrement");

/** The product's figures from its active variants; changes (and bumps the version) only when they differ. */
const itemFigures = (item: string) =>
  `update items set version = items.version + 1, stock = f.stock, price = coalesce(f.price, items.price)
     from (select coalesce(sum(stock), 0) as stock, min(price) as price
           from product_variants where item_id = ${item} and active = 1) as f
     where items.id = ${item} and (items.stock <> f.stock or items.price <> coalesce(f.price, items.price))`;

const defaultVariant = (row: string) =>
  `insert into product_variants (item_id, sku, option_key, price, stock, active, position, version, created_at, updated_at)
     values (${row}.id, 'FS-' || ${row}.id, '', ${row}.price, ${row}.stock, 1, 0, 0, ${row}.created_at, ${row}.updated_at)`;

/** True when the row's stock or price is not what its variants make it. */
const disagrees = (row: string) =>
  `${row}.stock <> (select coalesce(sum(stock), 0) from product_variants where item_id = ${row}.id and active = 1)
   or ${row}.price <> coalesce((select min(price) from product_variants where item_id = ${row}.id and active = 1), ${row}.price)`;

const REFUSED = "a product's stock and price are written to its variants (product_variants)";

async function tables(db: Kysely<unknown>, pg: boolean) {
  const run = (text: string) => sql.raw(text).execute(db);
  await run(`create table product_options (${id(pg)},
    item_id integer not null references items (id) on delete cascade,
    name text not null, slug text not null, position integer not null check (position between 0 and 2),
    created_at text not null,
    unique (item_id, position), unique (item_id, slug))`);
  await run(`create table product_option_values (${id(pg)},
    option_id integer not null references product_options (id) on delete cascade,
    item_id integer not null references items (id) on delete cascade,
    value text not null, slug text not null, position integer not null,
    unique (option_id, slug))`);
  await run("create index product_option_values_item_id_idx on product_option_values (item_id, option_id, position)");
  await run(`create table product_variants (${id(pg)},
    item_id integer not null references items (id) on delete cascade,
    sku text not null unique,
    option_key text not null default '',
    price integer not null check (price >= 0),
    stock integer not null default 0 check (stock >= 0),
    weight_grams integer check (weight_grams > 0),
    length_cm integer check (length_cm > 0), width_cm integer check (width_cm > 0), height_cm integer check (height_cm > 0),
    active integer not null default 1 check (active in (0, 1)),
    position integer not null default 0,
    version integer not null default 0,
    created_at text not null, updated_at text not null,
    unique (item_id, option_key))`);
  await run(`create table variant_option_values (
    variant_id integer not null references product_variants (id) on delete cascade,
    option_value_id integer not null references product_option_values (id) on delete cascade,
    primary key (variant_id, option_value_id))`);
  await run("create index variant_option_values_value_idx on variant_option_values (option_value_id, variant_id)");
  await run(
    `insert into product_variants (item_id, sku, option_key, price, stock, active, position, version, created_at, updated_at)
     select id, 'FS-' || id, '', price, stock, 1, 0, 0, created_at, updated_at from items`,
  );
}

async function triggersSqlite(db: Kysely<unknown>) {
  const run = (text: string) => sql.raw(text).execute(db);
  await run(`create trigger items_default_variant after insert on items begin ${defaultVariant("new")}; end`);
  await run(`create trigger product_variants_added after insert on product_variants begin ${itemFigures("new.item_id")}; end`);
  await run(`create trigger product_variants_changed after update of stock, price, active on product_variants
    begin ${itemFigures("new.item_id")}; end`);
  await run(`create trigger product_variants_removed after delete on product_variants begin ${itemFigures("old.item_id")}; end`);
  await run(`create trigger items_figures_guard before update of stock, price on items when ${disagrees("new")}
    begin select raise(abort, '${REFUSED.replace("'", "''")}'); end`);
}

async function triggersPostgres(db: Kysely<unknown>) {
  const run = (text: string) => sql.raw(text).execute(db);
  await run(`create function shop_item_figures(item integer) returns void language sql as $$ ${itemFigures("item")} $$`);
  await run(`create function shop_items_default_variant() returns trigger language plpgsql as $$
    begin ${defaultVariant("new")}; return null; end $$`);
  await run("create trigger items_default_variant after insert on items for each row execute function shop_items_default_variant()");
  await run(`create function shop_product_variants_figures() returns trigger language plpgsql as $$
    begin perform shop_item_figures(case when tg_op = 'DELETE' then old.item_id else new.item_id end); return null; end $$`);
  await run(`create trigger product_variants_figures after insert or delete or update of stock, price, active on product_variants
    for each row execute function shop_product_variants_figures()`);
  await run(`create function shop_items_figures_guard() returns trigger language plpgsql as $$
    begin if ${disagrees("new")} then raise exception '${REFUSED.replace("'", "''")}'; end if; return new; end $$`);
  await run(`create trigger items_figures_guard before update of stock, price on items
    for each row when (old.stock is distinct from new.stock or old.price is distinct from new.price)
    execute function shop_items_figures_guard()`);
}

/** A line per variant: the default variant of each existing line's product. */
const VARIANT_OF_ITEM = "(select v.id from product_variants v where v.item_id = t.item_id and v.option_key = '')";

async function linesSqlite(db: Kysely<unknown>) {
  await db.transaction().execute(async (trx) => {
    const run = (text: string) => sql.raw(text).execute(trx);
    await run(`create table cart_lines_next (id integer primary key autoincrement,
      cart_id text not null references carts (id) on delete cascade,
      item_id integer not null references items (id) on delete cascade,
      variant_id integer not null references product_variants (id) on delete cascade,
      quantity integer not null check (quantity between 1 and 99),
      created_at text not null,
      unique (cart_id, variant_id))`);
    await run(`insert into cart_lines_next (id, cart_id, item_id, variant_id, quantity, created_at)
      select t.id, t.cart_id, t.item_id, ${VARIANT_OF_ITEM}, t.quantity, t.created_at from cart_lines t`);
    await run("delete from sqlite_sequence where name = 'cart_lines_next'");
    await run("insert into sqlite_sequence (name, seq) select 'cart_lines_next', seq from sqlite_sequence where name = 'cart_lines'");
    await run("drop table cart_lines");
    await run("alter table cart_lines_next rename to cart_lines");
    await run("create index cart_lines_item_id_idx on cart_lines (item_id)");
    await run("create index cart_lines_variant_id_idx on cart_lines (variant_id)");

    await run(`create table stock_reservations_next (
      payment_order_id text not null references payment_orders (id) on delete cascade,
      item_id integer not null references items (id) on delete cascade,
      variant_id integer not null references product_variants (id) on delete cascade,
      user_id integer not null references users (id) on delete cascade,
      quantity integer not null check (quantity between 1 and 99),
      expires_at text not null, created_at text not null,
      constraint stock_reservations_pkey primary key (payment_order_id, variant_id))`);
    await run(`insert into stock_reservations_next (payment_order_id, item_id, variant_id, user_id, quantity, expires_at, created_at)
      select t.payment_order_id, t.item_id, ${VARIANT_OF_ITEM}, t.user_id, t.quantity, t.expires_at, t.created_at
      from stock_reservations t`);
    await run("drop table stock_reservations");
    await run("alter table stock_reservations_next rename to stock_reservations");
    await run("create index stock_reservations_variant_id_expires_at_idx on stock_reservations (variant_id, expires_at)");
    await run("create index stock_reservations_item_id_idx on stock_reservations (item_id)");
    await run("create index stock_reservations_user_id_idx on stock_reservations (user_id)");
    await run("create index stock_reservations_expires_at_idx on stock_reservations (expires_at)");
  });
}

async function linesPostgres(db: Kysely<unknown>) {
  const run = (text: string) => sql.raw(text).execute(db);
  for (const table of ["cart_lines", "stock_reservations"]) {
    await run(`alter table ${table} add column variant_id integer references product_variants (id) on delete cascade`);
    await run(`update ${table} t set variant_id = ${VARIANT_OF_ITEM}`);
    await run(`alter table ${table} alter column variant_id set not null`);
  }
  await run("alter table cart_lines drop constraint cart_lines_cart_item_unique");
  await run("alter table cart_lines add constraint cart_lines_cart_variant_unique unique (cart_id, variant_id)");
  await run("create index cart_lines_variant_id_idx on cart_lines (variant_id)");
  await run("alter table stock_reservations drop constraint stock_reservations_pkey");
  await run("alter table stock_reservations add constraint stock_reservations_pkey primary key (payment_order_id, variant_id)");
  await run("drop index stock_reservations_item_id_expires_at_idx");
  await run("create index stock_reservations_variant_id_expires_at_idx on stock_reservations (variant_id, expires_at)");
  await run("create index stock_reservations_item_id_idx on stock_reservations (item_id)");
}

async function orderLines(db: Kysely<unknown>) {
  const run = (text: string) => sql.raw(text).execute(db);
  await run("alter table order_items add column variant_id integer");
  await run("alter table order_items add column sku text not null default ''");
  await run("alter table order_items add column variant_label text not null default ''");
  await run(`update order_items set (variant_id, sku) = (select v.id, v.sku from product_variants v
    where v.item_id = order_items.item_id and v.option_key = '') where item_id is not null`);
  await run("create index order_items_variant_id_idx on order_items (variant_id)");
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  await tables(db, pg);
  await (pg ? triggersPostgres(db) : triggersSqlite(db));
  await (pg ? linesPostgres(db) : linesSqlite(db));
  await orderLines(db);
}

/** Back to one line per product: a cart's lines of one product's variants become one (at most 99 units). */
export async function down(db: Kysely<unknown>): Promise<void> {
  const pg = isPostgres(db);
  const run = (text: string) => sql.raw(text).execute(db);
  await run("drop index if exists order_items_variant_id_idx");
  for (const column of ["variant_label", "sku", "variant_id"]) await run(`alter table order_items drop column ${column}`);
  await run(`delete from cart_lines where id not in (select min(id) from cart_lines group by cart_id, item_id)`);
  await run(
    `delete from stock_reservations where variant_id not in
      (select min(variant_id) from stock_reservations group by payment_order_id, item_id)`,
  );
  if (pg) {
    await run("alter table cart_lines drop constraint cart_lines_cart_variant_unique");
    await run("alter table cart_lines add constraint cart_lines_cart_item_unique unique (cart_id, item_id)");
    await run("alter table cart_lines drop column variant_id");
    await run("alter table stock_reservations drop constraint stock_reservations_pkey");
    await run("alter table stock_reservations add constraint stock_reservations_pkey primary key (payment_order_id, item_id)");
    await run("alter table stock_reservations drop column variant_id");
    await run("drop index if exists stock_reservations_item_id_idx");
    await run("create index stock_reservations_item_id_expires_at_idx on stock_reservations (item_id, expires_at)");
    await run("drop trigger if exists items_figures_guard on items");
    await run("drop trigger if exists items_default_variant on items");
    await run("drop trigger if exists product_variants_figures on product_variants");
    for (const f of ["shop_items_figures_guard", "shop_items_default_variant", "shop_product_variants_figures"])
      await run(`drop function if exists ${f}()`);
    await run("drop function if exists shop_item_figures(integer)");
  } else {
    await db.transaction().execute(async (trx) => {
      const tx = (text: string) => sql.raw(text).execute(trx);
      await tx(`create table cart_lines_prev (id integer primary key autoincrement,
        cart_id text not null references carts (id) on delete cascade,
        item_id integer not null references items (id) on delete cascade,
        quantity integer not null check (quantity between 1 and 99),
        created_at text not null,
        constraint cart_lines_cart_item_unique unique (cart_id, item_id))`);
      await tx(
        `insert into cart_lines_prev (id, cart_id, item_id, quantity, created_at)
          select id, cart_id, item_id, quantity, created_at from cart_lines`,
      );
      await tx("drop table cart_lines");
      await tx("alter table cart_lines_prev rename to cart_lines");
      await tx("create index cart_lines_item_id_idx on cart_lines (item_id)");
      await tx(`create table stock_reservations_prev (
        payment_order_id text not null references payment_orders (id) on delete cascade,
        item_id integer not null references items (id) on delete cascade,
        user_id integer not null references users (id) on delete cascade,
        quantity integer not null check (quantity between 1 and 99),
        expires_at text not null, created_at text not null,
        constraint stock_reservations_pkey primary key (payment_order_id, item_id))`);
      await tx(`insert into stock_reservations_prev select payment_order_id, item_id, user_id, quantity, expires_at, created_at
        from stock_reservations`);
      await tx("drop table stock_reservations");
      await tx("alter table stock_reservations_prev rename to stock_reservations");
      await tx("create index stock_reservations_item_id_expires_at_idx on stock_reservations (item_id, expires_at)");
      await tx("create index stock_reservations_user_id_idx on stock_reservations (user_id)");
      await tx("create index stock_reservations_expires_at_idx on stock_reservations (expires_at)");
    });
    for (const t of [
      "items_figures_guard",
      "items_default_variant",
      "product_variants_added",
      "product_variants_changed",
      "product_variants_removed",
    ]) {
      await run(`drop trigger if exists ${t}`);
    }
  }
  for (const table of ["variant_option_values", "product_variants", "product_option_values", "product_options"]) {
    await run(`drop table if exists ${table}`);
  }
}
