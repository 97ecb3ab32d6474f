// The owner's changes to staff accounts (docs/product.md, Staff and roles): roles, disabling and
// enabling, asking for two-step sign-in (of one account or of all) and resetting a lost one. Every
// write records an audit row naming its actor, with before/after details. The shop always keeps an
// active owner: disabling or demoting the last one is refused inside the write's transaction, with
// the active owners' rows locked (FOR UPDATE on PostgreSQL; SQLite has one writer), so two requests
// at once cannot each remove one of the last two. Invitations and password links are
// models/staff/accounts.server's.
import type { Db } from "~/lib/db.server";
import { db as defaultDb, isPostgres, nowIso } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import type { AuditDetails } from "~/models/audit.server";
import { recordAudit } from "~/models/audit.server";
import { STAFF_MESSAGES } from "~/utils/staff-fields";
import type { Role } from "~/utils/staff-permissions";
import { ROLE_LABELS, ROLES } from "~/utils/staff-permissions";
import { lockedStaff, who } from "./accounts.server";
import type { Actor, Staff } from "./staff.server";
import { toStaff, TWO_STEP_FOR_ALL_KEY, twoStepForAll } from "./staff.server";

/**
 * The active owners' ids, their rows locked (PostgreSQL: a second transaction waits here and then
 * sees the first one's change; SQLite: the transaction is the only writer).
 */
async function lockActiveOwners(trx: Db): Promise<number[]> {
  const query = trx.selectFrom("staff").select("id").where("role", "=", "owner").where("active", "=", 1).orderBy("id");
  return (await (isPostgres(trx) ? query.forUpdate() : query).execute()).map((r) => r.id);
}

/** Refuses a change that would leave the shop without an active owner (`staffId` stops being one). */
async function keepAnOwner(trx: Db, staffId: number): Promise<void> {
  const owners = await lockActiveOwners(trx);
  if (owners.includes(staffId) && owners.length <= 1) throw new AppError(409, STAFF_MESSAGES.lastOwner);
}

/**
 * Change a staff member's role. Demoting the last active owner is refused. A privilege change ends
 * every session of the account in the same transaction: they sign in again, into a fresh session,
 * under the new role (and set up two-step sign-in first when the new role asks for it).
 */
export async function changeRole(actor: Actor, staffId: number, role: Role, db: Db = defaultDb): Promise<Staff> {
  if (!ROLES.includes(role)) throw new AppError(400, "Choose a role");
  return db.transaction().execute(async (trx) => {
    if (role !== "owner") await keepAnOwner(trx, staffId);
    const before = await lockedStaff(trx, staffId);
    if (before.role === role) return toStaff(before);
    await trx.updateTable("staff").set({ role }).where("id", "=", staffId).execute();
    await trx.deleteFrom("sessions").where("staffId", "=", staffId).execute();
    await recordAudit(trx, {
      action: "update",
      entity: "staff",
      entityId: staffId,
      summary: `${who(before)}: role ${ROLE_LABELS[before.role]} → ${ROLE_LABELS[role]}; every session of the account ended`,
      actor,
      details: { role: [before.role, role] },
    });
    return toStaff({ ...before, role });
  });
}

/**
 * Disable an account: it can no longer sign in, and every session of it is deleted in the same
 * transaction, so every server refuses it at its next request (requests read the account's row
 * and session). Disabling the last active owner is refused.
 */
export async function disableStaff(actor: Actor, staffId: number, db: Db = defaultDb): Promise<Staff> {
  return db.transaction().execute(async (trx) => {
    await keepAnOwner(trx, staffId);
    const before = await lockedStaff(trx, staffId);
    if (before.active !== 1) return toStaff(before);
    const disabledAt = nowIso();
    await trx.updateTable("staff").set({ active: 0, disabledAt }).where("id", "=", staffId).execute();
    await trx.deleteFrom("sessions").where("staffId", "=", staffId).execute();
    await recordAudit(trx, {
      action: "update",
      entity: "staff",
      entityId: staffId,
      summary: `Disabled ${who(before)}; every session of the account ended`,
      actor,
      details: { active: [true, false] },
    });
    return toStaff({ ...before, active: 0, disabledAt });
  });
}

