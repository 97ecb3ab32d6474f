// One Kysely instance for the process. The dialect comes from DATABASE_URL:
// `file:PATH` or a bare path is embedded SQLite (WAL); postgres:// is PostgreSQL.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { DatabaseConnection, Dialect, Driver, Expression, SqlBool, SqliteDatabase } from "kysely";
import { CamelCasePlugin, CompiledQuery, Kysely, PostgresAdapter, PostgresDialect, sql, SqliteDialect } from "kysely";
import pg from "pg";
import { env } from "./env.server";
import { observeQuery, watchPool } from "./metrics.server";
import type { DB } from "./db-schema";
import { remember } from "./remember.server";
import type { WriteListener, WriteState } from "./write-watch.server";
import { listenForWrites, sharedWrites, watchingCommits, WriteWatchPlugin } from "./write-watch.server";

export type Db = Kysely<DB>;

export function isPostgresUrl(url: string) {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** Is this database PostgreSQL (row locks needed), not SQLite (one writer at a time)? */
export function isPostgres(db: Kysely<DB>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export function sqlitePath(url: string) {
  return url.startsWith("file:") ? url.slice("file:".length) : url;
}

/**
 * A Kysely instance over `url`. `writes` is the data generation its writes move (the process's
 * own, sharedWrites, unless given: tests build a second "server" with a state of its own). On
 * PostgreSQL its counted writes are announced to every server, and the first read of the
 * generation opens this process's listening connection (app/lib/write-watch.server.ts, ADR 0016).
 */
export function createDb(url: string, { writes = sharedWrites }: { writes?: WriteState } = {}): Db {
  // WriteWatchPlugin and watchingCommits move the data generation the page cache reads (ADR 0016).
  const plugins = [new CamelCasePlugin(), new WriteWatchPlugin(writes)];
  if (isPostgresUrl(url)) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    const unwatchPool = watchPool(pool);
    let listener: WriteListener | null = null;
    if (!writes.listen) {
      writes.live = false;
      writes.listen = () => (listener ??= listenForWrites(url, writes));
    }
    const onDestroy = async () => {
      unwatchPool();
      if (!listener) return;
      await listener.stop();
      // Destroyed: a later instance over this state listens again.
      writes.listen = undefined;
      writes.live = true;
    };
    return new Kysely<DB>({
      dialect: watchingCommits(new PostgresDialect({ pool }), writes, { notify: true, onDestroy }),
      plugins,
      log: observeQuery,
    });
  }
  const file = sqlitePath(url);
  if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  return new Kysely<DB>({
    dialect: watchingCommits(immediateTransactions(new SqliteDialect({ database: reusingStatements(sqlite) })), writes),
    plugins,
    log: observeQuery,
  });
}

/**
 * SQLite transactions begin IMMEDIATE: each takes the write lock as it starts, and waits for it
 * (busy_timeout) while another process holds it (a second server over one file, `npm run worker`,
 * a script). A DEFERRED transaction that reads and then writes cannot wait: when another process
 * wrote after its first read, SQLite refuses the upgrade at once with SQLITE_BUSY, busy_timeout or
 * not, and the transaction fails (a server starting beside another's mail worker did). One process
 * runs its transactions one at a time on its one connection anyway, so nothing waits that did not.
 */
export function immediateTransactions(dialect: Dialect): Dialect {
  const begin = CompiledQuery.raw("begin immediate");
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: () => {
      const driver = dialect.createDriver();
      const wrapped: Driver = {
        init: () => driver.init(),
        acquireConnection: () => driver.acquireConnection(),
        beginTransaction: async (connection: DatabaseConnection) => {
          await connection.executeQuery(begin);
        },
        commitTransaction: (connection) => driver.commitTransaction(connection),
        rollbackTransaction: (connection) => driver.rollbackTransaction(connection),
        releaseConnection: (connection) => driver.releaseConnection(connection),
        destroy: () => driver.destroy(),
      };
      const { savepoint, rollbackToSavepoint, releaseSavepoint } = driver;
      if (savepoint) wrapped.savepoint = (connection, name, compile) => savepoint.call(driver, connection, name, compile);
      if (rollbackToSavepoint) {
        wrapped.rollbackToSavepoint = (connection, name, compile) => rollbackToSavepoint.call(driver, connection, name, compile);
      }
      if (releaseSavepoint)
        wrapped.releaseSavepoint = (connection, name, compile) => releaseSavepoint.call(driver, connection, name, compile);
      return wrapped;
    },
  };
}

