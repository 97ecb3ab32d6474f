// The large catalogue's pieces sold in variants (SEED=large): six generated products in seven get
// options by what they are (fabric and colour for sofas, finish and storage for beds, wood and finish
// for dining sets, fabric for chairs, a finish or a cushion for the rest), about 250,000 variants for
// 100,000 products. Written set-based (a few INSERT … SELECT statements, the same on SQLite and
// PostgreSQL), not product by product. Deterministic: each product's values follow from its id. As
// with the demo's (db/seed-variants.ts), the first variant keeps the product's price and the others
// cost more by position; its stock is shared out over its variants, so each product's own figures
// (its lowest price, its stock summed, kept by the triggers of migration 0032) stay the generated ones.
import type { Transaction } from "kysely";
import { PostgresAdapter, sql } from "kysely";
import type { DB } from "../app/lib/db-schema";
import { slugify } from "../app/utils/slug";

interface LargeOption {
  name: string;
  /** the values a product takes its `take` from, starting at a place its id chooses */
  pool: string[];
  take: number;
  /** rupees added per place after the first */
  extra: number;
}

interface LargeGroup {
  /** titles ending in one of these */
  kinds: string[];
  /** one or two options */
  options: [LargeOption] | [LargeOption, LargeOption];
}

const FABRIC = ["Cotton Linen", "Velvet", "Suede", "Leatherette", "Jute Blend", "Chenille"];
const FINISH = ["Natural", "Walnut", "Honey Teak", "Wenge", "Frosty White", "Provincial Teak"];
const WOOD = ["Sheesham", "Mango Wood", "Acacia", "Teak"];

export const LARGE_VARIANT_GROUPS: LargeGroup[] = [
  {
    kinds: ["Sofa"],
    options: [
      { name: "Fabric", pool: FABRIC, take: 2, extra: 4000 },
      { name: "Colour", pool: ["Ash Grey", "Teal", "Mustard", "Beige", "Olive", "Rust"], take: 2, extra: 0 },
    ],
  },
  { kinds: ["Patio Set", "Balcony Set", "Swing Chair", "Sun Lounger"], options: [{ name: "Cushion", pool: FABRIC, take: 3, extra: 1200 }] },
  { kinds: ["Loveseat", "Armchair", "Recliner", "Diwan", "Chair"], options: [{ name: "Fabric", pool: FABRIC, take: 3, extra: 2500 }] },
  {
    kinds: ["Bed"],
    options: [
      { name: "Finish", pool: FINISH, take: 2, extra: 3000 },
      { name: "Storage", pool: ["No Storage", "Box Storage", "Hydraulic Storage"], take: 2, extra: 6000 },
    ],
  },
  {
    kinds: ["Dining Set"],
    options: [
      { name: "Wood", pool: WOOD, take: 2, extra: 5000 },
      { name: "Finish", pool: FINISH, take: 2, extra: 1500 },
    ],
  },
  { kinds: [""], options: [{ name: "Finish", pool: FINISH, take: 2, extra: 1500 }] },
];

/** The row triggers on the tables written here (PostgreSQL names them per table). */
const ROW_TRIGGERS = [
  ["items", "items_default_variant"],
  ["product_variants", "product_variants_figures"],
  ["product_variants", "variant_facets_active"],
  ["product_variants", "variant_facets_stock"],
  ["variant_option_values", "variant_facets_linked"],
] as const;

/** migration 0032's default variant of each product after `afterId` (the insert trigger's statement, set-based). */
const defaultVariantsAfter = (afterId: number) => `insert into product_variants
    (item_id, sku, option_key, price, stock, active, position, version, created_at, updated_at)
  select id, 'FS-' || id, '', price, stock, 1, 0, 0, created_at, updated_at from items where id > ${afterId}`;

/** migration 0034's rows, for the seeded products' variants (the trigger's statement, set-based). */
const FACETS_OF_SEEDED = `insert into variant_facets (variant_id, option_value_id, item_id, category_id, option_slug, value_slug,
    option_name, value, value_position, in_stock, price, featured)
  select pv.id, v.id, pv.item_id, i.category_id, o.slug, v.slug, o.name, v.value, v.position,
    case when pv.stock > 0 then 1 else 0 end, i.price, i.featured
  from seed_combos c
  join product_variants pv on pv.item_id = c.item_id and pv.option_key = c.option_key
  join variant_option_values x on x.variant_id = pv.id
  join product_option_values v on v.id = x.option_value_id
  join product_options o on o.id = v.option_id
  join items i on i.id = pv.item_id
  where pv.active = 1`;

/** migration 0032's figures of the seeded products, where they differ (none should). */
const FIGURES_OF_SEEDED = `update items set version = items.version + 1, stock = f.stock, price = f.price
  from (select pv.item_id, sum(pv.stock) as stock, min(pv.price) as price from product_variants pv
        where pv.active = 1 and pv.item_id in (select item_id from seed_variant_items where grp is not null)
        group by pv.item_id) as f
  where items.id = f.item_id and (items.stock <> f.stock or items.price <> f.price)`;

const quote = (text: string) => `'${text.replace(/'/g, "''")}'`;
const pool = (values: string[]) => values.map((v, i) => `(${i}, ${quote(v)}, ${quote(slugify(v))})`).join(", ");
const places = (take: number) => Array.from({ length: take }, (_, i) => `(${i})`).join(", ");

const isPg = (trx: Transaction<DB>) => trx.getExecutor().adapter instanceof PostgresAdapter;

