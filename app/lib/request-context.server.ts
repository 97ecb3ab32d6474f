// Each request's id, carried through everything that request does (AsyncLocalStorage): its log
// lines (app/lib/log.server.ts), the mails it queues (the outbox row's request_id and the mail's
// X-Request-Id header) and its error page ("quote this reference"). The production server
// (server/index.ts) gives every request one and sets it on the answer's X-Request-Id header; it
// reaches this module through the build's entry, so both share the one store (remember()).
// The context also carries whether the request reads fresh and whether it wrote (fresh-reads.server).
import { AsyncLocalStorage } from "node:async_hooks";
import crypto from "node:crypto";
import { remember } from "./remember.server";

export interface RequestContext {
  /** the request's id, as its X-Request-Id answer header shows it */
  requestId: string;
  /** its reads skip the answers this process keeps (the visitor wrote a moment ago: fresh-reads.server) */
  readsFresh: boolean;
  /** it made a write a page may show (write-watch.server counts those) */
  wroteShown: boolean;
}

/** What an id taken from a trusted proxy must look like: nothing a log line or a mail header could be hurt by. */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{8,64}$/;

const storage = remember("requestContext", () => new AsyncLocalStorage<RequestContext>());

/**
 * The id for a request: the X-Request-Id a trusted proxy sent (the proxy's own, so its log and
 * the shop's name the same request), when it has the safe shape; else a new random one. A client's
 * own header is never taken: it could name another customer's request or fill the log with lies.
 */
export function requestIdFor(header: string | string[] | undefined | null, fromTrustedProxy: boolean): string {
  const value = Array.isArray(header) ? header[0] : header;
  if (fromTrustedProxy && value && REQUEST_ID_PATTERN.test(value)) return value;
  return crypto.randomUUID();
}

/** Runs `fn` as part of the request named `requestId`: whatever it starts, awaits or logs carries the id. */
export function runWithRequest<T>(requestId: string, fn: () => T, options: { readsFresh?: boolean } = {}): T {
  return storage.run({ requestId, readsFresh: options.readsFresh ?? false, wroteShown: false }, fn);
}

/** The id of the request this code runs for; null outside one (the worker, housekeeping, scripts, tests). */
export function currentRequestId(): string | null {
  return storage.getStore()?.requestId ?? null;
}

/** Whether the request this code runs for must read the database, not what this process keeps. */
export function requestReadsFresh(): boolean {
  return storage.getStore()?.readsFresh ?? false;
}

/** Records that the request this code runs for made a write a page may show (nothing outside a request). */
export function noteRequestWroteShown(): void {
  const context = storage.getStore();
  if (context) context.wroteShown = true;
}

/** Whether the request this code runs for has made a write a page may show. */
export function requestWroteShown(): boolean {
  return storage.getStore()?.wroteShown ?? false;
}
