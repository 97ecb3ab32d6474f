// How the scheduled backups went, kept in the database (two rows of `settings`) so that every
// server's /admin shows a failure, whichever server made the backup: the dashboard shows a banner
// while the latest scheduled backup failed, until one succeeds.
import { z } from "zod";
import type { Db } from "../db.server";
import { db as processDb, nowIso } from "../db.server";

const LAST_SUCCESS = "backup-last-success";
const LAST_FAILURE = "backup-last-failure";

const SuccessSchema = z.object({ at: z.string(), file: z.string(), bytes: z.number() });
const FailureSchema = z.object({ at: z.string(), reason: z.string() });

async function write(db: Db, key: string, value: unknown): Promise<void> {
  const row = { key, value: JSON.stringify(value), updatedAt: nowIso() };
  await db
    .insertInto("settings")
    .values(row)
    .onConflict((oc) => oc.column("key").doUpdateSet({ value: row.value, updatedAt: row.updatedAt }))
    .execute();
}

async function read<T>(db: Db, key: string, schema: z.ZodType<T>): Promise<T | null> {
  const row = await db.selectFrom("settings").select("value").where("key", "=", key).executeTakeFirst();
  if (!row) return null;
  try {
    const parsed = schema.safeParse(JSON.parse(row.value));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function recordBackupSuccess(db: Db, success: z.infer<typeof SuccessSchema>): Promise<void> {
  return write(db, LAST_SUCCESS, success);
}

export function recordBackupFailure(db: Db, failure: z.infer<typeof FailureSchema>): Promise<void> {
  return write(db, LAST_FAILURE, failure);
}

/** What the dashboard's banner says: the latest scheduled backup failed (when, why) and when the last good one was made. */
export interface BackupAlert {
  failedAt: string;
  reason: string;
  lastGoodAt: string | null;
}

/** The banner's content while the latest scheduled backup failed; null while it succeeded (or none ran). */
export async function backupAlert(db: Db = processDb): Promise<BackupAlert | null> {
  const [success, failure] = await Promise.all([read(db, LAST_SUCCESS, SuccessSchema), read(db, LAST_FAILURE, FailureSchema)]);
  if (!failure || (success && success.at >= failure.at)) return null;
  return { failedAt: failure.at, reason: failure.reason, lastGoodAt: success?.at ?? null };
}