/** How many prepared statements a SQLite database keeps (the app runs a few hundred distinct queries). */
const KEPT_STATEMENTS = 1000;

/**
 * The SQLite database as Kysely sees it, with its prepared statements kept: Kysely prepares every
 * query it runs, and preparing (parsing and planning the SQL) cost more than running most of a
 * page's small reads. A statement is reused for the same SQL text, its values bound again at each
 * run; one still being iterated is never handed out twice (a new one is prepared for that call).
 * The least recently used go beyond KEPT_STATEMENTS (queries with lists of varying length each
 * have a text of their own).
 */
function reusingStatements(sqlite: Database.Database): SqliteDatabase {
  const kept = new Map<string, Database.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      const found = kept.get(sql);
      if (found?.busy === false) {
        kept.delete(sql);
        kept.set(sql, found);
        return found;
      }
      const statement = sqlite.prepare(sql);
      if (!found) {
        kept.set(sql, statement);
        if (kept.size > KEPT_STATEMENTS) kept.delete(kept.keys().next().value!);
      }
      return statement;
    },
  };
}

export const db: Db = remember("db", () => createDb(env.DATABASE_URL));

/** Current time as the ISO string every timestamp column stores. */
export function nowIso(date = new Date()) {
  return date.toISOString();
}

/**
 * The clock holds are judged by (ADRs 0023, 0019), as nowIso writes it. On PostgreSQL, the
 * database's `clock_timestamp()` (the time now, not the transaction's start), read where the caller
 * stands: after its locks, so every server judges who gets the last unit or the last coupon use by
 * one clock, whatever its own says. On SQLite (one server), the app clock (`clock`).
 */
export async function dbNow(db: Db, clock: () => Date = () => new Date()): Promise<string> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return nowIso(clock());
  const { rows } = await sql<{ now: Date }>`select clock_timestamp() as now`.execute(db);
  return nowIso(new Date(rows[0]!.now));
}

/**
 * dbNow inside a query, as text comparable with a stored timestamp: on PostgreSQL read once per
 * statement (an uncorrelated subquery, so an index can use it), no round trip of its own.
 */
export function dbNowValue(db: Db, clock: () => Date = () => new Date()): Expression<string> {
  return dbNowFrom(db, nowIso(clock()));
}

/** dbNowValue with SQLite's "now" given (nowIso), as a prepared read takes its values; PostgreSQL reads its own. */
export function dbNowFrom(db: Db, now: string): Expression<string> {
  if (!isPostgres(db)) return sql.val(now);
  return sql<string>`(select to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`;
}

/** pg returns count(*) as a string; SQLite as a number. */
export function toCount(value: string | number | bigint | null | undefined) {
  return Number(value ?? 0);
}

/**
 * A write that must change a row: when none changed (the row vanished underneath, deleted by
 * another request or by housekeeping), it fails with `error` instead of passing silently.
 */
export function expectChanged(result: { numUpdatedRows?: bigint; numDeletedRows?: bigint }, error: () => Error): void {
  if (Number(result.numUpdatedRows ?? result.numDeletedRows ?? 0n) === 0) throw error();
}

/** A write refused by a unique constraint (SQLite and PostgreSQL word it differently). */
export function isUniqueViolation(error: unknown) {
  return /unique|duplicate/i.test(error instanceof Error ? error.message : "");
}

/**
 * A write refused by a foreign key: a row it points at was deleted meanwhile, or a row it deletes
 * gained a child meanwhile (PostgreSQL 23503; SQLite's FOREIGN KEY constraint failed). The checks
 * before such a write read committed rows only, so a request in flight can still hit the key: the
 * caller answers with its own 4xx, never a 500.
 */
export function isForeignKeyViolation(error: unknown) {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "23503" || code === "SQLITE_CONSTRAINT_FOREIGNKEY") return true;
  return /foreign key constraint/i.test(error instanceof Error ? error.message : "");
}

/**
 * A case-insensitive substring match on one column, the same on SQLite and PostgreSQL
 * (`%` and `_` in the search are matched literally). `asText` compares a number column's digits.
 */
export function containsText(column: string, search: string, asText = false): Expression<SqlBool> {
  // Nothing stored holds a NUL (PostgreSQL cannot; forms refuse one), and PostgreSQL refuses one
  // in a parameter: such a search matches nothing, without asking the database.
  if (search.includes("\u0000")) return sql<SqlBool>`1 = 0`;
  const pattern = `%${search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const value = asText ? sql`cast(${sql.ref(column)} as text)` : sql.ref(column);
  return sql<SqlBool>`lower(${value}) like ${pattern} escape ${"\\"}`;
}
