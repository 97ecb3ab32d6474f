// How the audit trail reads to a person, on /admin/audit, in its CSV export and in an order's own
// history: the action's name, who made the change, what the change did to each field
// (`details`, JSON of { field: [before, after] }) and where the object it was made to can be seen.
// Shared with the browser: no server imports.

export const AUDIT_ACTION_LABELS: Record<string, string> = {
  create: "Created",
  update: "Updated",
  delete: "Deleted",
  status: "Status changed",
  import: "Imported",
  sign_in: "Signed in",
};

export const auditActionLabel = (action: string) => AUDIT_ACTION_LABELS[action] ?? action;

/** Rows written before the log named its actor (migration 0030) say so. */
export const UNKNOWN_ACTOR = "Not recorded";

export const auditActorText = (actor: string | null) => actor ?? UNKNOWN_ACTOR;

export interface AuditChange {
  field: string;
  before: string;
  after: string;
}

/** A recorded value as text: nothing is "(none)", a string as it is, anything else as JSON. */
function valueText(value: unknown): string {
  if (value === null || value === undefined || value === "") return "(none)";
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** What a change did, field by field, from its `details`; none when it recorded no details (or they cannot be read). */
export function auditChanges(details: string | null): AuditChange[] {
  if (!details) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(details);
  } catch {
    return [];
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return [];
  return Object.entries(parsed as Record<string, unknown>).flatMap(([field, pair]) =>
    Array.isArray(pair) && pair.length === 2 ? [{ field, before: valueText(pair[0]), after: valueText(pair[1]) }] : [],
  );
}

/** 'price: 4999 → 5499; stock: 3 → 4' */
export const auditChangesText = (details: string | null) =>
  auditChanges(details)
    .map((c) => `${c.field}: ${c.before} → ${c.after}`)
    .join("; ");

/** 'Order #12', 'Product 40', 'Delivery zone 3' */
export function auditObjectText(entity: string, entityId: string | null): string {
  const name = entity === "delivery_zone" ? "Delivery zone" : entity === "user" ? "Customer" : entity[0]!.toUpperCase() + entity.slice(1);
  if (entityId === null) return name;
  return entity === "order" ? `${name} #${entityId}` : `${name} ${entityId}`;
}

/**
 * Where the object a row names can be seen in the back-office, if anywhere: an order's page, or
 * the list page's edit dialog of a product, category, coupon, delivery zone or customer. Nothing
 * for an object the row deleted.
 */
export function auditObjectHref(entity: string, entityId: string | null, action: string): string | null {
  if (entityId === null || action === "delete" || !/^\d+$/.test(entityId)) return null;
  const id = encodeURIComponent(entityId);
  switch (entity) {
    case "order":
      return `/admin/orders/${id}`;
    case "product":
      return `/admin/products?edit=${id}`;
    case "category":
      return `/admin/categories?edit=${id}`;
    case "coupon":
      return `/admin/coupons?edit=${id}`;
    case "delivery_zone":
      return `/admin/delivery?edit=${id}`;
    case "user":
      return `/admin/users?edit=${id}`;
    default:
      return null;
  }
}
