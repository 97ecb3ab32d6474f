// The admin pages' request glue: the admin form reader (Origin check, the staff guard with the
// permission the route declares, then the body), staff API bodies, lists, dialogs, and the methods
// an admin resource route does not serve. The guard itself (requireStaff) is web/staff.server's;
// signing in and out, web/sign-in.server's. The password rules are in admin-password.server.
import type { z } from "zod";
import { adminPassword } from "~/lib/admin-password.server";
import { apiHandler } from "~/lib/api.server";
import { otherMethods } from "~/lib/api-params.server";
import { unknownIntent } from "~/lib/form.server";
import type { Actor } from "~/models/staff/staff.server";
import type { Permission, RoutePermissions } from "~/utils/staff-permissions";
import { can } from "~/utils/staff-permissions";
import { requireStaff } from "./staff.server";
import { assertSameOrigin, parseWith, readForm, refuseUnknownFields, safeRedirectPath } from "~/lib/http.server";
import { errorMessage, log } from "~/lib/log.server";

export { adminPassword, DEV_ADMIN_PASSWORD, isAdminPassword } from "~/lib/admin-password.server";

export const adminConfigured = () => adminPassword() !== null;

/** What an admin action needs: one permission, null (any staff member), or one per form `intent`. */
export type ActionPermission = Exclude<RoutePermissions["action"], undefined>;

// The staff member each guarded admin request acts as, for the model verbs' audit rows.
const actors = new WeakMap<Request, Actor>();

/** requireStaff, remembering who asked (formActor reads it back in the action's handlers). */
export async function guardStaff(request: Request, permission: Permission | null, options: { api?: boolean } = {}): Promise<Actor> {
  const { actor } = await requireStaff(request, permission, options);
  actors.set(request, actor);
  return actor;
}

/** Who an admin form acts as: the staff member its reader (adminForm) let through. */
export function formActor(request: Request): Actor {
  const actor = actors.get(request);
  if (!actor) throw new Error("formActor: the request was not read through adminForm's guard");
  return actor;
}

/**
 * The reader of an admin form that takes exactly `fields` (every admin page action reads its form
 * through one): the Origin check, then the staff guard with `permission`, and only then the body is
 * read; any field that is not one of `fields` is refused (400 `Unknown field: …`). With one
 * permission per intent, a stranger is refused before the body is read, and the intent's
 * permission is checked as soon as the body names it, before any other field is looked at. An
 * intent the page does not take is the page's 400 for staff who may use one of its forms, and a
 * 403 for the rest. The handlers then read who acts with formActor(request).
 */
export function adminForm(
  fields: readonly string[],
  permission: ActionPermission,
): (request: Request, limit?: number) => Promise<FormData> {
  return async (request, limit) => {
    assertSameOrigin(request);
    if (permission === null || typeof permission === "string") {
      await guardStaff(request, permission);
      const form = await readForm(request, limit);
      refuseUnknownFields(form.keys(), fields);
      return form;
    }
    const { actor } = await requireStaff(request, null);
    const form = await readForm(request, limit);
    const intent = form.get("intent");
    if (typeof intent === "string" && Object.hasOwn(permission, intent)) {
      await guardStaff(request, permission[intent] ?? null);
    } else {
      const needed = Object.values(permission);
      const some = needed.find((p) => p === null || can(actor.role, p));
      // None of the page's forms is this role's: the same 403 as a form of it would get.
      if (some === undefined) await requireStaff(request, needed[0]!);
      throw unknownIntent();
    }
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
 * For the methods an admin resource route does not serve: cross-site 403 first, then the staff
 * guard with `permission` (403 for a stranger or a role without it), and only staff who may use
 * the route learn it is the wrong method (405).
 */
export function adminOtherMethods(allowed: string[], permission: Permission | null) {
  const refuse = otherMethods(allowed);
  return (args: { request: Request }) =>
    apiHandler(async () => {
      assertSameOrigin(args.request);
      await requireStaff(args.request, permission, { api: true });
      return refuse(args);
    });
}
