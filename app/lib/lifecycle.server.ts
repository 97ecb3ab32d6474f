// The process's end: what must stop before it exits (the mail worker, timers) registers here with
// onShutdown, and scripts/server.mjs calls shutdown() on SIGTERM/SIGINT once the HTTP server has
// finished its in-flight requests (through build.entry.module, app/entry.server.tsx). From the
// first signal on, isShuttingDown() is true and GET /readyz answers 503 so the load balancer stops
// sending work here. The hooks run newest first, each at most once; the database closes last.
import { db } from "./db.server";
import type { Db } from "./db.server";
import { logError } from "./log.server";
import { pendingMigrations } from "./migrate.server";

export type ShutdownHook = () => void | Promise<void>;

interface Lifecycle {
  hooks: ShutdownHook[];
  shuttingDown: boolean;
  finished: Promise<void> | null;
}

// One per process, also when a development server reloads the modules.
const globalForLifecycle = globalThis as unknown as { __shopLifecycle?: Lifecycle };
const state: Lifecycle = (globalForLifecycle.__shopLifecycle ??= { hooks: [], shuttingDown: false, finished: null });

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

export type Readiness = "ready" | "shutting-down" | "migrations-pending" | "database-unavailable";

/** What GET /readyz says: ready while the database answers, every migration has run and the process is not stopping. */
export async function readiness(database: Db = db): Promise<Readiness> {
  if (state.shuttingDown) return "shutting-down";
  try {
    if ((await pendingMigrations(database)).length > 0) return "migrations-pending";
  } catch {
    return "database-unavailable";
  }
  return state.shuttingDown ? "shutting-down" : "ready";
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