export async function enableStaff(actor: Actor, staffId: number, db: Db = defaultDb): Promise<Staff> {
  return db.transaction().execute(async (trx) => {
    const before = await lockedStaff(trx, staffId);
    if (before.active === 1) return toStaff(before);
    await trx.updateTable("staff").set({ active: 1, disabledAt: null }).where("id", "=", staffId).execute();
    await recordAudit(trx, {
      action: "update",
      entity: "staff",
      entityId: staffId,
      summary: `Enabled ${who(before)}`,
      actor,
      details: { active: [false, true] },
    });
    return toStaff({ ...before, active: 1, disabledAt: null });
  });
}

/** Ask (or stop asking) this account for two-step sign-in. Owners and managers need it whatever this says. */
export async function setTwoStepRequired(actor: Actor, staffId: number, on: boolean, db: Db = defaultDb): Promise<Staff> {
  return db.transaction().execute(async (trx) => {
    const before = await lockedStaff(trx, staffId);
    const value = on ? 1 : 0;
    if (before.twoStepRequired === value) return toStaff(before);
    await trx.updateTable("staff").set({ twoStepRequired: value }).where("id", "=", staffId).execute();
    await recordAudit(trx, {
      action: "update",
      entity: "staff",
      entityId: staffId,
      summary: `${who(before)}: two-step sign-in ${on ? "required" : "no longer required"}`,
      actor,
      details: { twoStepRequired: [before.twoStepRequired === 1, on] },
    });
    return toStaff({ ...before, twoStepRequired: value });
  });
}

/**
 * For a staff member who lost their phone and recovery codes: their two-step sign-in is undone
 * (the secret, the last step and the recovery codes go) and every session of the account ends, in
 * one transaction. Where the role or the shop asks for a code, their next sign-in sets it up again.
 * An owner cannot reset their own (they still have it, or another owner does it for them).
 */
export async function resetTwoStep(actor: Actor, staffId: number, db: Db = defaultDb): Promise<Staff> {
  if (actor.staffId === staffId) throw new AppError(403, STAFF_MESSAGES.resetOwnTwoStep);
  return db.transaction().execute(async (trx) => {
    const before = await lockedStaff(trx, staffId);
    if (before.totpSecret === null) return toStaff(before);
    await trx.updateTable("staff").set({ totpSecret: null, totpLastStep: null }).where("id", "=", staffId).execute();
    await trx.deleteFrom("staffRecoveryCodes").where("staffId", "=", staffId).execute();
    await trx.deleteFrom("sessions").where("staffId", "=", staffId).execute();
    await recordAudit(trx, {
      action: "update",
      entity: "staff",
      entityId: staffId,
      summary: `${who(before)}: two-step sign-in reset; every session of the account ended`,
      actor,
      details: { twoStepEnabled: [true, false] },
    });
    return toStaff({ ...before, totpSecret: null });
  });
}

/** The shop-wide switch: every staff member must sign in with a code. */
export async function setTwoStepForAll(actor: Actor, on: boolean, db: Db = defaultDb): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const before = await twoStepForAll(trx);
    if (before === on) return;
    const now = nowIso();
    await trx
      .insertInto("settings")
      .values({ key: TWO_STEP_FOR_ALL_KEY, value: on ? "1" : "0", updatedAt: now })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value: on ? "1" : "0", updatedAt: now }))
      .execute();
    const details: AuditDetails = { twoStepForAll: [before, on] };
    await recordAudit(trx, {
      action: "update",
      entity: "staff",
      entityId: null,
      summary: on ? "Two-step sign-in required for all staff" : "Two-step sign-in no longer required for all staff",
      actor,
      details,
    });
  });
}
