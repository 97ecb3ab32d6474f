import type { LoaderFunctionArgs } from "@remix-run/node";
import { adminOtherMethods, requireAdmin } from "~/web/admin.server";
import { apiHandler } from "~/lib/api.server";
import { listAllUsers } from "~/models/admin-users.server";

/** GET: every account (`User[]`, newest first), for the shop's admin only (403 otherwise). */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiHandler(async () => {
    await requireAdmin(request, { api: true });
    return listAllUsers();
  });
export const action = adminOtherMethods(["GET"]);
