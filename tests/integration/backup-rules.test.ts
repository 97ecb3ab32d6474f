// Backups (ADR 0029), everything but the drill (backup-drill.test.ts): what a restore refuses, in
// the module and through `npm run restore` (one line, its exit code, nothing changed), --replace,
// an older backup migrated forward, and the schedule: of two servers sharing the lease exactly one
// makes each turn's backup, and a failure is logged loudly and shown on /admin until one succeeds.
// Runs on SQLite and on PostgreSQL (scripts/test-pg.sh).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { migrations } from "../../db/migrations";
import { BackupAlert } from "~/components/BackupAlert";
import type { BackupMade, BackupSchedule, ShopStorage } from "~/lib/backup/backup.server";
import { BackupRefusal, createBackup, restoreBackup, shopStorage } from "~/lib/backup/backup.server";
import { backupAlert } from "~/lib/backup/status.server";
import { ready } from "~/lib/boot.server";
import type { Db } from "~/lib/db.server";
import { createDb, db, toCount } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { BACKUP_LEASE, BACKUP_RETRY_MS, backupIfDue, startWorker } from "~/lib/housekeeping.server";
import { WORKER_ID } from "~/lib/outbox.server";
import { migrateToLatest } from "~/lib/migrate.server";
import * as dashboard from "~/routes/admin._index";
import { grantAdmin } from "~/web/sign-in.server";
import { backupDir, newShop } from "../support/backups";
import { getRequest, mergeCookies } from "../support/requests";
import { asRecord, call } from "../support/route-calls";

const root = path.resolve(__dirname, "../..");
const HOUR = 60 * 60 * 1000;
let backup: BackupMade;

async function withDb<T>(storage: ShopStorage, work: (db: Db) => Promise<T>): Promise<T> {
  const other = createDb(storage.databaseUrl);
  try {
    return await work(other);
  } finally {
    await other.destroy();
  }
}

const countRows = (target: Db, table: "users" | "categories") =>
  target
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow()
    .then((row) => toCount(row.n as number | string));

/** What restoreBackup throws, as its exit code and message. */
async function refusal(promise: Promise<unknown>): Promise<{ exitCode: number; message: string }> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BackupRefusal);
  const { exitCode, message } = error as BackupRefusal;
  return { exitCode, message };
}

