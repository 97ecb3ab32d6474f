import type { Compilable, CompiledQuery, RootOperationNode } from "kysely";
import { createQueryId } from "kysely";
import type { Db } from "./db.server";

// A read that runs on every rendered page, compiled by Kysely once per database and shape, then
// run again with each call's values.
//
// Kysely builds a query as a tree of frozen nodes, runs its plugins over it and compiles its SQL
// on every call, which for a page's small reads costs more than SQLite running them: the product
// page's one query (what other customers hold of its stock) took 4 % of the page's server time.
// The prepared statement behind it is kept either way (db.server.ts).

/** A call's value, as the query is built: matched by identity in the compiled parameters. */
class Slot {
  constructor(readonly index: number) {}
}

interface Kept {
  sql: string;
  query: RootOperationNode;
  /** For each parameter of the SQL, the index of the call's value it takes. */
  slots: number[];
}

const keptByDb = new WeakMap<Db, Map<string, Kept>>();

/** How many shapes a database keeps (a list's every length is one): the least recently used go first. */
const KEPT_SHAPES = 200;

/** Under tests, every call builds its query again and checks it is the kept one (a wrong `shape`). */
const CHECK_EVERY_CALL = process.env.NODE_ENV === "test";

function flatten(args: Record<string, unknown>): { values: unknown[]; standIns: Record<string, unknown>; lengths: string } {
  const values: unknown[] = [];
  const standIns: Record<string, unknown> = {};
  const lengths: string[] = [];
  const slot = (value: unknown) => {
    values.push(value);
    return new Slot(values.length - 1);
  };
  for (const key of Object.keys(args).sort()) {
    const value = args[key];
    if (Array.isArray(value)) {
      standIns[key] = value.map(slot);
      lengths.push(`${key}[${value.length}]`);
    } else standIns[key] = slot(value);
  }
  return { values, standIns, lengths: lengths.join(",") };
}

function compile(build: (args: never) => Compilable<unknown>, standIns: Record<string, unknown>, name: string): Kept {
  const compiled = build(standIns as never).compile();
  const slots = compiled.parameters.map((parameter) => {
    // A value written into the query itself would be this call's for every later call: refused.
    if (!(parameter instanceof Slot)) throw new Error(`prepared read ${name}: a value not given in its arguments`);
    return parameter.index;
  });
  return { sql: compiled.sql, query: compiled.query, slots };
}

/**
 * Runs `build`'s query with `args`. `build` receives `args` with every value (and every item of a
 * list) replaced by a stand-in, and must take each value it uses from there: a value written into
 * the query directly is refused. `shape` names whatever else the query's SQL depends on (a
 * condition present or not); a list's length is part of the shape already. A value the SQL does
 * not use on one database (the clock on PostgreSQL, which reads its own) is simply left out.
 */
export async function preparedRead<Args extends Record<string, unknown>, Row>(
  db: Db,
  name: string,
  shape: string,
  args: Args,
  build: (args: Args) => Compilable<Row>,
): Promise<Row[]> {
  const { values, standIns, lengths } = flatten(args);
  const key = `${name}|${shape}|${lengths}`;
  let kept = keptByDb.get(db);
  if (!kept) keptByDb.set(db, (kept = new Map()));
  let found = kept.get(key);
  const fresh = !found;
  if (!found) {
    found = compile(build, standIns, name);
    if (kept.size >= KEPT_SHAPES) kept.delete(kept.keys().next().value!);
  } else kept.delete(key);
  kept.set(key, found);
  if (CHECK_EVERY_CALL && !fresh) {
    const again = compile(build, standIns, name);
    if (again.sql !== found.sql || again.slots.join() !== found.slots.join()) {
      throw new Error(`prepared read ${name}: shape "${shape}" holds two different queries`);
    }
  }
  const query: CompiledQuery<Row> = {
    sql: found.sql,
    query: found.query,
    queryId: createQueryId(),
    parameters: found.slots.map((index) => values[index]),
  };
  return (await db.executeQuery(query)).rows;
}
