// The anonymous page cache (ADR 0016): a storefront page asked for without any cookie or
// credential is the same for everyone but for its CSP nonce, so the rendered HTML is kept and
// served again with a fresh nonce put into the page and its header.
//
// - Who: GET of a page (not the API, the back-office, payments, Remix's data and manifest
//   requests, images or uploads) carrying no Cookie and no Authorization header. A visitor with a
//   session (a cart, a sign-in, a toast) always gets a page rendered for them.
// - What: only a 200 HTML answer that sets no cookie and carries a nonce in its CSP; the key is
//   the whole URL (origin, path and query), since pages name their own origin.
// - How long: while the data generation it was rendered under is current (any write a page could
//   show moves it, made by this server or, on PostgreSQL, by any other: app/lib/write-watch.server.ts,
//   which the server passes in as `generation` from the build's entry)
//   and at most `ttlMs` (10 s: bounds what time alone changes, such as dates, and writes made by
//   another process on a SQLite file). On PostgreSQL the generation is null, and nothing is
//   cached, while this server is not listening for the others' writes.
// - Nonce: each answer gets 16 fresh random bytes, put wherever the rendered nonce stood, so a
//   nonce is never handed out twice.
import crypto from "node:crypto";

/** Paths that are never cached, whoever asks. */
const NEVER = /^\/(api|admin|rzp|images|uploads|healthz|readyz|metrics|__manifest|logout)(\/|$)|\.data$/;

/** Whether a request may be answered from (and fill) the cache, from its method, path and credentials. */
export function isCacheable(method: string, pathname: string, hasCredentials: boolean): boolean {
  return method === "GET" && !hasCredentials && !NEVER.test(pathname);
}

/** isCacheable for a Fetch API request. */
export function isCacheableRequest(request: Request): boolean {
  const credentials = request.headers.has("cookie") || request.headers.has("authorization");
  return isCacheable(request.method, new URL(request.url).pathname, credentials);
}

function nonceOf(csp: string | null): string | null {
  return /'nonce-([A-Za-z0-9+/=_-]{16,})'/.exec(csp ?? "")?.[1] ?? null;
}

export interface PageCacheOptions {
  /** the current data generation, or null while it cannot be trusted (then nothing is cached) */
  generation: () => number | null;
  /** the longest a page is served again, in ms */
  ttlMs?: number;
  maxEntries?: number;
  /** the most the kept pages may take (a string's length twice); one page at most an eighth */
  maxBytes?: number;
  now?: () => number;
  /** whether answers carry X-Page-Cache: hit or miss */
  stateHeader?: boolean;
  /** told of each cacheable request's answer: hit (served again) or miss (rendered); the metrics count them */
  onAnswer?: (result: "hit" | "miss") => void;
}

/** Renders a request: Remix's request handler, or a stand-in in tests. */
export type Render = (request: Request) => Promise<Response>;

export interface PageCache {
  /** The answer to `request`: a kept page with a fresh nonce, or `render`'s (kept when it may be). */
  handle(request: Request, render: Render): Promise<Response>;
  clear(): void;
  readonly size: number;
}

/** One kept page: its body split at the nonce, so that a fresh one can be put in its places. */
interface Entry {
  generation: number;
  storedAt: number;
  status: number;
  headers: [string, string][];
  parts: string[];
  nonce: string;
  bytes: number;
}

export function createPageCache({
  generation,
  ttlMs = 10_000,
  maxEntries = 500,
  maxBytes = 32 * 1024 * 1024,
  now = Date.now,
  // X-Page-Cache: hit or miss, for tests and development only: in production it would tell anyone
  // whether another visitor opened that URL in the last seconds.
  stateHeader = process.env.NODE_ENV !== "production",
  onAnswer = () => {},
}: PageCacheOptions): PageCache {
  /** url → its entry, in Map order: least recently used first */
  const entries = new Map<string, Entry>();
  let bytes = 0;

  function drop(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    bytes -= entry.bytes;
    entries.delete(key);
  }

  function respond(entry: Entry, state: "hit" | "miss") {
    const nonce = crypto.randomBytes(16).toString("base64");
    const headers = new Headers();
    for (const [name, value] of entry.headers)
      headers.append(name, name === "content-security-policy" ? value.split(entry.nonce).join(nonce) : value);
    if (stateHeader) headers.set("X-Page-Cache", state);
    return new Response(entry.parts.join(nonce), { status: entry.status, headers });
  }

  async function handle(request: Request, render: Render): Promise<Response> {
    if (!isCacheableRequest(request)) return render(request);
    const key = request.url;
    const started = generation();
    if (started === null) return render(request);
    const hit = entries.get(key);
    if (hit) {
      if (hit.generation === started && now() - hit.storedAt < ttlMs) {
        entries.delete(key);
        entries.set(key, hit);
        onAnswer("hit");
        return respond(hit, "hit");
      }
      drop(key);
    }
    const response = await render(request);
    onAnswer("miss");
    const nonce = nonceOf(response.headers.get("content-security-policy"));
    if (
      response.status !== 200 ||
      !nonce ||
      response.headers.has("set-cookie") ||
      !/^text\/html/i.test(response.headers.get("content-type") ?? "")
    ) {
      return response;
    }
    const body = await response.text();
    const entry: Entry = {
      generation: started,
      storedAt: now(),
      status: response.status,
      headers: [...response.headers],
      parts: body.split(nonce),
      nonce,
      bytes: body.length * 2,
    };
    // Kept only when no write began or ended while it was rendered.
    if (generation() === started && entry.bytes <= maxBytes / 8) {
      drop(key);
      entries.set(key, entry);
      bytes += entry.bytes;
      for (const oldest of entries.keys()) {
        if (entries.size <= maxEntries && bytes <= maxBytes) break;
        drop(oldest);
      }
    }
    const headers = new Headers(response.headers);
    if (stateHeader) headers.set("X-Page-Cache", "miss");
    return new Response(body, { status: response.status, headers });
  }

  return {
    handle,
    clear() {
      entries.clear();
      bytes = 0;
    },
    get size() {
      return entries.size;
    },
  };
}
