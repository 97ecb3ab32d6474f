// Deletes what has expired: sessions, abandoned guest carts, spent rate-limit windows,
// old one-time codes (and the sign-up attempts they hold), API tokens, stock reservations and coupon
// holds (an expired one stopped counting when it expired; ADRs 0023 and 0019).
// Runs once an hour across every server: the worker that takes the "housekeeping" lease for the
// hour runs it (app/lib/outbox.server.ts's worker, in each server or alone with `npm run worker`).
// The scheduled backups (BACKUP_EVERY_HOURS) go the same way, under a "backup" lease of their own.
import type { BackupSchedule, ScheduledOutcome } from "./backup/backup.server";
import { backupSchedule, runScheduledBackup } from "./backup/backup.server";
import type { Db } from "./db.server";
import { sql } from "kysely";
import { db as defaultDb, dbNowValue, nowIso } from "./db.server";
import { onShutdown } from "./lifecycle.server";
import { failureText, outboxNow, purgeOutbox, runningMailWorker, startMailWorker, WORKER_ID } from "./outbox.server";
import type { MailWorker } from "./outbox.server";
import { SESSION_IDLE_MS } from "./session.server";
import { log } from "./log.server";

/**
 * Deletes the sessions the filter picks, a batch at a time, and with them the guest carts and
 * wishlists they named: nobody can reach those any more (a script's cookie-less requests leave
 * one of each behind).
 */
async function deleteSessions(db: Db, filter: Parameters<ReturnType<typeof sessionsOf>["where"]>[0]): Promise<number> {
  let deleted = 0;
  for (;;) {
    const batch = await sessionsOf(db).where(filter).limit(500).execute();
    if (batch.length === 0) return deleted;
    const named = batch.map((row) => JSON.parse(row.data) as { cartId?: string; wishlistId?: string });
    const carts = named.flatMap((d) => (d.cartId ? [d.cartId] : []));
    const wishlists = named.flatMap((d) => (d.wishlistId ? [d.wishlistId] : []));
    await db.transaction().execute(async (trx) => {
      if (carts.length) await trx.deleteFrom("carts").where("id", "in", carts).where("userId", "is", null).execute();
      if (wishlists.length) await trx.deleteFrom("wishlists").where("id", "in", wishlists).where("userId", "is", null).execute();
      await trx
        .deleteFrom("sessions")
        .where(
          "id",
          "in",
          batch.map((row) => row.id),
        )
        .execute();
    });
    deleted += batch.length;
  }
}

function sessionsOf(db: Db) {
  return db.selectFrom("sessions").select(["id", "data"]);
}

export async function purgeExpired(db: Db, at?: Date) {
  // Every cut-off is judged by the clock every server shares (the database's on PostgreSQL, ADRs 0023
  // and 0019): a server whose own clock runs fast must not delete a session, a rate-limit window, a
  // token or a hold that is still live. A test's `at` stands for it.
  const now = at ?? (await outboxNow(db));
  const holdsNow = at ? sql.val(nowIso(at)) : dbNowValue(db);
  const idleCutoff = nowIso(new Date(now.getTime() - SESSION_IDLE_MS));
  const nowText = nowIso(now);
  const sessions = await deleteSessions(db, (eb) => eb.or([eb("expiresAt", "<", nowText), eb("lastSeenAt", "<", idleCutoff)]));
  const carts = await db.deleteFrom("carts").where("userId", "is", null).where("updatedAt", "<", idleCutoff).executeTakeFirst();
  await db.deleteFrom("wishlists").where("userId", "is", null).where("updatedAt", "<", idleCutoff).execute();
  // Spent one-time codes and API tokens, kept a day for the record.
  const dayAgo = nowIso(new Date(now.getTime() - 24 * 60 * 60 * 1000));
  await db.deleteFrom("oneTimeCodes").where("expiresAt", "<", dayAgo).execute();
  await db
    .deleteFrom("apiTokens")
    .where((eb) => eb.or([eb("expiresAt", "<", dayAgo), eb("revokedAt", "<", dayAgo)]))
    .execute();
  const limits = await db.deleteFrom("rateLimits").where("resetAt", "<", nowText).executeTakeFirst();
  await db.deleteFrom("stockReservations").where("expiresAt", "<=", holdsNow).execute();
  // Coupon uses held by payment orders (ADR 0019) end with their stock; a paid one holds until its order or refund.
  await db.deleteFrom("couponHolds").where("expiresAt", "<=", holdsNow).where("paidAt", "is", null).execute();
  const mails = await purgeOutbox(db, now);
  return {
    sessions,
    carts: Number(carts.numDeletedRows),
    rateLimits: Number(limits.numDeletedRows),
    mails,
  };
}

