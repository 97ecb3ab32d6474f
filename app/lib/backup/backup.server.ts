// Backups that restore (ADR 0029): `npm run backup`, `npm run restore -- FILE [--replace]`, and
// the scheduled backups the housekeeping worker makes (app/lib/housekeeping.server.ts). One file
// per backup (app/lib/backup/archive.server.ts): on SQLite a copy made through the online backup
// API and checked with PRAGMA integrity_check, the disk store's images and the generated secrets'
// files; on PostgreSQL pg_dump's custom format (images and secrets are rows there).
import fs from "node:fs";
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { migrations as knownMigrations } from "../../../db/migrations";
import type { Db } from "../db.server";
import { createDb, isPostgresUrl, nowIso, sqlitePath } from "../db.server";
import type { Env } from "../env.server";
import { env as processEnv } from "../env.server";
import type { ImageStoreKind } from "../image-store.server";
import { imageStoreKind } from "../image-store.server";
import { migrateToLatest } from "../migrate.server";
import { log } from "../log.server";
import { failureText } from "../outbox.server";
import { SECRET_VARIABLES } from "../secrets.server";
import { createWriteState } from "../write-watch.server";
import type { Manifest } from "./archive.server";
import { BackupRefusal, DamagedBackup, PGDUMP_ENTRY, readArchive, SQLITE_ENTRY, writeArchive } from "./archive.server";
import { dumpMigrations, dumpPostgres, postgresHasTables, restorePostgres } from "./postgres.server";
import type { Retention } from "./retention";
import { backupFileName, backupsToKeep, migrationLevel } from "./retention";
import { checkSqlite, placeFile, replaceSqlite, snapshotSqlite, sqliteHasTables, uploadsNotIn } from "./sqlite.server";
import { recordBackupFailure, recordBackupSuccess } from "./status.server";

export { BackupRefusal, DamagedBackup };

/** Where a shop keeps its state: its database, its data folder (SQLite's secrets and disk images) and its image store. */
export interface ShopStorage {
  databaseUrl: string;
  dataDir: string;
  imageStore: ImageStoreKind;
}

/** This process's storage, from its environment. */
export function shopStorage(source: Pick<Env, "DATABASE_URL" | "DATA_DIR" | "IMAGE_STORE"> = processEnv): ShopStorage {
  return {
    databaseUrl: source.DATABASE_URL,
    dataDir: source.DATA_DIR,
    imageStore: imageStoreKind(source.IMAGE_STORE, source.DATABASE_URL),
  };
}

const uploadsDirOf = (storage: ShopStorage) => path.join(storage.dataDir, "uploads");
const secretFile = (storage: ShopStorage, name: string) => path.join(storage.dataDir, `${name}.secret`);

/** The database a message names: the file, or the PostgreSQL URL without its password. */
function describeDatabase(url: string): string {
  if (!isPostgresUrl(url)) return sqlitePath(url);
  const parsed = new URL(url);
  parsed.password = "";
  return parsed.toString();
}

/** Work folders (`.backup-…`, `.restore-…`) a killed process left behind, a day old or more: removed. */
async function clearStaleWork(dir: string): Promise<void> {
  const dayAgo = Date.now() - 24 * 3600_000;
  for (const name of await fsp.readdir(dir).catch(() => [] as string[])) {
    if (!/^\.(backup|restore)-/.test(name) && !/^\.shop-.*\.partial$/.test(name)) continue;
    const full = path.join(dir, name);
    const stat = await fsp.stat(full).catch(() => null);
    if (stat && stat.mtimeMs < dayAgo) await fsp.rm(full, { recursive: true, force: true });
  }
}

export interface BackupMade {
  file: string;
  bytes: number;
  migrations: string[];
  /** the highest migration number the backed-up database had run (in the file's name too) */
  level: number;
  images: number;
}

/** A name for a backup taken `at` that no file in `dir` has yet. */
function freeName(dir: string, at: Date, level: number): string {
  for (let copy = 1; ; copy++) {
    const file = path.join(dir, backupFileName(at, level, copy));
    if (!fs.existsSync(file)) return file;
  }
}

