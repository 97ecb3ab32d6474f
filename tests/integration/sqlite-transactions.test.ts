// SQLite transactions take the write lock as they begin (app/lib/db.server.ts immediateTransactions):
// a transaction that reads and then writes, while another process writes the same file, waits for
// its turn instead of failing. With SQLite's default DEFERRED begin, the other process's write
// landed between the read and the write, and the write then failed at once with SQLITE_BUSY,
// whatever busy_timeout said: a production server failed to start beside another's mail worker.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "~/lib/db.server";
import { createDb, isPostgresUrl } from "~/lib/db.server";

const onPostgres = isPostgresUrl(process.env.DATABASE_URL ?? "");

describe.skipIf(onPostgres)("SQLite transactions beside another process", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlite-immediate-"));
  const file = path.join(dir, "shop.db");
  let db: Db;
  let other: Database.Database;

  beforeAll(async () => {
    db = createDb(`file:${file}`);
    await sql`create table t (k text primary key, v integer not null)`.execute(db);
    await sql`insert into t (k, v) values ('a', 1)`.execute(db);
    // Another process's connection: it never waits, so it shows who holds the lock.
    other = new Database(file);
    other.pragma("busy_timeout = 0");
  });

  afterAll(async () => {
    other.close();
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a read-then-write transaction holds the write lock from its start and commits; the other writer is kept out meanwhile", async () => {
    let othersWrite: string | null = null;
    await db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ v: number }>`select v from t where k = 'a'`.execute(trx);
      expect(rows[0]!.v).toBe(1);
      try {
        other.prepare("insert into t (k, v) values ('b', 2)").run();
        othersWrite = "written";
      } catch (error) {
        othersWrite = (error as { code?: string }).code ?? String(error);
      }
      await sql`update t set v = v + 1 where k = 'a'`.execute(trx);
    });
    // Before: the other process wrote between the read and the write, and this update failed with SQLITE_BUSY.
    expect(othersWrite).toBe("SQLITE_BUSY");
    const { rows } = await sql<{ k: string; v: number }>`select k, v from t order by k`.execute(db);
    expect(rows).toEqual([{ k: "a", v: 2 }]);
    // Once it committed, the other process writes as usual.
    other.prepare("insert into t (k, v) values ('b', 2)").run();
  });
});
