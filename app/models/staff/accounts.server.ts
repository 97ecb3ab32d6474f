// Staff accounts by mailed link (docs/product.md, Staff and roles): the owner invites a staff member
// (a mailed single-use link where they choose their password), and a staff member resets a
// forgotten password by mail; and the staff list. Links are 32 random bytes (base64url), stored
// only as their SHA-256 in staff_tokens. Every write records an audit row naming its actor. The
// owner's changes to an account (role, disabling, two-step) are models/staff/owner-changes.server's.
import crypto from "node:crypto";
import type { Db } from "~/lib/db.server";
import { db as defaultDb, isPostgres, isUniqueViolation, nowIso } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { hashPassword } from "~/lib/password.server";
import type { Client } from "~/lib/rate-limit.server";
import { LIMITS, rateLimitClient } from "~/lib/rate-limit.server";
import { recordAudit } from "~/models/audit.server";
import type { InviteInput } from "~/utils/staff-schemas";
import { STAFF_MESSAGES } from "~/utils/staff-fields";
import type { Role } from "~/utils/staff-permissions";
import { ROLE_LABELS, ROLES } from "~/utils/staff-permissions";
import { queueStaffInvitation, queueStaffPasswordChanged, queueStaffResetLink } from "./mail.server";
import type { Actor, Staff } from "./staff.server";
import { actorOf, findStaffByEmail, STAFF_COLUMNS, toStaff } from "./staff.server";

/** An invitation link works once, within 48 hours. */
export const INVITE_TTL_MS = 48 * 60 * 60 * 1000;
/** A password reset link works once, within an hour. */
export const STAFF_RESET_TTL_MS = 60 * 60 * 1000;

/** Where the links lead (the token in the query: the access log never writes query values). */
export const INVITE_PATH = "/admin/invite";
export const STAFF_RESET_PATH = "/admin/reset-password";

type Purpose = "invite" | "reset";

const tokenHash = (token: string) => crypto.createHash("sha256").update(token).digest("hex");

/** A link's token: 32 random bytes, base64url (43 characters). */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/**
 * A new link for `staffId`: any earlier link of the same purpose still out ends (a resent
 * invitation replaces the one before), and only the token's SHA-256 is stored.
 */
async function issueToken(trx: Db, staffId: number, purpose: Purpose, ttlMs: number): Promise<{ token: string; expiresAt: Date }> {
  const token = crypto.randomBytes(32).toString("base64url");
  const now = new Date();
  const expiresAt = new Date(now.getTime() + ttlMs);
  await trx.deleteFrom("staffTokens").where("staffId", "=", staffId).where("purpose", "=", purpose).where("usedAt", "is", null).execute();
  await trx
    .insertInto("staffTokens")
    .values({ staffId, purpose, tokenHash: tokenHash(token), createdAt: nowIso(now), expiresAt: nowIso(expiresAt), usedAt: null })
    .execute();
  return { token, expiresAt };
}

const linkOf = (origin: string, path: string, token: string) => `${origin.replace(/\/+$/, "")}${path}?token=${encodeURIComponent(token)}`;

const COLUMNS_WITH_PASSWORD = [...STAFF_COLUMNS, "passwordHash"] as const;

/** The account row, locked for the rest of the transaction on PostgreSQL. */
export async function lockedStaff(trx: Db, staffId: number) {
  const query = trx.selectFrom("staff").select(COLUMNS_WITH_PASSWORD).where("id", "=", staffId);
  const row = await (isPostgres(trx) ? query.forUpdate() : query).executeTakeFirst();
  if (!row) throw new AppError(404, STAFF_MESSAGES.notFound);
  return row;
}

/** How the audit trail's summaries name an account. */
export const who = (row: { name: string; email: string }) => `${row.name} <${row.email}>`;

// ---- Invitations -------------------------------------------------------------------------------

/**
 * Invite a staff member: an account without a password, and a mailed link (valid INVITE_TTL_MS,
 * single use) where they choose it, in one transaction. An email that is already staff is refused.
 */
export async function inviteStaff(actor: Actor, input: InviteInput, origin: string, db: Db = defaultDb): Promise<Staff> {
  const refuseTaken = () => new AppError(409, STAFF_MESSAGES.emailTaken, { fieldErrors: { email: STAFF_MESSAGES.emailTaken } });
  const email = input.email.trim().toLowerCase();
  if (await findStaffByEmail(email, db)) throw refuseTaken();
  try {
    return await db.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto("staff")
        .values({ name: input.name, email, role: input.role, passwordHash: null, createdAt: nowIso() })
        .returning(COLUMNS_WITH_PASSWORD)
        .executeTakeFirstOrThrow();
      const { token, expiresAt } = await issueToken(trx, row.id, "invite", INVITE_TTL_MS);
      await queueStaffInvitation(trx, row, linkOf(origin, INVITE_PATH, token), INVITE_TTL_MS, expiresAt);
      await recordAudit(trx, {
        action: "create",
        entity: "staff",
        entityId: row.id,
        summary: `Invited ${who(row)} as ${ROLE_LABELS[row.role]}`,
        actor,
        details: { role: [null, row.role], active: [null, true] },
      });
      return toStaff(row);
    });
  } catch (error) {
    // Two invitations of one email at once: the second meets the unique email.
    if (isUniqueViolation(error)) throw refuseTaken();
    throw error;
  }
}

