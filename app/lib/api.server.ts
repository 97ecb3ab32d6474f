// JSON answers for the resource routes: one shape for every error, never a stack trace.
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
