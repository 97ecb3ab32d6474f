// The admin audit log: every change made from /admin (create, edit, delete, status change,
// import) with its time, action, entity, a one-line summary, who made it (a staff member, the
// built-in owner, or the shop's own jobs) and, for prices, stock, status, coupons, zones and
// roles, the fields' values before and after. Written inside the change's own transaction, so a
// change and its record stand or fall together.
import type { Db } from "~/lib/db.server";
import { db as defaultDb, nowIso } from "~/lib/db.server";
import type { Actor } from "./staff/staff.server";
import { actorLabel } from "./staff/staff.server";

export type AuditAction = "create" | "update" | "delete" | "status" | "import" | "sign_in";
export type AuditEntity =
  "category" | "product" | "user" | "order" | "return" | "refund" | "coupon" | "review" | "delivery_zone" | "mail" | "staff";

export interface AuditEntry {
  id: number;
  action: AuditAction;
  entity: AuditEntity;
  entityId: string | null;
  summary: string;
  createdAt: string;
  staffId: number | null;
  actor: string | null;
  details: string | null;
}

/** What a change did to the fields it recorded: { price: [4999, 5499] }. */
export type AuditDetails = Record<string, readonly [unknown, unknown]>;

export async function recordAudit(
  db: Db,
  entry: {
    action: AuditAction;
    entity: AuditEntity;
    entityId?: number | string | null;
    summary: string;
    actor: Actor;
    details?: AuditDetails;
  },
): Promise<void> {
  await db
    .insertInto("auditLog")
    .values({
      action: entry.action,
      entity: entry.entity,
      entityId: entry.entityId === undefined || entry.entityId === null ? null : String(entry.entityId),
      summary: entry.summary.slice(0, 500),
      createdAt: nowIso(),
      staffId: entry.actor.staffId,
      actor: actorLabel(entry.actor),
      details: entry.details && Object.keys(entry.details).length ? JSON.stringify(entry.details) : null,
    })
    .execute();
}

export async function latestAudit(limit = 10, db: Db = defaultDb): Promise<AuditEntry[]> {
  const rows = await db.selectFrom("auditLog").selectAll().orderBy("id", "desc").limit(limit).execute();
  return rows as AuditEntry[];
}

/** ": title, price changed" — which of `fields` differ between two versions of a row. */
export function changed<T extends object>(before: T, after: T, fields: (keyof T & string)[]): string {
  const diff = fields.filter((f) => before[f] !== after[f]);
  return diff.length ? `: ${diff.join(", ")} changed` : ": nothing changed";
}

/** The `details` of a change: each of `fields` whose value differs, as [before, after]. */
export function diffDetails<T extends object>(before: T, after: T, fields: readonly (keyof T & string)[]): AuditDetails {
  const out: Record<string, readonly [unknown, unknown]> = {};
  for (const f of fields) if (before[f] !== after[f]) out[f] = [before[f] ?? null, after[f] ?? null];
  return out;
}

/** The `details` of a new row (every field from nothing) or a deleted one (every field to nothing). */
export function rowDetails<T extends object>(row: T, fields: readonly (keyof T & string)[], gone = false): AuditDetails {
  return Object.fromEntries(fields.map((f) => [f, gone ? [row[f] ?? null, null] : [null, row[f] ?? null]] as const));
}
