// The back-office's sections, in the sidebar's order, each with the permission that opens it: the
// sidebar shows a role only the sections it may open, the dashboard sends a role without its
// figures to the first of them, and a refused page links back to one. Shared with the browser.
import type { Permission, Role } from "./staff-permissions";
import { can } from "./staff-permissions";

export interface AdminSection {
  to: string;
  label: string;
  permission: Permission;
}

export const ADMIN_SECTIONS: readonly AdminSection[] = [
  { to: "/admin", label: "Dashboard", permission: "dashboard.read" },
  { to: "/admin/categories", label: "Categories", permission: "catalogue.write" },
  { to: "/admin/products", label: "Products", permission: "catalogue.write" },
  { to: "/admin/users", label: "Users", permission: "customers.read" },
  { to: "/admin/orders", label: "Orders", permission: "orders.read" },
  { to: "/admin/returns", label: "Returns", permission: "orders.read" },
  { to: "/admin/refunds", label: "Refunds", permission: "refunds.manage" },
  { to: "/admin/reviews", label: "Reviews", permission: "reviews.moderate" },
  { to: "/admin/coupons", label: "Coupons", permission: "coupons.write" },
  { to: "/admin/delivery", label: "Delivery", permission: "delivery.manage" },
  { to: "/admin/mail", label: "Mail", permission: "mail.resend" },
  { to: "/admin/staff", label: "Staff", permission: "staff.manage" },
  { to: "/admin/audit", label: "Audit trail", permission: "audit.read" },
];

/** The staff member's own account: open to every role. */
export const ACCOUNT_PATH = "/admin/account";

/** The sections a staff member with `permissions` may open, in the sidebar's order (the sidebar draws these). */
export function sectionsWith(permissions: readonly Permission[]): AdminSection[] {
  return ADMIN_SECTIONS.filter((s) => permissions.includes(s.permission));
}

/** The sections a role may open, in the sidebar's order. */
export function sectionsFor(role: Role): AdminSection[] {
  return ADMIN_SECTIONS.filter((s) => can(role, s.permission));
}

/** Where a role starts: its first section (every role reads orders or more; the own account otherwise). */
export function homeFor(role: Role): string {
  return sectionsFor(role)[0]?.to ?? ACCOUNT_PATH;
}