/**
 * The generated products, then their options and variants, in the caller's transaction:
 * `insertItems` writes the products (their ids after `afterId`; the demo's keep theirs). Answers
 * how many variants the catalogue has. PostgreSQL: the row triggers that give each product its
 * default variant and keep the products' figures and the facets (migrations 0032 and 0034) are off
 * for this transaction's bulk writes (a row at a time they took over three minutes for 100,000
 * products and 250,000 variants); their work is done set-based here, and they are on again at its end.
 */
export async function seedGeneratedProducts(
  trx: Transaction<DB>,
  insertItems: () => Promise<void>,
  afterId: number,
  now: string,
): Promise<number> {
  const pg = isPg(trx);
  const run = (text: string) => sql.raw(text).execute(trx);
  if (pg) for (const [table, trigger] of ROW_TRIGGERS) await run(`alter table ${table} disable trigger ${trigger}`);
  await insertItems();
  if (pg) await run(defaultVariantsAfter(afterId));
  const variants = await seedLargeVariants(trx, afterId, now);
  if (pg) for (const [table, trigger] of ROW_TRIGGERS) await run(`alter table ${table} enable trigger ${trigger}`);
  return variants;
}

/**
 * Options and variants for the generated products after `afterId`, each with its default variant
 * (on PostgreSQL with the row triggers off: seedGeneratedProducts).
 */
async function seedLargeVariants(trx: Transaction<DB>, afterId: number, now: string): Promise<number> {
  const run = (text: string) => sql.raw(text).execute(trx);
  const pg = isPg(trx);
  const group = LARGE_VARIANT_GROUPS.map(
    (g, i) => `when ${g.kinds.map((k) => `i.title like ${quote(`%${k}`)}`).join(" or ")} then ${i}`,
  ).join(" ");
  await run(`create temp table seed_variant_items as
    select i.id as item_id, case ${group} end as grp, i.price, i.stock from items i where i.id > ${afterId} and i.id % 7 <> 0`);
  if (pg) await run("analyze seed_variant_items");
  await run(`create temp table seed_combos (item_id integer not null, pos integer not null, option_key text not null,
    v0 integer not null, v1 integer, price integer not null, stock integer not null, sku text not null)`);
  const now_ = quote(now);
  for (const [g, spec] of LARGE_VARIANT_GROUPS.entries()) {
    for (const [position, option] of spec.options.entries()) {
      await run(`insert into product_options (item_id, name, slug, position, created_at)
        select item_id, ${quote(option.name)}, ${quote(slugify(option.name))}, ${position}, ${now_}
        from seed_variant_items where grp = ${g}`);
      // The product's values: `take` of the pool in a row, from a place its id chooses (distinct: take <= the pool).
      await run(`with pool (idx, value, slug) as (values ${pool(option.pool)}), pick (n) as (values ${places(option.take)})
        insert into product_option_values (option_id, item_id, value, slug, position)
        select o.id, o.item_id, pool.value, pool.slug, pick.n
        from seed_variant_items s join product_options o on o.item_id = s.item_id and o.position = ${position}
        cross join pick join pool on pool.idx = (s.item_id / 7 + pick.n) % ${option.pool.length}
        where s.grp = ${g}`);
    }
    const [first, second] = spec.options;
    const count = first.take * (second?.take ?? 1);
    const values = (p: number) => `join product_options o${p} on o${p}.item_id = s.item_id and o${p}.position = ${p}
        join product_option_values v${p} on v${p}.option_id = o${p}.id`;
    const pos = second ? `v0.position * ${second.take} + v1.position` : "v0.position";
    // Shares of the stock that add up to it: floor((stock + k) / n) over k = 0 … n-1.
    await run(`insert into seed_combos (item_id, pos, option_key, v0, v1, price, stock, sku)
      select s.item_id, ${pos},
        ${second ? "cast(v0.id as text) || '.' || cast(v1.id as text)" : "cast(v0.id as text)"},
        v0.id, ${second ? "v1.id" : "null"},
        s.price + v0.position * ${first.extra}${second ? ` + v1.position * ${second.extra}` : ""},
        (s.stock + ${pos}) / ${count},
        'SL-' || cast(s.item_id as text) || '-' || cast(${pos} + 1 as text)
      from seed_variant_items s ${values(0)} ${second ? values(1) : ""}
      where s.grp = ${g}`);
  }
  if (pg) await run("analyze seed_combos");
  // The product's own variant becomes its first combination; the others are added, then every variant's values linked.
  await run(`update product_variants as pv set option_key = c.option_key, sku = c.sku, price = c.price, stock = c.stock,
      updated_at = ${now_}
    from seed_combos c where c.item_id = pv.item_id and c.pos = 0 and pv.option_key = ''`);
  await run(`insert into product_variants (item_id, sku, option_key, price, stock, active, position, version, created_at, updated_at)
    select item_id, sku, option_key, price, stock, 1, pos, 0, ${now_}, ${now_} from seed_combos where pos > 0`);
  await run(`insert into variant_option_values (variant_id, option_value_id)
    select pv.id, c.v0 from seed_combos c join product_variants pv on pv.item_id = c.item_id and pv.option_key = c.option_key
    union all
    select pv.id, c.v1 from seed_combos c join product_variants pv on pv.item_id = c.item_id and pv.option_key = c.option_key
    where c.v1 is not null`);
  if (pg) {
    // What the triggers would have written: the facets of the new variants' values, and each product's
    // figures (unchanged by construction: the first variant at its price, its stock shared out).
    await run(FACETS_OF_SEEDED);
    await run(FIGURES_OF_SEEDED);
  }
  await run("drop table seed_combos");
  await run("drop table seed_variant_items");
  const total = await trx
    .selectFrom("productVariants")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(total.n);
}
