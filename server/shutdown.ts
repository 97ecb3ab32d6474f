// The production server's stop on SIGTERM/SIGINT: not ready at once (GET /readyz 503); with a
// delay (SHUTDOWN_DELAY_MS) it keeps serving that long, so a health-checking load balancer stops
// routing here first; then no new connections, idle kept-alive ones closed, requests in flight
// finish (at most SHUTDOWN_TIMEOUT_MS, 10 s), then the shutdown hooks and the database's close
// (app/lib/lifecycle.server.ts), exit 0.
import type { Server } from "node:http";
import type { RequestHandler, Response } from "express";
import type { ShopEntry } from "./import-build";

export interface StopOptions {
  /** the app's side: beginShutdown (not ready) and shutdown (hooks, database) */
  lifecycle: Pick<ShopEntry, "beginShutdown" | "shutdown">;
  /** how long the server keeps serving after the signal, not ready */
  delayMs: number;
  /** how long the requests in flight may take before their connections are closed */
  timeoutMs: number;
  /** where the stop's steps are told (the app's log; the console by default) */
  log?: { info: (message: string) => void; warn: (message: string) => void };
}

export function gracefulStop({ lifecycle, delayMs, timeoutMs, log = console }: StopOptions) {
  let server: Server | null = null;
  // While stopping: every answer not yet begun closes its connection (one in flight too), and a
  // connection left idle is closed at once.
  let stopping = false;
  const inFlight = new Set<Response>();

  /** Middleware, first in the chain: keeps track of the answers in flight. */
  const track: RequestHandler = (_req, res, next) => {
    if (stopping) res.setHeader("Connection", "close");
    inFlight.add(res);
    res.once("close", () => inFlight.delete(res));
    res.once("finish", () => stopping && setImmediate(() => server?.closeIdleConnections()));
    next();
  };

  let signalled = false;
  async function stop(signal: NodeJS.Signals) {
    if (signalled || !server) return; // a second signal changes nothing: the time limit ends the wait
    signalled = true;
    const listening = server;
    lifecycle.beginShutdown();
    if (delayMs > 0) {
      log.info(`[shop] ${signal}: not ready (GET /readyz 503); still serving for ${delayMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
    stopping = true;
    for (const res of inFlight) if (!res.headersSent) res.setHeader("Connection", "close");
    log.info(`[shop] ${signal}: no new connections; finishing the requests in flight (at most ${timeoutMs} ms)`);
    const closed = new Promise<boolean>((resolve) => listening.close(() => resolve(true)));
    listening.closeIdleConnections();
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const finished = await Promise.race([closed, timedOut]);
    clearTimeout(timer);
    if (!finished) {
      log.warn(`[shop] requests still running after ${timeoutMs} ms: their connections are closed`);
      listening.closeAllConnections();
    }
    await lifecycle.shutdown();
    log.info("[shop] stopped");
    process.exit(0);
  }

  /** Stops `httpServer` gracefully on SIGTERM and SIGINT. */
  function onSignals(httpServer: Server) {
    server = httpServer;
    for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => void stop(signal));
  }

  return { track, onSignals };
}
