// The shop's admin: the Admin Access password and the one guard every admin loader, action
// and API call goes through. The flag lives in the server-side session (never in the browser).
import crypto from "node:crypto";
import { redirect } from "@remix-run/node";
import { jsonResponse } from "./api.server";
import { isAdminRequest } from "./auth.server";
import { env, isProduction } from "./env.server";
import { assertSameOrigin, readForm } from "./http.server";
import type { ShopSession } from "./session.server";
import { commitSession, getSession, rotateSession } from "./session.server";

/** contract.md: `admin12345` outside production; in production only what ADMIN_PASSWORD says. */
export const DEV_ADMIN_PASSWORD = "admin12345";

export function adminPassword(): string | null {
  return env.ADMIN_PASSWORD ?? (isProduction ? null : DEV_ADMIN_PASSWORD);
}

export const adminConfigured = () => adminPassword() !== null;

/** Timing-safe: both sides are hashed to the same length first, so neither length nor content leaks. */
export function isAdminPassword(candidate: string): boolean {
  const expected = adminPassword();
  if (expected === null) return false;
  const a = crypto.createHash("sha256").update(candidate, "utf8").digest();
  const b = crypto.createHash("sha256").update(expected, "utf8").digest();
  return crypto.timingSafeEqual(a, b);
}

export const ADMIN_FORBIDDEN = "Admin access required";

/**
 * The one admin guard. Without the flag a page view (GET/HEAD) is sent to / and anything else
 * (and every admin API call, `api: true`) answers 403, thrown as a Response so no form handler can turn it into a re-rendered page.
 */
export async function requireAdmin(request: Request, options: { api?: boolean } = {}): Promise<void> {
  if (await isAdminRequest(request)) return;
  if (!options.api && ["GET", "HEAD"].includes(request.method.toUpperCase())) throw redirect("/");
  throw jsonResponse({ message: ADMIN_FORBIDDEN }, { status: 403 });
}

/** Admin actions: the Origin check, then the admin guard, and only then the body is read. */
export async function readAdminForm(request: Request, limit?: number): Promise<FormData> {
  assertSameOrigin(request);
  await requireAdmin(request);
  return readForm(request, limit);
}

/** Turn the flag on: a fresh session id (privilege change), same cart and sign-in. */
export async function grantAdmin(request: Request): Promise<string> {
  const fresh: ShopSession = await rotateSession(await getSession(request));
  fresh.set("isAdmin", true);
  return commitSession(fresh, request);
}

/** Turn the flag off; a signed-in customer stays signed in. */
export async function revokeAdmin(request: Request): Promise<string> {
  const fresh = await rotateSession(await getSession(request));
  fresh.unset("isAdmin");
  return commitSession(fresh, request);
}

/**
 * A list's rows, or the message the page shows as 'Error: {message}' (spec) when the
 * database could not be read. The details go to the log, not to the page.
 */
export async function loadList<T>(fn: () => Promise<T>): Promise<{ list: T; error: null } | { list: null; error: string }> {
  try {
    return { list: await fn(), error: null };
  } catch (error) {
    console.error("admin list failed:", error instanceof Error ? error.message : error);
    return { list: null, error: "The list could not be loaded. Please try again." };
  }
}

/** Which dialog the URL opens: ?new=1, ?edit=ID or ?delete=ID. */
export function dialogFromUrl(url: URL): { mode: "new" } | { mode: "edit" | "delete"; id: number } | null {
  const p = url.searchParams;
  if (p.get("new")) return { mode: "new" };
  for (const mode of ["edit", "delete"] as const) {
    const raw = p.get(mode);
    if (raw && /^\d{1,9}$/.test(raw) && Number(raw) > 0) return { mode, id: Number(raw) };
  }
  return null;
}

/** Where a saved or deleted row sends the admin: the list as it was, without the dialog. */
export function backToList(request: Request): string {
  const url = new URL(request.url);
  for (const p of ["new", "edit", "delete", "index", "_data"]) url.searchParams.delete(p);
  return `${url.pathname}${url.search}`;
}