/** Send an invitation again: a new link, the one before no longer works. Only for an active account without a password. */
export async function resendInvitation(actor: Actor, staffId: number, origin: string, db: Db = defaultDb): Promise<Staff> {
  return db.transaction().execute(async (trx) => {
    const row = await lockedStaff(trx, staffId);
    if (row.passwordHash !== null) throw new AppError(409, STAFF_MESSAGES.alreadyAccepted);
    if (row.active !== 1) throw new AppError(409, STAFF_MESSAGES.disabledNoInvite);
    const { token, expiresAt } = await issueToken(trx, row.id, "invite", INVITE_TTL_MS);
    await queueStaffInvitation(trx, row, linkOf(origin, INVITE_PATH, token), INVITE_TTL_MS, expiresAt);
    await recordAudit(trx, { action: "update", entity: "staff", entityId: row.id, summary: `Invitation sent again to ${who(row)}`, actor });
    return toStaff(row);
  });
}

/** What a link's token names, or why it no longer works (the message the page shows). */
type LinkState = { ok: true; tokenId: number; staff: { id: number; name: string; email: string } } | { ok: false; message: string };

async function readLink(token: string, purpose: Purpose, db: Db): Promise<LinkState> {
  const invalid = purpose === "invite" ? STAFF_MESSAGES.inviteUnknown : STAFF_MESSAGES.resetInvalid;
  if (!TOKEN_PATTERN.test(token)) return { ok: false, message: invalid };
  const row = await db
    .selectFrom("staffTokens")
    .innerJoin("staff", "staff.id", "staffTokens.staffId")
    .select([
      "staffTokens.id as tokenId",
      "staffTokens.expiresAt",
      "staffTokens.usedAt",
      "staff.id as staffId",
      "staff.name",
      "staff.email",
      "staff.active",
      "staff.passwordHash",
    ])
    .where("staffTokens.tokenHash", "=", tokenHash(token))
    .where("staffTokens.purpose", "=", purpose)
    .executeTakeFirst();
  if (!row) return { ok: false, message: invalid };
  if (purpose === "reset") {
    if (row.usedAt !== null || row.expiresAt <= nowIso() || row.active !== 1) return { ok: false, message: invalid };
  } else {
    if (row.usedAt !== null || row.passwordHash !== null) return { ok: false, message: STAFF_MESSAGES.inviteUsed };
    if (row.expiresAt <= nowIso()) return { ok: false, message: STAFF_MESSAGES.inviteExpired };
    if (row.active !== 1) return { ok: false, message: STAFF_MESSAGES.accountDisabled };
  }
  return { ok: true, tokenId: row.tokenId, staff: { id: row.staffId, name: row.name, email: row.email } };
}

/** The invitation page's GET: whom the link invites, or why it no longer works. */
export async function invitationState(token: string, db: Db = defaultDb) {
  const state = await readLink(token, "invite", db);
  return state.ok ? { ok: true as const, name: state.staff.name, email: state.staff.email } : state;
}

/** The staff reset page's GET: does the link still work? */
export async function staffResetLinkLive(token: string, db: Db = defaultDb): Promise<boolean> {
  return (await readLink(token, "reset", db)).ok;
}

/**
 * Set a password through a link (an invitation or a reset): the link is checked first (a dead one
 * costs nothing and writes nothing), a live one is rate-limited before the costly hash, and then
 * the token is used up and the password set in one transaction, the token claimed only while still
 * unused (two posts of one link: one wins, the other is refused).
 */
async function setPasswordByLink(
  token: string,
  purpose: Purpose,
  password: string,
  client: Client,
  db: Db,
  andThen: (trx: Db, staff: { id: number; name: string; email: string }) => Promise<void>,
): Promise<void> {
  const link = await readLink(token, purpose, db);
  if (!link.ok) throw new AppError(400, link.message);
  await rateLimitClient(LIMITS.staffLinkSubmit, client, `staff-link:${link.tokenId}`);
  const passwordHash = await hashPassword(password, client.ip);
  await db.transaction().execute(async (trx) => {
    const again = await readLink(token, purpose, trx);
    if (!again.ok) throw new AppError(400, again.message);
    const claimed = await trx
      .updateTable("staffTokens")
      .set({ usedAt: nowIso() })
      .where("id", "=", again.tokenId)
      .where("usedAt", "is", null)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) {
      throw new AppError(400, purpose === "invite" ? STAFF_MESSAGES.inviteUsed : STAFF_MESSAGES.resetInvalid);
    }
    const set = trx.updateTable("staff").set({ passwordHash }).where("id", "=", again.staff.id).where("active", "=", 1);
    // An invitation sets the first password only (a reset link is the way to change it).
    const updated = await (purpose === "invite" ? set.where("passwordHash", "is", null) : set).executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) {
      throw new AppError(400, purpose === "invite" ? STAFF_MESSAGES.inviteUsed : STAFF_MESSAGES.resetInvalid);
    }
    await andThen(trx, again.staff);
  });
}

