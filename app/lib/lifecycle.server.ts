// The process's end: what must stop before it exits (the mail worker, timers) registers here with
// onShutdown, and server/shutdown.ts calls shutdown() on SIGTERM/SIGINT once the HTTP server has
// finished its in-flight requests (through build.entry.module, app/entry.server.tsx). From the
// first signal on, isShuttingDown() is true and GET /readyz answers 503 so the load balancer stops
// sending work here (SHUTDOWN_DELAY_MS: while the server still serves). The hooks run newest first, each at
// most once; the database closes last.
import { db } from "./db.server";
import type { Db } from "./db.server";
import { logError } from "./log.server";
import { clockSkewMs, MAX_CLOCK_SKEW_MS } from "./clock-skew.server";
import { pendingMigrations } from "./migrate.server";
import { remember } from "./remember.server";
import { mismatchedSecrets } from "./secrets.server";

export type ShutdownHook = () => void | Promise<void>;

interface Lifecycle {
  hooks: ShutdownHook[];
  shuttingDown: boolean;
  finished: Promise<void> | null;
}

// One per process, also when a development server reloads the modules.
const state: Lifecycle = remember("lifecycle", (): Lifecycle => ({ hooks: [], shuttingDown: false, finished: null }));

/** Registers a hook run once at shutdown, before the database closes; returns a function that removes it. */
export function onShutdown(hook: ShutdownHook): () => void {
  state.hooks.push(hook);
  return () => {
    const at = state.hooks.indexOf(hook);
    if (at !== -1) state.hooks.splice(at, 1);
  };
}

/** Whether the process is on its way out (readyz answers 503, a kept-alive connection is closed). */
export function isShuttingDown(): boolean {
  return state.shuttingDown;
}

export type Readiness = "ready" | "shutting-down" | "migrations-pending" | "database-unavailable" | "secrets-mismatch" | "clock-skew";

/** A probe's database work may take this long; past it the answer is "database-unavailable" (a hung database). */
export const READINESS_TIMEOUT_MS = 2000;
/** GET /readyz answers from one check for this long, however many probes ask (one round trip a second at most). */
export const READINESS_CACHE_MS = 1000;
/** The secrets' fingerprints and the clock are compared at most this often. */
export const SLOW_CHECKS_MS = 60_000;

export interface ReadinessOptions {
  /** the process's clock (tests move it) */
  now?: () => number;
  timeoutMs?: number;
  /** check the secrets and the clock now rather than reuse the last minute's answer */
  fresh?: boolean;
}

interface SlowCheck {
  at: number;
  answer: Promise<Readiness>;
}
const slowChecks = new WeakMap<Db, SlowCheck>();

/** Whether this server's secrets are still the recorded ones and its clock agrees with the database's. */
async function slowReadiness(database: Db, now: () => number): Promise<Readiness> {
  if ((await mismatchedSecrets(database)).length > 0) return "secrets-mismatch";
  const skew = await clockSkewMs(database, now);
  return skew !== null && Math.abs(skew) > MAX_CLOCK_SKEW_MS ? "clock-skew" : "ready";
}

async function probe(database: Db, options: ReadinessOptions): Promise<Readiness> {
  if ((await pendingMigrations(database)).length > 0) return "migrations-pending";
  const at = Date.now();
  let slow = slowChecks.get(database);
  if (!slow || options.fresh || at - slow.at >= SLOW_CHECKS_MS) {
    slow = { at, answer: slowReadiness(database, options.now ?? Date.now) };
    slowChecks.set(database, slow);
    // A failed check is not remembered: the next probe asks again.
    slow.answer.catch(() => slowChecks.get(database) === slow && slowChecks.delete(database));
  }
  return slow.answer;
}

/**
 * What GET /readyz says: ready while the database answers within READINESS_TIMEOUT_MS, every
 * migration has run, this server's secrets are the recorded ones, its clock agrees with the
 * database's and the process is not stopping.
 */
export async function readiness(database: Db = db, options: ReadinessOptions = {}): Promise<Readiness> {
  if (state.shuttingDown) return "shutting-down";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<Readiness>((resolve) => {
    timer = setTimeout(() => resolve("database-unavailable"), options.timeoutMs ?? READINESS_TIMEOUT_MS);
  });
  try {
    const answer = await Promise.race([probe(database, options), timedOut]);
    return state.shuttingDown ? "shutting-down" : answer;
  } catch {
    return "database-unavailable";
  } finally {
    clearTimeout(timer);
  }
}

const recent = new WeakMap<Db, { at: number; answer: Promise<Readiness> }>();

/** readiness(), answered from one check for READINESS_CACHE_MS (GET /readyz); stopping is seen at once. */
export async function cachedReadiness(database: Db = db): Promise<Readiness> {
  if (state.shuttingDown) return "shutting-down";
  const at = Date.now();
  let last = recent.get(database);
  if (!last || at - last.at >= READINESS_CACHE_MS) {
    last = { at, answer: readiness(database) };
    recent.set(database, last);
  }
  const answer = await last.answer;
  return state.shuttingDown ? "shutting-down" : answer;
}

/** Tests: the next cachedReadiness() checks again. */
export function forgetReadiness(database: Db = db): void {
  recent.delete(database);
  slowChecks.delete(database);
}

/** Marks the process as stopping at once (not ready), without running anything yet. */
export function beginShutdown(): void {
  state.shuttingDown = true;
}

/**
 * Runs the hooks (newest first; a failing hook is logged and the others still run), then closes
 * the database. Called again, it returns the first call's promise.
 */
export function shutdown(): Promise<void> {
  state.shuttingDown = true;
  state.finished ??= (async () => {
    for (const hook of state.hooks.splice(0).reverse()) {
      try {
        await hook();
      } catch (error) {
        logError("a shutdown hook failed", error);
      }
    }
    try {
      await db.destroy();
    } catch (error) {
      logError("closing the database failed", error);
    }
  })();
  return state.finished;
}
