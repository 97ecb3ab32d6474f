// Staff members for integration tests: an account of a given role, and a browser session signed in
// as it (the session row written as a real staff sign-in leaves it: staffId and staffSignedInAt).
import { db, nowIso } from "~/lib/db.server";
import { hashPassword } from "~/lib/password.server";
import { commitSession, getSession } from "~/lib/session.server";
import type { Role } from "~/utils/staff-permissions";
import { TWO_STEP_ROLES } from "~/utils/staff-permissions";
import { getRequest, mergeCookies } from "./requests";

let made = 0;

export interface TestStaff {
  id: number;
  name: string;
  email: string;
  role: Role;
  password: string;
}

/** A made-up base32 TOTP secret for accounts that must have two-step sign-in set up. */
export const TEST_TOTP_SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

/**
 * A new active staff account with a password. Two-step: as `totpSecret` says; when it is not
 * given, set up (TEST_TOTP_SECRET) for the roles that must sign in with a code (owner, manager), as
 * a signed-in account of those roles always has it, and off for the others. `null`: not set up.
 */
export async function createStaff(
  role: Role,
  options: { name?: string; email?: string; password?: string; totpSecret?: string | null; twoStepRequired?: boolean } = {},
): Promise<TestStaff> {
  made++;
  const tag = `${process.pid}-${Date.now().toString(36)}-${made}`;
  const name = options.name ?? `Test ${role} ${made}`;
  const email = (options.email ?? `staff-${role}-${tag}@example.com`).toLowerCase();
  const password = options.password ?? `Staff-pass-${tag}`;
  const row = await db
    .insertInto("staff")
    .values({
      name,
      email,
      role,
      passwordHash: await hashPassword(password),
      totpSecret: options.totpSecret === undefined ? (TWO_STEP_ROLES.includes(role) ? TEST_TOTP_SECRET : null) : options.totpSecret,
      twoStepRequired: options.twoStepRequired ? 1 : 0,
      createdAt: nowIso(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: row.id, name, email, role, password };
}

/** The Cookie header of a browser session signed in as `staff` now. */
export async function staffCookie(staff: { id: number }): Promise<string> {
  const session = await getSession(getRequest("/"));
  session.set("staffId", staff.id);
  session.set("staffSignedInAt", nowIso());
  return mergeCookies([await commitSession(session, getRequest("/"))]);
}

/** A staff member of `role` and a session signed in as them. */
export async function signedInStaff(role: Role): Promise<TestStaff & { cookie: string }> {
  const staff = await createStaff(role);
  return { ...staff, cookie: await staffCookie(staff) };
}
