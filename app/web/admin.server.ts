// The admin pages' request glue: the admin form reader (Origin check, the admin guard, then the
// body), staff API bodies, lists, dialogs, and the methods an admin resource route does not
// serve. The guard itself (requireAdmin) is web/visitor.server's; turning the admin flag on and
// off, web/sign-in.server's. The password rules are in admin-password.server.
import type { z } from "zod";
import { adminPassword } from "~/lib/admin-password.server";
import { apiHandler } from "~/lib/api.server";
import { otherMethods } from "~/lib/api-params.server";
import { requireAdmin } from "./visitor.server";
import { assertSameOrigin, parseWith, readForm, refuseUnknownFields, safeRedirectPath } from "~/lib/http.server";
import { errorMessage, log } from "~/lib/log.server";

export { adminPassword, DEV_ADMIN_PASSWORD, isAdminPassword } from "~/lib/admin-password.server";

export const adminConfigured = () => adminPassword() !== null;

/**
 * The reader of an admin form that takes exactly `fields` (every admin page action reads its form
 * through one): the Origin check, then the admin guard, and only then the body is read; any field
 * that is not one of `fields` is refused (400 `Unknown field: …`).
 */
export function adminForm(fields: readonly string[]): (request: Request, limit?: number) => Promise<FormData> {
  return async (request, limit) => {
    assertSameOrigin(request);
    await requireAdmin(request);
    const form = await readForm(request, limit);
    refuseUnknownFields(form.keys(), fields);
    return form;
  };
}

/** A staff API body: only the schema's own fields (400 `Unknown field: …` for any other), then the schema's rules. */
export function parseStaffBody<T extends z.ZodObject>(schema: T, body: Record<string, unknown>): z.output<T> {
  refuseUnknownFields(Object.keys(body), Object.keys(schema.shape));
  return parseWith(schema, body);
}

/**
 * A list's rows, or the message the page shows as 'Error: {message}' (docs/product.md) when the
 * database could not be read. The details go to the log, not to the page.
 */
export async function loadList<T>(fn: () => Promise<T>): Promise<{ list: T; error: null } | { list: null; error: string }> {
  try {
    return { list: await fn(), error: null };
  } catch (error) {
    log.error(`admin list failed: ${errorMessage(error)}`);
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
  return safeRedirectPath(`${url.pathname}${url.search}`, "/admin");
}

/**
 * For the methods an admin resource route does not serve: cross-site 403 first, then the
 * admin guard (403 without the flag), and only the admin learns it is the wrong method (405).
 */
export function adminOtherMethods(allowed: string[]) {
  const refuse = otherMethods(allowed);
  return (args: { request: Request }) =>
    apiHandler(async () => {
      assertSameOrigin(args.request);
      await requireAdmin(args.request, { api: true });
      return refuse(args);
    });
}
