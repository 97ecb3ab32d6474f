// The audit trail as the owners read it (/admin/audit, its CSV export, an order's own history):
// rows newest first, filtered by who made the change, what it was made to and when. Reading only:
// the app writes the log through models/audit.server's recordAudit and never edits or deletes it.
//
// Each filter reads an index in the list's order, so a page sorts nothing (tests/integration/
// query-plans.test.ts proves it): a person is audit_log_staff_idx (staff_id, id) — the built-in
// owner and the shop, both without a staff account, are its staff_id null rows, told apart by
// their `actor` label —, one object audit_log_entity_idx (entity, entity_id, id), a kind of object
// audit_log_entity_id_order_idx (entity, id). Newest first is by id (the order rows were written
// in), except for a range of days alone: by time, then id, the order of audit_log_created_at_id_idx.
import { z } from "zod";
import type { Db } from "~/lib/db.server";
import { db as defaultDb, toCount } from "~/lib/db.server";
import type { ListPage, RowWindow } from "~/lib/paging.server";
import type { AuditEntity, AuditEntry } from "~/models/audit.server";
import { actorLabel, BUILTIN_OWNER, SYSTEM_ACTOR } from "~/models/staff/staff.server";
import { AdminListQuerySchema, startOfIndianDay } from "~/utils/admin-schemas";
import { addDays } from "~/utils/chart-format";
import { ROLE_LABELS } from "~/utils/staff-permissions";

/** Every kind of object the log names, as the filter lists them. */
export const AUDIT_OBJECTS: Record<AuditEntity, string> = {
  order: "Orders",
  return: "Returns",
  refund: "Refunds",
  product: "Products",
  category: "Categories",
  coupon: "Coupons",
  review: "Reviews",
  user: "Customers",
  delivery_zone: "Delivery zones",
  mail: "Mails",
  staff: "Staff",
};

const ENTITIES = Object.keys(AUDIT_OBJECTS) as [AuditEntity, ...AuditEntity[]];

/** The two actors without a staff account, as the person filter names them (?person=builtin / system). */
const NON_STAFF = { builtin: actorLabel(BUILTIN_OWNER), system: actorLabel(SYSTEM_ACTOR) } as const;

/** Who made a change: a staff account's id, or one of the two actors without an account. */
export type AuditPerson = { staffId: number } | { nonStaff: keyof typeof NON_STAFF } | null;

export interface AuditFilters {
  person: AuditPerson;
  entity: AuditEntity | null;
  /** one object of that kind (an order's number, a product's id); only with `entity` */
  entityId: string | null;
  /** from this day (YYYY-MM-DD, India's calendar, inclusive), or "" */
  from: string;
  /** to this day (inclusive), or "" */
  to: string;
}

export const NO_AUDIT_FILTERS: AuditFilters = { person: null, entity: null, entityId: null, from: "", to: "" };

/** The person filter's value in the URL: a staff account's id, "builtin" or "system". */
export function personParam(person: AuditPerson): string {
  if (person === null) return "";
  return "staffId" in person ? String(person.staffId) : person.nonStaff;
}

const PersonSchema = z
  .string()
  .trim()
  .transform((v): AuditPerson => {
    if (v === "builtin" || v === "system") return { nonStaff: v };
    return /^[1-9]\d{0,9}$/.test(v) && Number(v) <= 2_147_483_647 ? { staffId: Number(v) } : null;
  })
  .catch(null);

/** The audit page's filters in the URL (?person=&entity=&entityId=&from=&to=); anything odd means no filter. */
const AuditQuerySchema = z.object({
  person: PersonSchema,
  entity: z.enum(ENTITIES).nullable().catch(null),
  entityId: z
    .string()
    .trim()
    .max(40)
    .transform((v) => v || null)
    .catch(null),
  from: AdminListQuerySchema.shape.from,
  to: AdminListQuerySchema.shape.to,
});

export function parseAuditFilters(url: URL): AuditFilters {
  const p = url.searchParams;
  const parsed = AuditQuerySchema.parse({
    person: p.get("person") ?? "",
    entity: p.get("entity") || null,
    entityId: p.get("entityId") ?? "",
    from: p.get("from") ?? "",
    to: p.get("to") ?? "",
  });
  // An object's id means nothing without its kind.
  return { ...parsed, entityId: parsed.entity ? parsed.entityId : null };
}

