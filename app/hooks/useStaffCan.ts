// May the staff member signed in to the admin frame do what a permission names? The frame's loader
// (routes/admin) lists their permissions, so a page shows only the forms their role may use. The
// server checks every request again (web/staff.server's requireStaff): this only hides buttons.
import { useRouteLoaderData } from "@remix-run/react";
import type { Permission } from "~/utils/staff-permissions";

export function useStaffCan(permission: Permission): boolean {
  const frame = useRouteLoaderData("routes/admin") as { staff?: { permissions?: readonly string[] } } | undefined;
  return frame?.staff?.permissions?.includes(permission) ?? false;
}
