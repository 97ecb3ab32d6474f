// Starting and stopping app servers (issue 15): migrations newer than the code refuse the start;
// servers starting together run each migration once (Kysely's Migrator holds a PostgreSQL advisory
// lock around its run); GET /readyz says whether a load balancer may send work here.
import crypto from "node:crypto";
import { sql } from "kysely";
import type { Kysely } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { createDb, db, isPostgresUrl } from "~/lib/db.server";
import { env, StartupError } from "~/lib/env.server";
import { beginShutdown, isShuttingDown, readiness as readinessOf } from "~/lib/lifecycle.server";
import { migrateToLatest, pendingMigrations, unknownMigrations } from "~/lib/migrate.server";
import { loader as readyz } from "~/routes/readyz";
import { migrations } from "../../db/migrations";

const FUTURE = "2099-01-01-9999-from-a-newer-version";
const names = Object.keys(migrations);

async function readiness() {
  const response = await readyz();
  return { status: response.status, body: (await response.json()) as { status: string }, cache: response.headers.get("Cache-Control") };
}

describe("migrations at startup", () => {
  it("a database with migrations this code does not know refuses the start, naming them", async () => {
    await ready;
    await sql`insert into kysely_migration (name, timestamp) values (${FUTURE}, ${new Date().toISOString()})`.execute(db);
    try {
      expect(await unknownMigrations(db)).toEqual([FUTURE]);
      const error = await migrateToLatest(db).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(StartupError);
      expect((error as Error).message).toBe(
        `the database has migrations this version does not know: ${FUTURE}; ` +
          "deploy the newer version (or a version that has them) on every server, or restore a backup taken before they ran",
      );
    } finally {
      await sql`delete from kysely_migration where name = ${FUTURE}`.execute(db);
    }
    expect(await unknownMigrations(db)).toEqual([]);
    expect(await migrateToLatest(db)).toEqual([]);
  });

  it.skipIf(!isPostgresUrl(env.DATABASE_URL))(
    "three servers migrating an empty PostgreSQL database together all succeed, and each migration runs once",
    async () => {
      const name = `shop_lock_${crypto.randomBytes(6).toString("hex")}`;
      const admin = new pg.Client({ connectionString: process.env.TEST_PG_URL });
      await admin.connect();
      await admin.query(`create database ${name}`);
      const url = new URL(process.env.TEST_PG_URL!);
      url.pathname = `/${name}`;
      const servers = [0, 1, 2].map(() => createDb(url.toString()));
      // The real migrations (a second run of any would fail: its tables exist), and a probe that counts its runs.
      const probe = "2099-12-31-9999-probe";
      const known = {
        ...migrations,
        [probe]: {
          async up(raw: Kysely<unknown>) {
            await sql`create table if not exists probe_runs (at text not null)`.execute(raw);
            await sql`insert into probe_runs (at) values (${new Date().toISOString()})`.execute(raw);
          },
        },
      };
      try {
        const results = await Promise.all(servers.map((server) => migrateToLatest(server, known)));
        const ran = results.flat();
        expect(ran.every((r) => r.status === "Success")).toBe(true);
        expect(ran.map((r) => r.migrationName).sort()).toEqual([...names, probe].sort());
        const { rows } = await sql<{ name: string }>`select name from kysely_migration`.execute(servers[0]!);
        expect(rows.map((r) => r.name).sort()).toEqual([...names, probe].sort());
        const probes = await sql<{ n: string }>`select count(*) as n from probe_runs`.execute(servers[0]!);
        expect(Number(probes.rows[0]!.n)).toBe(1);
      } finally {
        for (const server of servers) await server.destroy();
        await admin.query(`drop database ${name}`);
        await admin.end();
      }
    },
  );
});

// In this order: readiness is remembered once every migration has run, and shutdown is for good.
describe("GET /readyz", () => {
  it("is 503 while a migration of this code has not run, then 200; never cached", async () => {
    await ready;
    const last = names.at(-1)!;
    const row = await sql<{ timestamp: string }>`select timestamp from kysely_migration where name = ${last}`.execute(db);
    await sql`delete from kysely_migration where name = ${last}`.execute(db);
    try {
      expect(await pendingMigrations(db)).toEqual([last]);
      expect(await readiness()).toEqual({ status: 503, body: { status: "migrations-pending" }, cache: "no-store" });
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${last}, ${row.rows[0]!.timestamp})`.execute(db);
    }
    expect(await readiness()).toEqual({ status: 200, body: { status: "ready" }, cache: "no-store" });
  });

  it("is 503 when the database does not answer", async () => {
    const unreachable = createDb("postgres://postgres@127.0.0.1:1/shop");
    try {
      expect(await readinessOf(unreachable)).toBe("database-unavailable");
    } finally {
      await unreachable.destroy();
    }
  });

  it("is 503 from the moment the server begins to stop", async () => {
    expect(isShuttingDown()).toBe(false);
    beginShutdown();
    expect(await readiness()).toEqual({ status: 503, body: { status: "shutting-down" }, cache: "no-store" });
  });
});
