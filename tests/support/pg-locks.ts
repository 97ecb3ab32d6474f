// Forcing an interleaving on PostgreSQL: a second connection (not the app's pool) takes a row
// lock, the requests under test start one by one and queue behind it, and it lets go once they
// all wait, so they run in the order they queued. On SQLite there is no such connection: the
// tests run the same calls at once (one writer at a time).
import pg from "pg";
import { db, isPostgres } from "~/lib/db.server";

/** A connection of its own to the test's PostgreSQL database, or null on SQLite. */
export async function lockHolder(): Promise<pg.Client | null> {
  if (!isPostgres(db)) return null;
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  return client;
}

/** Backends of this database waiting on a lock (read afresh: a transaction keeps one snapshot of the statistics). */
export async function waiting(client: pg.Client): Promise<number> {
  await client.query("select pg_stat_clear_snapshot()");
  const result = await client.query<{ n: string }>(
    "select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
  );
  return Number(result.rows[0].n);
}

/** Resolves once at least `n` backends wait on a lock; fails after 5 s (`what` says which lock). */
export async function untilWaiting(client: pg.Client, n: number, what = "the held row"): Promise<void> {
  const deadline = Date.now() + 5_000;
  while ((await waiting(client)) < n) {
    if (Date.now() > deadline) throw new Error(`fewer than ${n} requests queued on ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Holds the lock `lock` takes (a statement run by the holder in its own transaction), starts each
 * of `steps` in turn once the one before it either waits on a lock or has finished, lets go, and
 * answers their results (settled: a refusal is an answer too). The steps that waited then run in
 * the order they queued.
 */
export async function queuedBehind<T>(
  holder: pg.Client,
  lock: { sql: string; params?: unknown[] },
  steps: (() => Promise<T>)[],
): Promise<PromiseSettledResult<T>[]> {
  await holder.query("begin");
  const started: Promise<PromiseSettledResult<T>>[] = [];
  try {
    await holder.query(lock.sql, lock.params);
    let queued = 0;
    for (const step of steps) {
      let done = false;
      const run = step().then(
        (value): PromiseSettledResult<T> => ({ status: "fulfilled", value }),
        (reason: unknown): PromiseSettledResult<T> => ({ status: "rejected", reason }),
      );
      void run.then(() => (done = true));
      started.push(run);
      const deadline = Date.now() + 5_000;
      for (;;) {
        if ((await waiting(holder)) > queued) {
          queued++;
          break;
        }
        if (done) break;
        if (Date.now() > deadline) throw new Error(`step ${started.length} neither waited on a lock nor finished`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
  } finally {
    await holder.query("commit");
  }
  return Promise.all(started);
}
