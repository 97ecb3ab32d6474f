// Staff accounts as the rest of the shop reads them: the row, and who a change is made by (the
// actor the audit trail names). Writing accounts (invitations, passwords, roles, disabling) is
// models/staff/accounts.server's; two-step sign-in is models/staff/two-step.server's.
import type { Db } from "~/lib/db.server";
import { db as defaultDb } from "~/lib/db.server";
import type { Role } from "~/utils/staff-permissions";
import { ROLE_LABELS, TWO_STEP_ROLES } from "~/utils/staff-permissions";

export interface Staff {
  id: number;
  name: string;
  email: string;
  role: Role;
  active: boolean;
  twoStepRequired: boolean;
  /** two-step sign-in is set up (a confirmed TOTP secret) */
  twoStepEnabled: boolean;
  createdAt: string;
  lastSignInAt: string | null;
  disabledAt: string | null;
}

/**
 * Who makes a change: a staff member (`staffId`), the built-in owner of ADMIN_PASSWORD
 * (`staffId` null, kind "builtin") or the shop itself (a scheduled job, kind "system").
 */
export interface Actor {
  kind: "staff" | "builtin" | "system";
  staffId: number | null;
  name: string;
  role: Role;
}

/** The owner signed in with ADMIN_PASSWORD alone (the contract's POST /admin/login). */
export const BUILTIN_OWNER: Actor = { kind: "builtin", staffId: null, name: "Built-in owner", role: "owner" };

/** The shop's own jobs (housekeeping, the refund sweep): recorded as 'The shop'. */
export const SYSTEM_ACTOR: Actor = { kind: "system", staffId: null, name: "The shop", role: "owner" };

/** How the audit trail names an actor: 'Asha Rao (Manager)', 'Built-in owner', 'The shop'. */
export function actorLabel(actor: Actor): string {
  return actor.kind === "staff" ? `${actor.name} (${ROLE_LABELS[actor.role]})` : actor.name;
}

export function actorOf(staff: Staff): Actor {
  return { kind: "staff", staffId: staff.id, name: staff.name, role: staff.role };
}

type StaffRow = {
  id: number;
  name: string;
  email: string;
  role: Role;
  active: number;
  twoStepRequired: number;
  totpSecret: string | null;
  createdAt: string;
  lastSignInAt: string | null;
  disabledAt: string | null;
};

export function toStaff(row: StaffRow): Staff {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    role: row.role,
    active: row.active === 1,
    twoStepRequired: row.twoStepRequired === 1,
    twoStepEnabled: row.totpSecret !== null,
    createdAt: row.createdAt,
    lastSignInAt: row.lastSignInAt,
    disabledAt: row.disabledAt,
  };
}

/** The columns a Staff is made of (toStaff); never the password hash, which only its checks read. */
export const STAFF_COLUMNS = [
  "id",
  "name",
  "email",
  "role",
  "active",
  "twoStepRequired",
  "totpSecret",
  "createdAt",
  "lastSignInAt",
  "disabledAt",
] as const;

export async function findStaff(id: number, db: Db = defaultDb): Promise<Staff | null> {
  const row = await db.selectFrom("staff").select(STAFF_COLUMNS).where("id", "=", id).executeTakeFirst();
  return row ? toStaff(row) : null;
}

/** Email addresses are kept and compared in lower case. */
export async function findStaffByEmail(email: string, db: Db = defaultDb): Promise<Staff | null> {
  const row = await db.selectFrom("staff").select(STAFF_COLUMNS).where("email", "=", email.trim().toLowerCase()).executeTakeFirst();
  return row ? toStaff(row) : null;
}

/** The settings row that asks two-step sign-in of every staff member (the owner's choice on /admin/staff). */
export const TWO_STEP_FOR_ALL_KEY = "staff.two_step_for_all";

export async function twoStepForAll(db: Db = defaultDb): Promise<boolean> {
  const row = await db.selectFrom("settings").select("value").where("key", "=", TWO_STEP_FOR_ALL_KEY).executeTakeFirst();
  return row?.value === "1";
}

/** Must this staff member sign in with a code? Owners and managers always; others when their account or the shop asks. */
export async function twoStepRequiredFor(staff: Staff, db: Db = defaultDb): Promise<boolean> {
  return TWO_STEP_ROLES.includes(staff.role) || staff.twoStepRequired || (await twoStepForAll(db));
}