/**
 * Takes the lease `name` for `holder` until now + `ttlMs` when nobody holds it (absent, or run
 * out): one statement, atomic on SQLite and PostgreSQL, so of two contenders exactly one gets it.
 * A live lease is not renewed, its holder's included: it says when the job is due again. `now` is
 * the database's clock unless a test passes one: a server whose clock runs a year ahead must not
 * take the lease until next year.
 */
export async function takeLease(db: Db, name: string, holder: string, ttlMs: number, now?: Date): Promise<boolean> {
  now ??= await outboxNow(db);
  const at = nowIso(now);
  const taken = await db
    .insertInto("leases")
    .values({ name, holder, expiresAt: nowIso(new Date(now.getTime() + ttlMs)) })
    .onConflict((oc) =>
      oc
        .column("name")
        .doUpdateSet((eb) => ({ holder: eb.ref("excluded.holder"), expiresAt: eb.ref("excluded.expiresAt") }))
        .where("leases.expiresAt", "<=", at),
    )
    .returning("holder")
    .executeTakeFirst();
  return taken?.holder === holder;
}

export const HOUSEKEEPING_LEASE = "housekeeping";
export const HOUSEKEEPING_EVERY_MS = 60 * 60 * 1000;

/** purgeExpired, when this holder takes the hour's housekeeping lease (else another server has run it this hour). */
export async function housekeepIfDue(db: Db, holder: string, now?: Date) {
  if (!(await takeLease(db, HOUSEKEEPING_LEASE, holder, HOUSEKEEPING_EVERY_MS, now))) return null;
  return purgeExpired(db, now);
}

export const BACKUP_LEASE = "backup";
/** A failed scheduled backup is tried again this soon (or at its next turn, when that is sooner). */
export const BACKUP_RETRY_MS = 60 * 60 * 1000;

/**
 * A scheduled backup, when this holder takes the "backup" lease for `everyHours` (else another
 * server made this turn's backup, or it is not due): null when it was not this holder's turn. Of
 * servers sharing the database exactly one takes each turn. A failed backup shortens its holder's
 * lease to BACKUP_RETRY_MS, so the next try comes within the hour, not a whole turn later.
 */
export async function backupIfDue(db: Db, holder: string, schedule: BackupSchedule, now?: Date): Promise<ScheduledOutcome | null> {
  const everyMs = schedule.everyHours * 60 * 60 * 1000;
  if (!(await takeLease(db, BACKUP_LEASE, holder, everyMs, now))) return null;
  const outcome = await runScheduledBackup(db, schedule, undefined, now);
  if (!outcome.ok && BACKUP_RETRY_MS < everyMs) {
    const retryAt = new Date((now ?? (await outboxNow(db))).getTime() + BACKUP_RETRY_MS);
    await db
      .updateTable("leases")
      .set({ expiresAt: nowIso(retryAt) })
      .where("name", "=", BACKUP_LEASE)
      .where("holder", "=", holder)
      .execute();
  }
  return outcome;
}

/** This process's scheduled backup under way (it runs beside the mail worker's loop, which it must not hold up). */
let backupRunning: Promise<unknown> | null = null;

function startBackupIfDue(db: Db, schedule: BackupSchedule | null): void {
  if (!schedule || backupRunning) return;
  backupRunning = backupIfDue(db, WORKER_ID, schedule)
    .catch((error) => log.error(`BACKUP FAILED: the schedule could not run (${failureText(error)})`))
    .finally(() => (backupRunning = null));
}

/**
 * The process's background work: the mail worker, which also tries for the housekeeping lease
 * (and, with BACKUP_EVERY_HOURS, the backup lease) once a minute. Stops cleanly at shutdown (the
 * pass and any backup under way finish, before the database closes).
 */
export function startWorker(db: Db): MailWorker {
  const running = runningMailWorker();
  if (running) return running;
  const schedule = backupSchedule();
  const worker = startMailWorker(db, {
    id: WORKER_ID,
    periodic: {
      everyMs: 60 * 1000,
      run: async () => {
        await housekeepIfDue(db, WORKER_ID).catch((error) => log.error(`housekeeping failed: ${failureText(error)}`));
        startBackupIfDue(db, schedule);
      },
    },
  });
  onShutdown(async () => {
    await worker.stop();
    await backupRunning;
  });
  return worker;
}

/** `npm run worker` (server/worker.ts, through the build's entry): this process's worker, started if boot did not. */
export function runWorker(): MailWorker {
  return startWorker(defaultDb);
}
