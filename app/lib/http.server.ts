// The gate every state-changing request passes first: Origin check and body-size limit.
// Remix under remix-serve has no middleware, so every action calls readForm/readJson
// (API actions: requireMutation); a test walks all route modules to prove it.
import type { z } from "zod";
import { env } from "./env.server";
import { AppError } from "./errors.server";
import { MAX_BODY_BYTES, isSameSite } from "./request-rules";

export { MAX_BODY_BYTES };

/** Refuse cross-site state changes (403): the rule of ./request-rules, which the Express server applies first. */
export function assertSameOrigin(request: Request) {
  const url = new URL(request.url);
  const header = (name: string) => request.headers.get(name) ?? (name === "host" ? url.host : null);
  if (!isSameSite({ method: request.method, pathname: url.pathname, header, trustProxy: env.TRUST_PROXY })) {
    throw new AppError(403, "Cross-site request refused");
  }
}

async function readLimitedText(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get("Content-Length") ?? "0");
  if (declared > limit) throw new AppError(413, "The request is too large");
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new AppError(413, "The request is too large");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * The longest text field any form or JSON body of the shop takes (a contact message: 5,000). A
 * longer one is refused before any schema or pattern looks at it, so no rule has to be fast on
 * 64 KB of a stranger's text.
 */
export const MAX_FIELD_CHARS = 10_000;

/**
 * A NUL character is never meaningful in a form or JSON field, and PostgreSQL cannot store one
 * in text: refuse it at the door (400) rather than fail at the write (500). A field over
 * MAX_FIELD_CHARS is refused too (400).
 */
function refuseNul(value: string): string {
  if (value.length > MAX_FIELD_CHARS) throw new AppError(400, "A field of the request is too long");
  if (value.includes("\u0000")) throw new AppError(400, "The request contains a character that is not allowed");
  return value;
}

/** Deeper than any body this shop takes: refused (400) before anything walks it. */
const MAX_JSON_DEPTH = 20;

/** Every key and string of a parsed JSON body, walked without recursion (a deep body cannot overflow the stack). */
function refuseNulIn(value: unknown): void {
  const pending: [unknown, number][] = [[value, 0]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [item, depth] = next;
    if (typeof item === "string") refuseNul(item);
    else if (typeof item === "object" && item !== null) {
      if (depth >= MAX_JSON_DEPTH) throw new AppError(400, "The request body is nested too deeply");
      for (const [k, v] of Object.entries(item)) {
        refuseNul(k);
        pending.push([v, depth + 1]);
      }
    }
  }
}

/** Origin check + size limit + urlencoded/multipart form parsing. */
export async function readForm(request: Request, limit = MAX_BODY_BYTES): Promise<FormData> {
  assertSameOrigin(request);
  const type = request.headers.get("Content-Type") ?? "";
  if (type.includes("application/x-www-form-urlencoded") || type === "") {
    const text = await readLimitedText(request, limit);
    const form = new FormData();
    for (const [k, v] of new URLSearchParams(text)) form.append(k, refuseNul(v));
    return form;
  }
  if (type.includes("multipart/form-data")) {
    const declared = Number(request.headers.get("Content-Length") ?? "NaN");
    if (!Number.isFinite(declared) || declared > limit) throw new AppError(413, "The request is too large");
    let form: FormData;
    try {
      form = await request.formData();
    } catch {
      // A broken body (a boundary that does not match, a cut part) is the sender's mistake.
      throw new AppError(400, "The form could not be read. Please send it again.");
    }
    for (const value of form.values()) if (typeof value === "string") refuseNul(value);
    return form;
  }
  throw new AppError(415, "Send the form as application/x-www-form-urlencoded");
}

/** Origin check + size limit, and the body exactly as sent (signed webhooks are checked over it). */
export async function readRawBody(request: Request, limit = MAX_BODY_BYTES): Promise<string> {
  assertSameOrigin(request);
  return readLimitedText(request, limit);
}

/** Origin check + size limit + JSON (or form) body as a plain object for zod to parse. */
export async function readBody(request: Request, limit = MAX_BODY_BYTES): Promise<Record<string, unknown>> {
  assertSameOrigin(request);
  const type = request.headers.get("Content-Type") ?? "";
  if (type.includes("application/json")) {
    const text = await readLimitedText(request, limit);
    if (!text.trim()) return {};
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new AppError(400, "The request body is not valid JSON");
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new AppError(400, "The request body must be a JSON object");
    }
    refuseNulIn(parsed);
    return parsed as Record<string, unknown>;
  }
  const form = await readForm(request, limit);
  return Object.fromEntries(form.entries());
}

/** How much of an unknown field's name a refusal repeats (a real field's name is far shorter). */
const FIELD_NAME_SHOWN = 100;

/**
 * A staff write takes exactly its fields: any other key (a misspelt name such as `categoryIds[]`
 * for `categoryIds`, a field of another form) is refused with 400 naming it, never silently
 * ignored, so a client that misnames a field learns it instead of writing something else.
 */
export function refuseUnknownFields(keys: Iterable<string>, known: Iterable<string>): void {
  const allowed = new Set(known);
  for (const key of keys) {
    if (allowed.has(key)) continue;
    const name = key.slice(0, FIELD_NAME_SHOWN);
    throw new AppError(400, `Unknown field: ${name}`, { fieldErrors: { [name]: `Unknown field: ${name}` } });
  }
}

/** Turn a zod failure into field messages (first message per field). */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? String(issue.path[0]) : "form";
    if (!(key in out)) out[key] = issue.message;
  }
  return out;
}

export function parseWith<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const result = schema.safeParse(input);
  if (!result.success) {
    const errors = fieldErrors(result.error);
    const first = Object.values(errors)[0] ?? "Invalid input";
    throw new AppError(400, first, { fieldErrors: errors });
  }
  return result.data;
}

/**
 * Whether the visitor reached us over HTTPS (directly, or through a trusted proxy that says so).
 * Cookies are marked Secure exactly then: a plain-HTTP `npm start` on a LAN address or an API
 * client on http://localhost still keeps its session, and no HTTPS deployment sends one in clear.
 */
export function isSecureRequest(request: Request): boolean {
  if (new URL(request.url).protocol === "https:") return true;
  // A shop whose public address is https is reached over HTTPS, whatever a proxy says.
  if (env.PUBLIC_URL?.startsWith("https:")) return true;
  return env.TRUST_PROXY && request.headers.get("X-Forwarded-Proto")?.split(",")[0]?.trim() === "https";
}

/** Same-site path for a redirect taken from a request; anything else falls back. */
export function safeRedirectPath(target: unknown, fallback = "/"): string {
  if (typeof target !== "string" || !target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) {
    return fallback;
  }
  if ([...target].some((ch) => ch.charCodeAt(0) < 32)) return fallback;
  // A Location header holds ASCII only: anything else (U+2028, Hindi letters) is percent-encoded,
  // or setting the header throws (a 500 after a sign-in had rotated the session).
  return target.replace(/[^\x21-\x7e]/gu, (ch) => encodeURIComponent(ch));
}
