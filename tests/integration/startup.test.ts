// Starting and stopping app servers (ADR 0020): migrations newer than the code refuse the start;
// servers starting together run each migration once (Kysely's Migrator holds a PostgreSQL advisory
// lock around its run); GET /readyz says whether a load balancer may send work here.
import crypto from "node:crypto";
import net from "node:net";
import { sql } from "kysely";
import type { Kysely } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { createDb, db, isPostgresUrl } from "~/lib/db.server";
import { env, StartupError } from "~/lib/env.server";
import { assertClockInStep, clockSkewMs } from "~/lib/clock-skew.server";
import { beginShutdown, cachedReadiness, forgetReadiness, isShuttingDown, readiness as readinessOf } from "~/lib/lifecycle.server";
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

  it("a newer version that migrated while this server waited for the lock is seen after the run: refused", async () => {
    await ready;
    // A migration of this code's set stands in for the newer server that ran under the lock first.
    const probe = "2099-12-30-9999-newer-server-ran-first";
    const known = {
      ...migrations,
      [probe]: {
        async up(raw: Kysely<unknown>) {
          await sql`insert into kysely_migration (name, timestamp) values (${FUTURE}, ${new Date().toISOString()})`.execute(raw);
        },
      },
    };
    try {
      const error = await migrateToLatest(db, known).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(StartupError);
      expect((error as Error).message).toMatch(new RegExp(`^the database has migrations this version does not know: ${FUTURE};`));
    } finally {
      await sql`delete from kysely_migration where name in (${FUTURE}, ${probe})`.execute(db);
    }
  });

  it.skipIf(!isPostgresUrl(env.DATABASE_URL))("a server whose clock is more than 60 s from the database's refuses to start", async () => {
    await ready;
    expect(Math.abs((await clockSkewMs(db))!)).toBeLessThan(5000);
    for (const offset of [90_000, -90_000]) {
      const error = await assertClockInStep(db, () => Date.now() + offset).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(StartupError);
      expect((error as Error).message).toMatch(
        new RegExp(`^this server's clock is 9\\d s ${offset > 0 ? "ahead of" : "behind"} the database's \\(at most 60 s allowed\\)`),
      );
    }
    await assertClockInStep(db, () => Date.now() + 30_000);
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
    // three servers each running every migration's check against one database: about 5 s on a
    // quiet machine, four times that on a busy one
    60_000,
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
    // Within the second the probe's answer is the one check's; the next check sees the migration.
    expect(await readiness()).toEqual({ status: 503, body: { status: "migrations-pending" }, cache: "no-store" });
    forgetReadiness();
    expect(await readiness()).toEqual({ status: 200, body: { status: "ready" }, cache: "no-store" });
  });

  it("many probes within a second cost one check: at most one database round trip a second", async () => {
    let queries = 0;
    const counted = db.withPlugin({
      transformQuery: (args) => (queries++, args.node),
      transformResult: async (args) => args.result,
    });
    expect(await cachedReadiness(counted)).toBe("ready");
    const first = queries;
    expect(first).toBeGreaterThan(0);
    const answers = await Promise.all(Array.from({ length: 50 }, () => cachedReadiness(counted)));
    expect(new Set(answers)).toEqual(new Set(["ready"]));
    expect(queries).toBe(first);
  });

  it("is 503 database-unavailable within its time limit when the database accepts the connection but never answers", async () => {
    const sockets: net.Socket[] = [];
    const hung = net.createServer((socket) => void sockets.push(socket));
    await new Promise<void>((resolve) => hung.listen(0, "127.0.0.1", resolve));
    const port = (hung.address() as net.AddressInfo).port;
    const hangs = createDb(`postgres://postgres@127.0.0.1:${port}/shop`);
    try {
      const start = Date.now();
      expect(await readinessOf(hangs, { timeoutMs: 300 })).toBe("database-unavailable");
      expect(Date.now() - start).toBeLessThan(1500);
    } finally {
      for (const socket of sockets) socket.destroy();
      hung.close();
      void hangs.destroy().catch(() => {});
    }
  });

  it.skipIf(!isPostgresUrl(env.DATABASE_URL))(
    "is 503 secrets-mismatch when another server recorded a value this one does not have",
    async () => {
      await ready;
      const row = await db.selectFrom("sharedSecrets").select("fingerprint").where("name", "=", "one-time-codes").executeTakeFirstOrThrow();
      expect(await readinessOf(db, { fresh: true })).toBe("ready");
      await db
        .updateTable("sharedSecrets")
        .set({ fingerprint: "scrypt2:recorded-by-another-server" })
        .where("name", "=", "one-time-codes")
        .execute();
      try {
        expect(await readinessOf(db, { fresh: true })).toBe("secrets-mismatch");
      } finally {
        await db.updateTable("sharedSecrets").set({ fingerprint: row.fingerprint }).where("name", "=", "one-time-codes").execute();
      }
      expect(await readinessOf(db, { fresh: true })).toBe("ready");
    },
  );

  it.skipIf(!isPostgresUrl(env.DATABASE_URL))(
    "is 503 clock-skew when this server's clock is more than 60 s from the database's",
    async () => {
      await ready;
      expect(await readinessOf(db, { fresh: true, now: () => Date.now() + 90_000 })).toBe("clock-skew");
      expect(await readinessOf(db, { fresh: true, now: () => Date.now() - 90_000 })).toBe("clock-skew");
      expect(await readinessOf(db, { fresh: true, now: () => Date.now() + 30_000 })).toBe("ready");
      // Checked at most once a minute: without fresh, the last answer stands.
      expect(await readinessOf(db, { now: () => Date.now() + 90_000 })).toBe("ready");
    },
  );

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
