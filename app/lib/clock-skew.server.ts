// The app server's clock against the database's (ADR 0020): some rules still read this process's
// clock (expiry stamps written by the app), so on PostgreSQL, where several servers share one
// database, a server whose clock is off by more than MAX_CLOCK_SKEW_MS refuses to start
// (StartupError, at boot) and GET /readyz answers 503 "clock-skew" when a later check sees it
// (app/lib/lifecycle.server.ts). SQLite has one server and one clock: nothing to compare.
import { sql } from "kysely";
import { isPostgresUrl } from "./db.server";
import type { Db } from "./db.server";
import { env, StartupError } from "./env.server";

export const MAX_CLOCK_SKEW_MS = 60_000;

/**
 * How far this process's clock is ahead of the database's (negative: behind), in ms; null on SQLite.
 * The database's clock_timestamp() is compared with the middle of the round trip.
 */
export async function clockSkewMs(db: Db, now: () => number = Date.now, url = env.DATABASE_URL): Promise<number | null> {
  if (!isPostgresUrl(url)) return null;
  const before = now();
  const { rows } = await sql<{ ms: string | number }>`select extract(epoch from clock_timestamp()) * 1000 as ms`.execute(db);
  const after = now();
  return (before + after) / 2 - Number(rows[0]!.ms);
}

/** Boot: refuses to start when this server's clock is more than MAX_CLOCK_SKEW_MS from the database's. */
export async function assertClockInStep(db: Db, now: () => number = Date.now): Promise<void> {
  const skew = await clockSkewMs(db, now);
  if (skew === null || Math.abs(skew) <= MAX_CLOCK_SKEW_MS) return;
  throw new StartupError(
    `this server's clock is ${Math.round(Math.abs(skew) / 1000)} s ${skew > 0 ? "ahead of" : "behind"} the database's ` +
      `(at most ${MAX_CLOCK_SKEW_MS / 1000} s allowed): set the time right (NTP) on this machine and start again`,
  );
}