/** `npm run restore -- ARGS` over `storage`: its exit code and output. */
function runRestore(storage: ShopStorage, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(path.join(root, "node_modules/.bin/tsx"), ["scripts/restore.ts", ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: storage.databaseUrl, DATA_DIR: storage.dataDir, NODE_ENV: "production" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("exit", (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  await ready;
  backup = await createBackup(shopStorage(), backupDir("rules"));
});

describe("what a restore refuses", () => {
  it("a database that is not empty, unless --replace; then it replaces everything in it", async () => {
    const refused = await refusal(restoreBackup(backup.file, shopStorage()));
    expect(refused.exitCode).toBe(3);
    expect(refused.message).toMatch(/is not empty; .*--replace/);

    const target = await newShop("replace");
    await restoreBackup(backup.file, target);
    const marker = () => restoredDb.selectFrom("settings").select("value").where("key", "=", "made-after-the-restore");
    let restoredDb = createDb(target.databaseUrl);
    try {
      await restoredDb
        .insertInto("settings")
        .values({ key: "made-after-the-restore", value: "1", updatedAt: new Date().toISOString() })
        .execute();
      expect(await marker().executeTakeFirst()).toBeDefined();
    } finally {
      await restoredDb.destroy();
    }
    expect((await refusal(restoreBackup(backup.file, target))).exitCode).toBe(3);
    await restoreBackup(backup.file, target, { replace: true });
    restoredDb = createDb(target.databaseUrl);
    try {
      expect(await marker().executeTakeFirst()).toBeUndefined();
      expect(await countRows(restoredDb, "categories")).toBe(5);
    } finally {
      await restoredDb.destroy();
    }
  });

  it("a backup from newer migrations than the code knows, before touching anything", async () => {
    const future = "2099-01-01-9999-from-a-later-version";
    await db
      .insertInto("kysely_migration" as never)
      .values({ name: future, timestamp: new Date().toISOString() } as never)
      .execute();
    let newer: BackupMade;
    try {
      newer = await createBackup(shopStorage(), backupDir("newer"));
    } finally {
      await db
        .deleteFrom("kysely_migration" as never)
        .where("name" as never, "=", future as never)
        .execute();
    }
    expect(path.basename(newer.file)).toMatch(/-m9999\.tar$/);
    const target = await newShop("newer");
    const refused = await refusal(restoreBackup(newer.file, target));
    expect(refused).toEqual({ exitCode: 4, message: expect.stringContaining(future) as string });
    await withDb(target, async (untouched) => expect(await untouched.introspection.getTables()).toEqual([]));
  });

  it("a truncated file and a file whose bytes changed, leaving the target empty", async () => {
    const whole = fs.readFileSync(backup.file);
    const dir = backupDir("damaged");
    const truncated = path.join(dir, "truncated.tar");
    fs.writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length / 2)));
    const flipped = Buffer.from(whole);
    flipped[Math.floor(whole.length / 2)] ^= 0xff; // inside the database's entry, by far the largest
    const changed = path.join(dir, "changed.tar");
    fs.writeFileSync(changed, flipped);
    const notTar = path.join(dir, "notes.tar");
    fs.writeFileSync(notTar, "just some text, not a backup\n".repeat(100));
    const target = await newShop("damaged");
    for (const file of [truncated, changed, notTar]) {
      const refused = await refusal(restoreBackup(file, target));
      expect(refused.exitCode, file).toBe(5);
    }
    await withDb(target, async (untouched) => expect(await untouched.introspection.getTables()).toEqual([]));
    expect(fs.existsSync(path.join(target.dataDir, "uploads"))).toBe(false);
  });

  it("through npm run restore: one line on stderr, the refusal's exit code, never a stack trace", async () => {
    const dir = backupDir("cli");
    const truncated = path.join(dir, "truncated.tar");
    fs.writeFileSync(truncated, fs.readFileSync(backup.file).subarray(0, 4000));
    const [occupied, damaged, usage] = await Promise.all([
      runRestore(shopStorage(), [backup.file]),
      runRestore(await newShop("cli"), [truncated]),
      runRestore(shopStorage(), ["--replace"]),
    ]);
    expect(occupied.code).toBe(3);
    expect(damaged.code).toBe(5);
    expect(usage.code).toBe(2);
    expect(occupied.stderr).toMatch(/^restore refused: the database .* is not empty; .*--replace\n$/);
    expect(damaged.stderr).toMatch(/^restore refused: .*truncated\.tar is damaged or not a backup of this shop: .*\n$/);
    expect(usage.stderr).toMatch(/^usage: npm run restore -- FILE \[--replace\]/);
    for (const run of [occupied, damaged, usage]) {
      expect(run.stderr.trim().split("\n")).toHaveLength(1);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  }, 60_000);
});

describe("what a backup cut short leaves", () => {
  it("only a hidden partial file, never a backup's name, cleared by a backup a day later", async () => {
    const dir = backupDir("partial");
    const old = path.join(dir, ".shop-2026-11-27T010000Z-m0026.tar.1a2b3c4d.partial");
    const fresh = path.join(dir, ".shop-2026-11-29T010000Z-m0026.tar.5e6f7a8b.partial");
    for (const file of [old, fresh]) fs.writeFileSync(file, "half a backup");
    const twoDaysAgo = new Date(Date.now() - 48 * HOUR);
    fs.utimesSync(old, twoDaysAgo, twoDaysAgo);
    const made = await createBackup(shopStorage(), dir);
    expect(fs.readdirSync(dir).sort()).toEqual([path.basename(fresh), path.basename(made.file)].sort());
  });
});

describe("an older backup", () => {
  it("is migrated forward to this version's migrations as it is restored", async () => {
    const names = Object.keys(migrations);
    const last = names[names.length - 1]!;
    const older = await newShop("older");
    await withDb(older, (oldDb) => migrateToLatest(oldDb, Object.fromEntries(names.slice(0, -1).map((n) => [n, migrations[n]!]))));
    const made = await createBackup(older, backupDir("older"));
    expect(made.migrations).not.toContain(last);

    const target = await newShop("forward");
    const restored = await restoreBackup(made.file, target);
    expect(restored.migrated).toEqual([last]);
    await withDb(target, async (now) => {
      const ran = await now
        .selectFrom("kysely_migration" as never)
        .select("name" as never)
        .execute();
      expect((ran as { name: string }[]).map((r) => r.name).sort()).toEqual([...names].sort());
    });
  });
});

describe("the schedule", () => {
  const schedule = (dir: string): BackupSchedule => ({ dir, everyHours: 6, keep: { daily: 7, weekly: 4 } });

  it("of two servers sharing the lease, exactly one makes each turn's backup", async () => {
    await db.deleteFrom("leases").where("name", "=", BACKUP_LEASE).execute();
    const dir = backupDir("schedule");
    const servers = [createDb(env.DATABASE_URL), createDb(env.DATABASE_URL)];
    const race = (at: Date) => Promise.all([0, 1, 0, 1].map((i) => backupIfDue(servers[i]!, `server-${i}`, schedule(dir), at)));
    try {
      const now = new Date();
      const first = await race(now);
      expect(first.filter((outcome) => outcome !== null)).toEqual([expect.objectContaining({ ok: true })]);
      expect(fs.readdirSync(dir)).toHaveLength(1);
      expect((await race(new Date(now.getTime() + 5 * HOUR))).every((outcome) => outcome === null)).toBe(true);
      expect(fs.readdirSync(dir)).toHaveLength(1);
      const [firstFile] = fs.readdirSync(dir);
      const later = (await race(new Date(now.getTime() + 6 * HOUR + 1000))).filter((outcome) => outcome !== null);
      expect(later).toHaveLength(1);
      // Seven days' newest are kept: on the same day the new one replaces the first (unless the day turned meanwhile).
      const sameDay = new Date(now.getTime() + 6 * HOUR + 1000).toISOString().slice(0, 10) === now.toISOString().slice(0, 10);
      expect(later[0]).toMatchObject({ ok: true, removed: sameDay ? [firstFile] : [] });
      expect(fs.readdirSync(dir).filter((name) => name.endsWith(".tar"))).toHaveLength(sameDay ? 1 : 2);
    } finally {
      await Promise.all(servers.map((s) => s.destroy()));
    }
  });

  it("a failure is logged loudly, shown on /admin with its time and reason, and tried again within the hour", async () => {
    await db.deleteFrom("leases").where("name", "=", BACKUP_LEASE).execute();
    const blocked = path.join(backupDir("blocked"), "not-a-folder");
    fs.writeFileSync(blocked, "a file where the backups' folder should be");
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const now = new Date();
    let outcome;
    let logged = "";
    try {
      outcome = await backupIfDue(db, "failing-server", schedule(blocked), now);
      logged = errors.mock.calls.map((c) => String(c[0])).join("\n");
    } finally {
      errors.mockRestore();
    }
    expect(outcome).toMatchObject({ ok: false, reason: expect.stringMatching(/^writing the backup failed: .*(EEXIST|ENOTDIR)/) as string });
    expect(logged).toMatch(/^BACKUP FAILED \(.*not-a-folder\): writing the backup failed/m);

    const alert = await backupAlert();
    expect(alert).toMatchObject({ reason: (outcome as { reason: string }).reason, lastGoodAt: expect.any(String) as string });
    const admin = mergeCookies([await grantAdmin(getRequest("/"))]);
    const page = asRecord((await call(dashboard.loader, getRequest("/admin", { Cookie: admin }))).body);
    expect(page.backup).toEqual(alert);
    const html = renderToStaticMarkup(createElement(BackupAlert, { alert }));
    expect(html).toContain('role="alert"');
    expect(html).toContain("The last scheduled backup failed, at");
    expect(html).toContain(`dateTime="${alert!.failedAt}"`);
    expect(html).toContain("The last good backup was made at");

    const lease = await db.selectFrom("leases").selectAll().where("name", "=", BACKUP_LEASE).executeTakeFirstOrThrow();
    expect(Date.parse(lease.expiresAt) - now.getTime()).toBe(BACKUP_RETRY_MS);
    const retried = await backupIfDue(db, "failing-server", schedule(backupDir("retry")), new Date(now.getTime() + BACKUP_RETRY_MS + 1000));
    expect(retried).toMatchObject({ ok: true });
    expect(await backupAlert()).toBeNull();
    expect(asRecord((await call(dashboard.loader, getRequest("/admin", { Cookie: admin }))).body).backup).toBeNull();
  });

  it("a server's worker with BACKUP_DIR and BACKUP_EVERY_HOURS makes its turn's backup beside its mail loop", async () => {
    await db.deleteFrom("leases").where("name", "=", BACKUP_LEASE).execute();
    const dir = backupDir("worker");
    env.BACKUP_DIR = dir;
    env.BACKUP_EVERY_HOURS = 12;
    const worker = startWorker(db);
    try {
      const lease = () => db.selectFrom("leases").select("holder").where("name", "=", BACKUP_LEASE).executeTakeFirst();
      const deadline = Date.now() + 15_000;
      while (
        Date.now() < deadline &&
        !(fs.readdirSync(dir).some((name) => name.endsWith(".tar")) && (await lease())?.holder === WORKER_ID)
      ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(fs.readdirSync(dir).filter((name) => name.endsWith(".tar"))).toHaveLength(1);
      expect((await lease())?.holder).toBe(WORKER_ID);
    } finally {
      await worker.stop();
      env.BACKUP_DIR = undefined;
      env.BACKUP_EVERY_HOURS = undefined;
    }
  });
});
