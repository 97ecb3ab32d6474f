// Who in the back-office is asking, and may they: the one staff guard (docs/decisions/0033). A
// request is a staff member's when its browser session is signed in as an active staff account
// (the row is read on every request, so a disabled account is refused at once on every server),
// or carries the built-in owner's grant (ADMIN_PASSWORD, while ADMIN_PASSWORD_LOGIN is on). A
// bearer token is never staff. Every admin loader, action and admin API route asks through
// requireStaff with the permission it needs (app/utils/staff-permissions.ts).
import { redirect } from "@remix-run/node";
import { adminGrantValid } from "~/lib/admin-password.server";
import { jsonResponse } from "~/lib/api.server";
import { bearerToken } from "~/lib/api-tokens.server";
import { env } from "~/lib/env.server";
import type { ShopSession } from "~/lib/session.server";
import { getSession, lastSeenBefore } from "~/lib/session.server";
import type { Actor, Staff } from "~/models/staff/staff.server";
import { actorOf, BUILTIN_OWNER, findStaff, twoStepRequiredFor } from "~/models/staff/staff.server";
import type { Permission } from "~/utils/staff-permissions";
import { can, PERMISSION_REFUSED } from "~/utils/staff-permissions";
import { TWO_STEP_SETUP_PATH } from "~/utils/admin-access";

/** A staff sign-in ends after this long without a visit … */
export const STAFF_IDLE_MS = 12 * 60 * 60 * 1000;
/** … and this long after it was made, however busy. */
export const STAFF_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;

export const ADMIN_FORBIDDEN = "Admin access required";
export const TWO_STEP_SETUP_NEEDED = "Set up two-step sign-in before using the admin area: open /admin/login/two-step.";

/** Who is asking in the back-office: the actor, and the staff account behind it (null for the built-in owner). */
export interface StaffVisitor {
  actor: Actor;
  staff: Staff | null;
}

/** Is the session's staff sign-in still within its idle and absolute windows? */
export function staffSignInCurrent(session: ShopSession, now = Date.now()): boolean {
  const signedIn = Date.parse(session.get("staffSignedInAt") ?? "");
  if (!Number.isFinite(signedIn) || signedIn + STAFF_ABSOLUTE_MS < now) return false;
  const seen = lastSeenBefore(session) ?? signedIn;
  return Math.max(seen, signedIn) + STAFF_IDLE_MS >= now;
}

async function readStaffVisitor(request: Request): Promise<StaffVisitor | null> {
  if (bearerToken(request) !== null) return null;
  const session = await getSession(request);
  const staffId = session.get("staffId");
  if (typeof staffId === "number") {
    if (!staffSignInCurrent(session)) return null;
    const staff = await findStaff(staffId);
    if (!staff?.active) return null;
    return { actor: actorOf(staff), staff };
  }
  if (session.get("isAdmin") === true && env.ADMIN_PASSWORD_LOGIN && (await adminGrantValid(session.get("adminGrant")))) {
    return { actor: BUILTIN_OWNER, staff: null };
  }
  return null;
}

// One lookup per request, however many modules ask.
const visitors = new WeakMap<Request, Promise<StaffVisitor | null>>();

/** The staff member signed in on this request, or null. */
export function getStaffVisitor(request: Request): Promise<StaffVisitor | null> {
  let found = visitors.get(request);
  if (!found) {
    found = readStaffVisitor(request);
    visitors.set(request, found);
  }
  return found;
}

/** May the staff member on this request do what `permission` names? False for everyone else. */
export async function staffCan(request: Request, permission: Permission): Promise<boolean> {
  const visitor = await getStaffVisitor(request);
  return visitor !== null && can(visitor.actor.role, permission);
}

/**
 * The one staff guard. Nobody signed in: a page view (GET/HEAD) is sent to / and anything else
 * (and every admin API call, `api: true`) answers 403 'Admin access required'. Signed in without
 * `permission`: 403 with a message saying so, for pages and the API alike. A staff member who must
 * sign in with a code but has not set it up (required after they signed in) is sent to set it up
 * (a page view) or refused 403 (anything else). All are thrown as
 * Responses, so no form handler can turn them into a re-rendered page and nothing is written.
 */
export async function requireStaff(
  request: Request,
  permission: Permission | null,
  options: { api?: boolean } = {},
): Promise<StaffVisitor> {
  const visitor = await getStaffVisitor(request);
  if (!visitor) {
    if (!options.api && ["GET", "HEAD"].includes(request.method.toUpperCase())) throw redirect("/");
    throw jsonResponse({ message: ADMIN_FORBIDDEN }, { status: 403 });
  }
  if (visitor.staff && !visitor.staff.twoStepEnabled && (await twoStepRequiredFor(visitor.staff))) {
    // Two-step sign-in was required of this account after it signed in: set it up first.
    if (!options.api && ["GET", "HEAD"].includes(request.method.toUpperCase())) throw redirect(TWO_STEP_SETUP_PATH);
    throw jsonResponse({ message: TWO_STEP_SETUP_NEEDED }, { status: 403 });
  }
  if (permission !== null && !can(visitor.actor.role, permission)) {
    throw jsonResponse({ message: PERMISSION_REFUSED, permission }, { status: 403 });
  }
  return visitor;
}
