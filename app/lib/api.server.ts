// JSON answers for the resource routes: one shape for every error, never a stack trace.
import crypto from "node:crypto";
import { AppError } from "./errors.server";
import { logError } from "./log.server";

export function jsonResponse(body: unknown, init: ResponseInit = {}) {
  const headers = new Headers(init.headers);
  headers.set("Content-Type", "application/json; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  return new Response(JSON.stringify(body), { ...init, headers });
}

export function errorResponse(error: unknown) {
  if (error instanceof AppError) {
    const body: { message: string; errors?: Record<string, string> } = { message: error.message };
    if (error.fieldErrors && Object.keys(error.fieldErrors).length) body.errors = error.fieldErrors;
    return jsonResponse(body, { status: error.status, headers: error.headers });
  }
  if (error instanceof Response) return error;
  logError("API request failed", error);
  return jsonResponse({ message: "Something went wrong. Please try again." }, { status: 500 });
}

/** Run an API handler and map any thrown error to the error JSON of docs/api.md. */
export async function apiHandler(fn: () => Promise<Response | unknown>): Promise<Response> {
  try {
    const result = await fn();
    return result instanceof Response ? result : jsonResponse(result);
  } catch (error) {
    return errorResponse(error);
  }
}

/**
 * How long a shared cache (a CDN) and a browser may keep a catalogue answer: a minute fresh, then
 * ten more served stale while it asks again with If-None-Match (ADR 0015). Whatever staff change
 * (an edit, a CSV import, stock sold) reaches every client within that, and the server is still
 * the authority: a cart add or an order checks stock and price itself.
 */
export const PUBLIC_API_CACHE = "public, max-age=60, stale-while-revalidate=600";

/** The ETag of an answer's text: weak, since the server's compression may send other bytes for it. */
export function etagOf(body: string): string {
  return `W/"${crypto.createHash("sha1").update(body).digest("base64url")}"`;
}

/** Does If-None-Match (one tag, a list, weak tags or *) name this ETag? */
export function matchesEtag(request: Request, etag: string): boolean {
  const header = request.headers.get("If-None-Match");
  if (!header) return false;
  return header
    .split(",")
    .map((tag) => tag.trim().replace(/^W\//, ""))
    .some((tag) => tag === etag.replace(/^W\//, "") || tag === "*");
}

/**
 * An API handler whose answer is the same for every caller (the catalogue, search): success is
 * answered with PUBLIC_API_CACHE and an ETag, and 304 when the client already holds it. Errors
 * are answered as by apiHandler, never cached.
 */
export async function publicApiHandler(request: Request, fn: () => Promise<Response | unknown>): Promise<Response> {
  const answer = await apiHandler(fn);
  if (answer.status !== 200 || answer.headers.has("Set-Cookie")) return answer;
  const text = await answer.text();
  const headers = new Headers(answer.headers);
  const etag = etagOf(text);
  headers.set("Cache-Control", PUBLIC_API_CACHE);
  headers.set("ETag", etag);
  if (matchesEtag(request, etag)) return new Response(null, { status: 304, headers });
  return new Response(text, { status: 200, headers });
}
