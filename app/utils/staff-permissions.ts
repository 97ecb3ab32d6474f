// The one permission table of the back-office (docs/decisions/0033, docs/product.md "Staff and
// roles"): what each role may do. The server's guard (web/staff.server's requireStaff) checks a
// request against it, the admin navigation shows only the sections a role may open, and the
// route walk test (tests/integration/admin-guard.test.ts) proves every admin module agrees with it.
// Shared with the browser: no secrets, only names.

export const ROLES = ["owner", "manager", "fulfilment", "support"] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<Role, string> = {
  owner: "Owner",
  manager: "Manager",
  fulfilment: "Fulfilment",
  support: "Support",
};

export const ROLE_SUMMARIES: Record<Role, string> = {
  owner: "Everything, including staff, delivery zones and the audit trail",
  manager: "Catalogue, coupons, orders, returns, refunds and reviews",
  fulfilment: "Order status and shipment details, receiving returns; reads orders",
  support: "Reads orders and customers, moderates reviews, sends failed mails again",
};

/** Each permission, with what it lets a staff member do (the staff page and docs/api.md list them). */
export const PERMISSIONS = {
  "dashboard.read": "See the dashboard's sales figures",
  "catalogue.write": "Add, edit and delete categories and products; import and export them",
  "coupons.write": "Add, edit and delete coupons",
  "orders.read": "See orders and their details",
  "orders.status": "Change an order's status",
  "orders.shipment": "Record an order's shipment details",
  "returns.receive": "Mark a returned piece received",
  "returns.decide": "Approve or reject a return",
  "refunds.manage": "Send, retry and record refunds",
  "reviews.moderate": "Publish, hide and delete reviews",
  "customers.read": "See customer accounts",
  "customers.write": "Edit and delete customer accounts",
  "mail.resend": "See the mail outbox and send failed mails again",
  "delivery.manage": "Add, edit and delete delivery zones",
  "staff.manage": "Invite staff, change roles, disable accounts, require two-step sign-in",
  "audit.read": "Read and export the audit trail",
} as const;
export type Permission = keyof typeof PERMISSIONS;

const ALL = Object.keys(PERMISSIONS) as Permission[];

export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  owner: ALL,
  manager: [
    "dashboard.read",
    "catalogue.write",
    "coupons.write",
    "orders.read",
    "orders.status",
    "orders.shipment",
    "returns.receive",
    "returns.decide",
    "refunds.manage",
    "reviews.moderate",
    "customers.read",
    "mail.resend",
  ],
  fulfilment: ["orders.read", "orders.status", "orders.shipment", "returns.receive"],
  support: ["orders.read", "customers.read", "reviews.moderate", "mail.resend"],
};

/** May a staff member with `role` do what `permission` names? */
export function can(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(permission);
}

/**
 * What an admin route module needs, declared beside its loader and action as
 * `export const permissions = { … } satisfies RoutePermissions`: a permission, null for "any
 * signed-in staff member" (their own account pages), or for an action taking several intents, one
 * per intent. The route walk test reads it and checks every role against ROLE_PERMISSIONS.
 */
export interface RoutePermissions {
  loader?: Permission | null;
  action?: Permission | null | Record<string, Permission | null>;
}

/** Roles that must sign in with a second step whatever their account says. */
export const TWO_STEP_ROLES: readonly Role[] = ["owner", "manager"];

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** The message of a refused request (403): the page and the API say the same. */
export const PERMISSION_REFUSED = "Your role does not allow this. Ask the shop's owner if you need it.";
