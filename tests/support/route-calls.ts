// Helpers shared by the integration tests: call a route module's loader/action directly,
// and read whatever it answers (Response or single-fetch `data(...)`) the same way.
import type { ActionFunctionArgs } from "@remix-run/node";
import { expect } from "vitest";
import { mergeCookies } from "./requests";

export type RouteArgs = ActionFunctionArgs;
export type RouteFn = (args: RouteArgs) => unknown;

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  /** the raw value the route returned */
  raw: unknown;
}

export function routeArgs(request: Request, params: Record<string, string> = {}): RouteArgs {
  return { request, params, context: {} };
}

interface DataWithInit {
  type: "DataWithResponseInit";
  data: unknown;
  init: ResponseInit | null;
}

function isDataWithInit(value: unknown): value is DataWithInit {
  return typeof value === "object" && value !== null && "type" in value && value.type === "DataWithResponseInit" && "data" in value;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.clone().text();
  if ((response.headers.get("Content-Type") ?? "").includes("application/json")) return JSON.parse(text) as unknown;
  return text;
}

/** Normalise a Response, a `data(...)` value, or a plain object into status, headers and body. */
export async function normalise(value: unknown): Promise<Answer> {
  if (value instanceof Response) {
    return { status: value.status, headers: value.headers, body: await readBody(value), raw: value };
  }
  if (isDataWithInit(value)) {
    return { status: value.init?.status ?? 200, headers: new Headers(value.init?.headers), body: value.data, raw: value };
  }
  return { status: 200, headers: new Headers(), body: value, raw: value };
}

/** Call a loader or action; a thrown Response (or data) is answered like a returned one. */
export async function call(fn: RouteFn, request: Request, params: Record<string, string> = {}): Promise<Answer> {
  try {
    return await normalise(await fn(routeArgs(request, params)));
  } catch (error) {
    if (error instanceof Response || isDataWithInit(error)) return normalise(error);
    throw error;
  }
}

export function asRecord(value: unknown): Record<string, unknown> {
  expect(typeof value).toBe("object");
  expect(value).not.toBeNull();
  expect(Array.isArray(value)).toBe(false);
  return value as Record<string, unknown>;
}

/** The error JSON of docs/api.md: 4xx, `{ message: string, errors?: {field: string} }`, no stack trace. */
export function expectApiError(answer: Answer, status: number): { message: string; errors?: Record<string, string> } {
  expect(answer.status).toBe(status);
  expect(answer.headers.get("Content-Type") ?? "").toContain("application/json");
  const body = asRecord(answer.body);
  expect(typeof body.message).toBe("string");
  expect((body.message as string).length).toBeGreaterThan(0);
  const text = JSON.stringify(body);
  expect(text).not.toMatch(/\bat \S+ \(|\bat (?:file|node):|\n\s+at /);
  expect(text).not.toMatch(/\s{2,}at\s/);
  expect(Object.keys(body).every((k) => k === "message" || k === "errors")).toBe(true);
  if ("errors" in body) {
    const errors = asRecord(body.errors);
    for (const v of Object.values(errors)) expect(typeof v).toBe("string");
  }
  return body as { message: string; errors?: Record<string, string> };
}

/** Set-Cookie values of an answer, as an array. */
export function setCookies(answer: Answer): string[] {
  return answer.headers.getSetCookie();
}

/** The Cookie header a browser would send after this answer (merged into `previous`). */
export function cookieJar(answer: Answer, previous = ""): string {
  return mergeCookies(setCookies(answer), previous);
}