function filtered(db: Db, f: AuditFilters) {
  let q = db.selectFrom("auditLog");
  if (f.person && "staffId" in f.person) q = q.where("staffId", "=", f.person.staffId);
  else if (f.person) q = q.where("staffId", "is", null).where("actor", "=", NON_STAFF[f.person.nonStaff]);
  if (f.entity) {
    q = q.where("entity", "=", f.entity);
    if (f.entityId) q = q.where("entityId", "=", f.entityId);
  }
  if (f.from) q = q.where("createdAt", ">=", startOfIndianDay(f.from));
  if (f.to) q = q.where("createdAt", "<", startOfIndianDay(addDays(f.to, 1)));
  return q;
}

/** Days are the only filter: the list is read from (created_at, id), newest first by time. */
const byTime = (f: AuditFilters) => (f.from !== "" || f.to !== "") && f.person === null && f.entity === null;

function newestFirst(db: Db, f: AuditFilters) {
  const q = filtered(db, f).selectAll();
  return byTime(f) ? q.orderBy("createdAt", "desc").orderBy("id", "desc") : q.orderBy("id", "desc");
}

/** One page of the audit trail, newest first, and how many rows the filters match. */
export async function listAuditPage(filters: AuditFilters, window: RowWindow, db: Db = defaultDb): Promise<ListPage<AuditEntry>> {
  const [rows, count] = await Promise.all([
    newestFirst(db, filters).limit(window.limit).offset(window.offset).execute(),
    filtered(db, filters)
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows: rows as AuditEntry[], total: toCount(count.n as number) };
}

/** Rows read at a time by the CSV export. */
export const AUDIT_BATCH = 500;

/**
 * Every row the filters match, in the page's order, read `batch` rows at a time: each batch starts
 * after the last row read (its id, or its time and id), so a large log is never held in memory at
 * once and a deep batch costs no more than the first.
 */
export async function* auditBatches(filters: AuditFilters, batch = AUDIT_BATCH, db: Db = defaultDb): AsyncGenerator<AuditEntry[]> {
  let last: AuditEntry | null = null;
  for (;;) {
    let q = newestFirst(db, filters);
    if (last !== null) {
      const after: AuditEntry = last;
      q = byTime(filters)
        ? q.where((eb) => eb(eb.refTuple("createdAt", "id"), "<", eb.tuple(after.createdAt, after.id)))
        : q.where("id", "<", after.id);
    }
    const rows = (await q.limit(batch).execute()) as AuditEntry[];
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < batch) return;
    last = rows[rows.length - 1]!;
  }
}

/** Whom the person filter offers: every staff account (active or not), then the two actors without one. */
export async function auditPeople(db: Db = defaultDb): Promise<{ value: string; label: string }[]> {
  const staff = await db.selectFrom("staff").select(["id", "name", "role", "active"]).orderBy("name").orderBy("id").execute();
  return [
    ...staff.map((s) => ({
      value: String(s.id),
      label: `${s.name} (${ROLE_LABELS[s.role]}${s.active === 1 ? "" : ", disabled"})`,
    })),
    ...Object.entries(NON_STAFF).map(([value, label]) => ({ value, label })),
  ];
}

/**
 * An order's own history: the log's rows about the order itself, its returns and its refunds,
 * oldest first (each read from audit_log_entity_idx by its object's id).
 */
export async function orderHistory(orderId: number, db: Db = defaultDb): Promise<AuditEntry[]> {
  const [returns, refunds] = await Promise.all([
    db.selectFrom("returnRequests").select("id").where("orderId", "=", orderId).execute(),
    db.selectFrom("refunds").select("id").where("orderId", "=", orderId).execute(),
  ]);
  const objects: [AuditEntity, string[]][] = [
    ["order", [String(orderId)]],
    ["return", returns.map((r) => String(r.id))],
    ["refund", refunds.map((r) => String(r.id))],
  ];
  const rows = await db
    .selectFrom("auditLog")
    .selectAll()
    .where((eb) =>
      eb.or(
        objects.filter(([, ids]) => ids.length > 0).map(([entity, ids]) => eb.and([eb("entity", "=", entity), eb("entityId", "in", ids)])),
      ),
    )
    .orderBy("id", "asc")
    .execute();
  return rows as AuditEntry[];
}
