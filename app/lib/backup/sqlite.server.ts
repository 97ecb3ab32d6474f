// SQLite's half of a backup (ADR 0029): a consistent copy of the live database through SQLite's
// online backup API (never a copy of the file, which a write in flight or the WAL would leave
// torn), with the disk store's image files as they were at that same moment; and the way back.
import crypto from "node:crypto";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import Database from "better-sqlite3";
import { uploadNameExt } from "../image-store.server";

/** How long the snapshot waits for a write in flight to finish before it gives up. */
const WRITE_LOCK_WAIT_MS = 30_000;
/** Pages the backup API copies per step (4 MiB at SQLite's usual 4 KiB page): the event loop runs between steps. */
const PAGES_PER_STEP = 1024;

export interface SqliteSnapshot {
  database: string;
  /** the image files, linked (or copied) into the snapshot's folder */
  uploads: { name: string; file: string }[];
}

/** The image files in `dir` (only names the shop makes: anything else there is not an upload). */
function uploadNames(dir: string): string[] {
  try {
    return fs.readdirSync(dir).filter((name) => uploadNameExt(name) !== null);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/**
 * Copies the database at `file` into `into`/database.sqlite, and when `uploadsDir` is given, its
 * image files into `into`/uploads, both as they were at one moment. The image files of the disk
 * store change only inside the shop's write transactions (a file is written before the row that
 * shows it commits, and deleted under a write that finds nothing showing it), so while this holds
 * the write lock it hard-links every image (a link keeps the bytes even if the shop deletes the
 * file later; a copy where links cannot be made) and opens the read transaction the copy is made
 * in, then lets writers go on: the shop is held for milliseconds, not for the copy. The copy then
 * reads that one snapshot (WAL mode lets the shop write meanwhile), in steps.
 */
export async function snapshotSqlite(file: string, uploadsDir: string | null, into: string): Promise<SqliteSnapshot> {
  const writer = new Database(file, { fileMustExist: true });
  const reader = new Database(file, { fileMustExist: true, readonly: true });
  const uploads: SqliteSnapshot["uploads"] = [];
  try {
    writer.pragma(`busy_timeout = ${WRITE_LOCK_WAIT_MS}`);
    writer.exec("BEGIN IMMEDIATE");
    try {
      if (uploadsDir) {
        fs.mkdirSync(path.join(into, "uploads"));
        for (const name of uploadNames(uploadsDir)) {
          const linked = path.join(into, "uploads", name);
          try {
            fs.linkSync(path.join(uploadsDir, name), linked);
          } catch (error) {
            const code = (error as NodeJS.ErrnoException).code;
            if (code === "ENOENT") continue;
            if (code !== "EXDEV" && code !== "EPERM" && code !== "EMLINK") throw error;
            fs.copyFileSync(path.join(uploadsDir, name), linked);
          }
          uploads.push({ name, file: linked });
        }
      }
      reader.exec("BEGIN");
      reader.prepare("select count(*) from sqlite_master").get();
    } finally {
      writer.exec("ROLLBACK");
    }
    const database = path.join(into, "database.sqlite");
    await reader.backup(database, { progress: () => PAGES_PER_STEP });
    reader.exec("COMMIT");
    return { database, uploads };
  } finally {
    reader.close();
    writer.close();
  }
}

/** The names of the migrations a SQLite database has run, after PRAGMA integrity_check finds it whole (else throws why). */
export function checkSqlite(file: string): string[] {
  const db = new Database(file, { fileMustExist: true, readonly: true });
  try {
    const problems = db.pragma("integrity_check", { simple: false }) as { integrity_check: string }[];
    const report = problems.map((row) => row.integrity_check);
    if (report.length !== 1 || report[0] !== "ok") throw new Error(`PRAGMA integrity_check: ${report.slice(0, 3).join("; ")}`);
    const known = db.prepare("select name from sqlite_master where type = 'table' and name = 'kysely_migration'").get();
    if (!known) return [];
    return (db.prepare("select name from kysely_migration order by name").all() as { name: string }[]).map((row) => row.name);
  } finally {
    db.close();
  }
}

/** Whether the SQLite database at `file` holds any table (a missing file, or one never migrated, is empty). */
export function sqliteHasTables(file: string): boolean {
  if (!fs.existsSync(file)) return false;
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare("select 1 from sqlite_master where type = 'table' and name not like 'sqlite_%' limit 1").get() !== undefined;
  } finally {
    db.close();
  }
}

/**
 * Makes the database at `target` the one in `source` (a checked, migrated copy), through the
 * backup API: one write transaction on `target`, so a reader never sees half of it, and whatever
 * the target held is replaced whole (its WAL included).
 */
export async function replaceSqlite(source: string, target: string): Promise<void> {
  await fsp.mkdir(path.dirname(path.resolve(target)), { recursive: true });
  const db = new Database(source, { fileMustExist: true, readonly: true });
  try {
    await db.backup(target, { progress: () => PAGES_PER_STEP });
  } finally {
    db.close();
  }
}

/**
 * Writes an image file into the disk store's folder as a whole file (a temporary name, then a
 * rename): a restore that stops midway never leaves half an image under an image's name.
 */
export async function placeFile(from: string, dir: string, name: string, mode: number): Promise<void> {
  await fsp.mkdir(dir, { recursive: true });
  const partial = path.join(dir, `.${name}.${crypto.randomBytes(4).toString("hex")}.restoring`);
  await fsp.copyFile(from, partial);
  await fsp.chmod(partial, mode);
  await fsp.rename(partial, path.join(dir, name));
}

/** The image files in the disk store's folder that `keep` does not name (a replaced shop's uploads made after the backup). */
export function uploadsNotIn(dir: string, keep: ReadonlySet<string>): string[] {
  return uploadNames(dir).filter((name) => !keep.has(name));
}