/**
 * Accept an invitation: the link valid, unused, not expired and the account active; sets the
 * password (the customers' rules, checked by the form's schema) and uses the link up, in one
 * transaction. The person then signs in as any staff member does.
 */
export async function acceptInvitation(token: string, password: string, client: Client, db: Db = defaultDb): Promise<void> {
  await setPasswordByLink(token, "invite", password, client, db, async (trx, staff) => {
    const actor = actorOf(toStaff(await lockedStaff(trx, staff.id)));
    await recordAudit(trx, {
      action: "update",
      entity: "staff",
      entityId: staff.id,
      summary: `${who(staff)} accepted the invitation and set a password`,
      actor,
    });
  });
}

// ---- Password reset by mail ----------------------------------------------------------------------

/**
 * Mail a reset link (valid STAFF_RESET_TTL_MS, single use) when the email is an active staff
 * account's. The answer is the same either way, and as fast (the mail goes out in the
 * background); limited per email and per address like the customers' forgot-password.
 * `origin` comes from configuration, never from the request.
 */
export async function requestStaffPasswordReset(email: string, origin: string, client: Client, db: Db = defaultDb): Promise<void> {
  const address = email.trim().toLowerCase();
  await rateLimitClient(LIMITS.staffPasswordReset, client, address);
  const staff = await findStaffByEmail(address, db);
  if (!staff || !staff.active) return;
  await db.transaction().execute(async (trx) => {
    const row = await lockedStaff(trx, staff.id);
    if (row.active !== 1) return;
    const { token, expiresAt } = await issueToken(trx, row.id, "reset", STAFF_RESET_TTL_MS);
    await queueStaffResetLink(trx, row, linkOf(origin, STAFF_RESET_PATH, token), STAFF_RESET_TTL_MS, expiresAt);
  });
}

/** Set a new password with a reset link: the link is used up and every session of the account ends. */
export async function resetStaffPassword(token: string, password: string, client: Client, db: Db = defaultDb): Promise<void> {
  await setPasswordByLink(token, "reset", password, client, db, async (trx, staff) => {
    await trx.deleteFrom("sessions").where("staffId", "=", staff.id).execute();
    // Any other reset link still out ends too: the password is set.
    await trx
      .deleteFrom("staffTokens")
      .where("staffId", "=", staff.id)
      .where("purpose", "=", "reset")
      .where("usedAt", "is", null)
      .execute();
    await queueStaffPasswordChanged(trx, staff);
    const actor = actorOf(toStaff(await lockedStaff(trx, staff.id)));
    await recordAudit(trx, {
      action: "update",
      entity: "staff",
      entityId: staff.id,
      summary: `${who(staff)} reset the password by mail; every session of the account ended`,
      actor,
    });
  });
}

// ---- The list ------------------------------------------------------------------------------------

export type InvitationState = "accepted" | "pending" | "expired";

export interface StaffListRow extends Staff {
  /** accepted: a password is set; pending: the invitation link still works; expired: it no longer does */
  invitation: InvitationState;
  invitationExpiresAt: string | null;
}

/** Every staff account, owners first, then by name, with where its invitation stands. */
export async function listStaff(db: Db = defaultDb): Promise<StaffListRow[]> {
  const rows = await db.selectFrom("staff").select(COLUMNS_WITH_PASSWORD).execute();
  const pending = rows.filter((r) => r.passwordHash === null).map((r) => r.id);
  const invites = pending.length
    ? await db
        .selectFrom("staffTokens")
        .select(["staffId", "expiresAt"])
        .where("purpose", "=", "invite")
        .where("usedAt", "is", null)
        .where("staffId", "in", pending)
        .execute()
    : [];
  const latest = new Map<number, string>();
  for (const t of invites) if ((latest.get(t.staffId) ?? "") < t.expiresAt) latest.set(t.staffId, t.expiresAt);
  const now = nowIso();
  const order = (role: Role) => ROLES.indexOf(role);
  return rows
    .map((row) => {
      const expiresAt = latest.get(row.id) ?? null;
      const invitation: InvitationState = row.passwordHash !== null ? "accepted" : expiresAt && expiresAt > now ? "pending" : "expired";
      return { ...toStaff(row), invitation, invitationExpiresAt: row.passwordHash === null ? expiresAt : null };
    })
    .sort((a, b) => order(a.role) - order(b.role) || a.name.localeCompare(b.name) || a.id - b.id);
}
