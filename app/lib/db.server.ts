// One Kysely instance for the process. The dialect comes from DATABASE_URL:
// `file:PATH` or a bare path is embedded SQLite (WAL); postgres:// is PostgreSQL.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import type { Expression, SqlBool } from "kysely";
import { CamelCasePlugin, Kysely, PostgresDialect, sql, SqliteDialect } from "kysely";
import pg from "pg";
import { env } from "./env.server";
import type { DB } from "./db-schema";
import { watchingCommits, WriteWatchPlugin } from "./write-watch.server";

export type Db = Kysely<DB>;

export function isPostgresUrl(url: string) {
  return /^postgres(ql)?:\/\//i.test(url);
}

export function sqlitePath(url: string) {
  return url.startsWith("file:") ? url.slice("file:".length) : url;
}

export function createDb(url: string): Db {
  // WriteWatchPlugin and watchingCommits move the data generation the page cache reads (ADR 0016).
  const plugins = [new CamelCasePlugin(), new WriteWatchPlugin()];
  if (isPostgresUrl(url)) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    return new Kysely<DB>({ dialect: watchingCommits(new PostgresDialect({ pool })), plugins });
  }
  const file = sqlitePath(url);
  if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  return new Kysely<DB>({ dialect: watchingCommits(new SqliteDialect({ database: sqlite })), plugins });
}

const globalForDb = globalThis as unknown as { __shopDb?: Db };
export const db: Db = globalForDb.__shopDb ?? (globalForDb.__shopDb = createDb(env.DATABASE_URL));

/** Current time as the ISO string every timestamp column stores. */
export function nowIso(date = new Date()) {
  return date.toISOString();
}

/** pg returns count(*) as a string; SQLite as a number. */
export function toCount(value: string | number | bigint | null | undefined) {
  return Number(value ?? 0);
}

/** A write refused by a unique constraint (SQLite and PostgreSQL word it differently). */
/**
 * A write that must change a row: when none changed (the row vanished underneath, deleted by
 * another request or by housekeeping), it fails with `error` instead of passing silently.
 */
export function expectChanged(result: { numUpdatedRows?: bigint; numDeletedRows?: bigint }, error: () => Error): void {
  if (Number(result.numUpdatedRows ?? result.numDeletedRows ?? 0n) === 0) throw error();
}

export function isUniqueViolation(error: unknown) {
  return /unique|duplicate/i.test(error instanceof Error ? error.message : "");
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
