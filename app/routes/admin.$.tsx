// Any other /admin/… path: the guard first (without a staff sign-in it is sent to /, as every
// admin path is), then 'Not Found' inside the admin frame.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { adminOtherMethods } from "~/web/admin.server";
import { requireStaff } from "~/web/staff.server";
import { notFoundPage } from "~/lib/errors.server";
import type { RoutePermissions } from "~/utils/staff-permissions";

export const handle = { section: "Not Found" };

export const permissions = { loader: null, action: null } satisfies RoutePermissions;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request, permissions.loader);
  throw notFoundPage("There is no such page in the admin area.");
}

export const action = adminOtherMethods(["GET"], permissions.action);

export default function AdminNotFound() {
  return null;
}
