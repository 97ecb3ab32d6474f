// Reads of data that changes rarely (the catalogue a storefront page shows), kept in this process
// under the same rules as the anonymous page cache (server/page-cache.ts, ADR 0016), for the pages
// that cache cannot answer (a visitor with a cart or a sign-in):
// - a kept answer holds only while the data generation it was read under is current: any write a
//   page could show moves it, made by this server or, on PostgreSQL, by any other
//   (app/lib/write-watch.server.ts); while the generation is null (PostgreSQL, this server not
//   listening for the others' writes) nothing is kept;
// - and at most `ttlMs` (10 s, as the page cache): the bound on what a write by another process on
//   a SQLite file (which moves no generation here) can leave unseen;
// - an answer is kept only when no write began or ended while it was read; a failed read is not kept;
// - askers of the same arguments while a read is under way share it;
// - a request that reads fresh (its visitor wrote a moment ago, maybe on another server whose
//   notification has not reached this one yet: fresh-reads.server) neither uses nor fills them.
// Kept answers are frozen (deeply): they are shared by every request that asks.
import { requestReadsFresh } from "./request-context.server";
import { dataGeneration } from "./write-watch.server";

/** The longest an answer is kept by default: the bound fresh-reads.server's cookie outlives. */
export const KEPT_AT_MOST_MS = 10_000;

export interface GenerationCacheOptions {
  ttlMs?: number;
  /** the most answers kept (distinct arguments), the least recently used dropped */
  maxEntries?: number;
  generation?: () => number | null;
  now?: () => number;
}

interface Kept<T> {
  generation: number;
  storedAt: number;
  value: T;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/**
 * `read`, with its answers kept per arguments (compared as JSON) while the data generation is
 * current. Callers asking for the same arguments while a read is under way, under the same
 * generation, share that read (a page many visitors open at once, or two reads of one request, cost
 * one); its answer is then frozen too, kept or not.
 */
export function whileCurrent<A extends unknown[], T>(
  read: (...args: A) => Promise<T>,
  { ttlMs = KEPT_AT_MOST_MS, maxEntries = 500, generation = dataGeneration, now = Date.now }: GenerationCacheOptions = {},
): (...args: A) => Promise<T> {
  const kept = new Map<string, Kept<T>>();
  const reading = new Map<string, { generation: number; answer: Promise<T> }>();
  return async (...args: A) => {
    const started = generation();
    if (started === null || requestReadsFresh()) return read(...args);
    const key = JSON.stringify(args);
    const hit = kept.get(key);
    if (hit) {
      kept.delete(key);
      if (hit.generation === started && now() - hit.storedAt < ttlMs) {
        kept.set(key, hit);
        return hit.value;
      }
    }
    const underWay = reading.get(key);
    if (underWay?.generation === started) return underWay.answer;
    const answer = read(...args).then((value) => {
      const frozen = deepFreeze(value);
      if (generation() === started) {
        kept.set(key, { generation: started, storedAt: now(), value: frozen });
        if (kept.size > maxEntries) kept.delete(kept.keys().next().value!);
      }
      return frozen;
    });
    reading.set(key, { generation: started, answer });
    try {
      return await answer;
    } finally {
      if (reading.get(key)?.answer === answer) reading.delete(key);
    }
  };
}