/** Makes one backup of the shop at `storage` into the folder `dir` (made when missing): its file, size and contents. */
export async function createBackup(storage: ShopStorage, dir: string, at = new Date()): Promise<BackupMade> {
  await fsp.mkdir(dir, { recursive: true });
  const postgres = isPostgresUrl(storage.databaseUrl);
  // SQLite's image files are hard-linked into the work folder, so it sits beside them (one file system).
  const workRoot = postgres ? dir : storage.dataDir;
  // Partial files (a backup cut short) are in `dir`, work folders in `workRoot`: both cleared of old leftovers.
  await clearStaleWork(dir);
  if (workRoot !== dir) await clearStaleWork(workRoot);
  const work = await fsp.mkdtemp(path.join(workRoot, ".backup-"));
  try {
    const entries: { name: string; file: string }[] = [];
    let migrations: string[];
    if (postgres) {
      const dump = path.join(work, PGDUMP_ENTRY);
      await dumpPostgres(storage.databaseUrl, dump);
      migrations = await dumpMigrations(dump);
      entries.push({ name: PGDUMP_ENTRY, file: dump });
    } else {
      const file = sqlitePath(storage.databaseUrl);
      if (!fs.existsSync(file)) throw new Error(`there is no database at ${file}`);
      const snapshot = await snapshotSqlite(file, storage.imageStore === "disk" ? uploadsDirOf(storage) : null, work);
      try {
        migrations = checkSqlite(snapshot.database);
      } catch (error) {
        throw new Error(`the copy of the database failed its check, so no backup was written (${failureText(error)})`);
      }
      entries.push({ name: SQLITE_ENTRY, file: snapshot.database });
      entries.push(...snapshot.uploads.map((u) => ({ name: `uploads/${u.name}`, file: u.file })));
      await fsp.mkdir(path.join(work, "secrets"));
      for (const name of Object.keys(SECRET_VARIABLES)) {
        const copy = path.join(work, "secrets", `${name}.secret`);
        try {
          await fsp.copyFile(secretFile(storage, name), copy);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === "ENOENT") continue; // given by its variable, or never made
          throw error;
        }
        entries.push({ name: `secrets/${name}.secret`, file: copy });
      }
    }
    const level = migrationLevel(migrations);
    const target = freeName(dir, at, level);
    const manifest = {
      format: "sagwan-living-backup",
      version: 1,
      createdAt: at.toISOString(),
      database: postgres ? "postgres" : "sqlite",
      migrations,
      imageStore: postgres ? "database" : storage.imageStore,
    } as const;
    const { bytes } = await writeArchive(target, manifest, entries);
    return { file: target, bytes, migrations, level, images: entries.filter((e) => e.name.startsWith("uploads/")).length };
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}

export interface Restored {
  manifest: Manifest;
  /** the migrations run after the restore, to bring an older backup up to this version */
  migrated: string[];
  images: number;
}

/** The refusals a backup's manifest can earn before anything is unpacked: another kind of database or image store, newer migrations. */
function refuseUnfit(manifest: Manifest, storage: ShopStorage): void {
  const postgres = isPostgresUrl(storage.databaseUrl);
  const kind = postgres ? "postgres" : "sqlite";
  const label = { sqlite: "SQLite", postgres: "PostgreSQL" };
  if (manifest.database !== kind) {
    throw new BackupRefusal(
      `this is a backup of a ${label[manifest.database]} database and DATABASE_URL names a ${label[kind]} one: ` +
        `restore it into ${label[manifest.database]}`,
      6,
    );
  }
  if (!postgres && manifest.imageStore !== storage.imageStore) {
    throw new BackupRefusal(
      `this backup keeps its images ${manifest.imageStore === "disk" ? "as files" : "in the database"} and this shop keeps them ` +
        `${storage.imageStore === "disk" ? "as files" : "in the database"}: restore it with IMAGE_STORE=${manifest.imageStore}`,
      6,
    );
  }
  const newer = manifest.migrations.filter((name) => !(name in knownMigrations));
  if (newer.length) {
    throw new BackupRefusal(
      `this backup comes from a newer version of the shop (migrations this version does not know: ${newer.join(", ")}): ` +
        "restore it with that version or a later one",
      4,
    );
  }
}

/** Runs this version's pending migrations on the database at `url`: the names it ran. */
async function migrateForward(url: string): Promise<string[]> {
  const db = createDb(url, { writes: createWriteState() });
  try {
    const results = await migrateToLatest(db);
    return results.filter((r) => r.status === "Success").map((r) => r.migrationName);
  } finally {
    await db.destroy();
  }
}

/**
 * Restores the backup `file` into the shop at `storage`. Refused (BackupRefusal, nothing changed)
 * when the database already holds tables and `replace` is not given, when the backup is of another
 * kind of database or image store, comes from newer migrations than this code knows, or is
 * damaged. An older backup is migrated forward. On SQLite the database is replaced last, in one
 * write, once the checked and migrated copy, its images and its secrets are in place; on
 * PostgreSQL in one transaction. Stop the shop's servers first: a running one keeps what it loaded.
 */
