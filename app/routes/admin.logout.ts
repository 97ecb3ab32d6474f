// The admin Logout button: a POST that ends the staff sign-in (a signed-in customer stays
// signed in) and goes to / (docs/product.md).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { adminForm } from "~/web/admin.server";
import { requireStaff } from "~/web/staff.server";
import { revokeAdmin } from "~/web/sign-in.server";
import { apiHandler } from "~/lib/api.server";
import type { RoutePermissions } from "~/utils/staff-permissions";

/** Any staff member signs themselves out. */
export const permissions = { loader: null, action: null } satisfies RoutePermissions;

export const action = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    await adminForm([], permissions.action)(request);
    return redirect("/", { status: 303, headers: { "Set-Cookie": await revokeAdmin(request) } });
  });

export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request, permissions.loader);
  return redirect("/");
}