export async function restoreBackup(file: string, storage: ShopStorage, { replace = false } = {}): Promise<Restored> {
  if (!fs.existsSync(file) || !fs.statSync(file).isFile()) throw new BackupRefusal(`${file}: there is no such file`, 2);
  const postgres = isPostgresUrl(storage.databaseUrl);
  const dbFile = postgres ? "" : path.resolve(sqlitePath(storage.databaseUrl));
  const occupied = postgres ? await postgresHasTables(storage.databaseUrl) : sqliteHasTables(dbFile);
  if (occupied && !replace) {
    throw new BackupRefusal(
      `the database ${describeDatabase(storage.databaseUrl)} is not empty; to replace everything in it with the backup, ` +
        "stop the shop and run the restore again with --replace",
      3,
    );
  }
  const workRoot = postgres ? os.tmpdir() : path.dirname(dbFile);
  await fsp.mkdir(workRoot, { recursive: true });
  const work = await fsp.mkdtemp(path.join(workRoot, ".restore-"));
  try {
    const { manifest, paths } = await readArchive(file, work, (m) => refuseUnfit(m, storage));
    if (postgres) {
      const dump = paths.get(PGDUMP_ENTRY);
      if (!dump) throw new DamagedBackup(`it holds no ${PGDUMP_ENTRY}`);
      await restorePostgres(storage.databaseUrl, dump, occupied);
      return { manifest, migrated: await migrateForward(storage.databaseUrl), images: 0 };
    }
    const staged = paths.get(SQLITE_ENTRY);
    if (!staged) throw new DamagedBackup(`it holds no ${SQLITE_ENTRY}`);
    try {
      checkSqlite(staged);
    } catch (error) {
      throw new DamagedBackup(`its database fails SQLite's check (${failureText(error)})`);
    }
    const migrated = await migrateForward(`file:${staged}`);
    const images = new Set<string>();
    for (const [name, from] of paths) {
      if (name.startsWith("secrets/")) await placeFile(from, storage.dataDir, path.basename(name), 0o600);
      if (name.startsWith("uploads/")) {
        images.add(path.basename(name));
        await placeFile(from, uploadsDirOf(storage), path.basename(name), 0o644);
      }
    }
    await replaceSqlite(staged, dbFile);
    // The replaced shop's images made after the backup: nothing in the restored database shows them.
    if (replace && manifest.imageStore === "disk") {
      for (const name of uploadsNotIn(uploadsDirOf(storage), images)) await fsp.rm(path.join(uploadsDirOf(storage), name), { force: true });
    }
    return { manifest, migrated, images: images.size };
  } finally {
    await fsp.rm(work, { recursive: true, force: true });
  }
}

// ---- The schedule -------------------------------------------------------------------------

export interface BackupSchedule {
  dir: string;
  everyHours: number;
  keep: Retention;
}

/** The scheduled backups this process's environment asks for, or null (BACKUP_EVERY_HOURS unset). */
export function backupSchedule(
  source: Pick<Env, "BACKUP_DIR" | "BACKUP_EVERY_HOURS" | "BACKUP_KEEP_DAILY" | "BACKUP_KEEP_WEEKLY"> = processEnv,
): BackupSchedule | null {
  if (!source.BACKUP_DIR || source.BACKUP_EVERY_HOURS === undefined) return null;
  return {
    dir: source.BACKUP_DIR,
    everyHours: source.BACKUP_EVERY_HOURS,
    keep: { daily: source.BACKUP_KEEP_DAILY, weekly: source.BACKUP_KEEP_WEEKLY },
  };
}

/** Deletes the backups in `dir` the retention rule does not keep (retention.ts): their names. */
export async function pruneBackups(dir: string, keep: Retention): Promise<string[]> {
  const { remove } = backupsToKeep(await fsp.readdir(dir), keep);
  for (const name of remove) await fsp.rm(path.join(dir, name), { force: true });
  return remove;
}

export type ScheduledOutcome = { ok: true; backup: BackupMade; removed: string[] } | { ok: false; reason: string };

/**
 * One scheduled backup: made, then the old ones pruned, and the outcome recorded for /admin. A
 * failure is logged loudly (an error line saying BACKUP FAILED, the reason, the last good backup)
 * and shown on the dashboard until a backup succeeds; it is never thrown.
 */
export async function runScheduledBackup(
  db: Db,
  schedule: BackupSchedule,
  storage: ShopStorage = shopStorage(),
  at = new Date(),
): Promise<ScheduledOutcome> {
  let stage = "writing the backup";
  try {
    const backup = await createBackup(storage, schedule.dir, at);
    stage = `recording the backup ${path.basename(backup.file)}`;
    await recordBackupSuccess(db, { at: nowIso(), file: path.basename(backup.file), bytes: backup.bytes });
    log.info(`backup: wrote ${backup.file} (${backup.bytes} bytes, ${backup.images} image files)`);
    stage = `deleting old backups after writing ${path.basename(backup.file)}`;
    const removed = await pruneBackups(schedule.dir, schedule.keep);
    if (removed.length) log.info(`backup: deleted ${removed.length} old backups (${removed.join(", ")})`);
    return { ok: true, backup, removed };
  } catch (error) {
    const reason = `${stage} failed: ${failureText(error)}`;
    log.error(`BACKUP FAILED (${schedule.dir}): ${reason}`);
    await recordBackupFailure(db, { at: nowIso(), reason }).catch((recording: unknown) =>
      log.error(`BACKUP FAILED and could not be recorded for /admin: ${failureText(recording)}`),
    );
    return { ok: false, reason };
  }
}
