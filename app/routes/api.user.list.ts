import type { LoaderFunctionArgs } from "@remix-run/node";
import { adminOtherMethods } from "~/web/admin.server";
import { requireStaff } from "~/web/staff.server";
import type { RoutePermissions } from "~/utils/staff-permissions";
import { apiHandler } from "~/lib/api.server";
import { LIST_PAGE_SIZES, pagedArray, parseListQuery } from "~/lib/paging.server";
import { listAccountsPage } from "~/models/users/admin.server";

export const permissions = { loader: "customers.read", action: "customers.read" } satisfies RoutePermissions;

/**
 * GET: one page of the accounts (`User[]`, newest first, with X-Total-Count and Link), for staff
 * who read customers only (403 otherwise).
 */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiHandler(async () => {
    await requireStaff(request, permissions.loader, { api: true });
    const paging = parseListQuery(request, LIST_PAGE_SIZES);
    return pagedArray(request, paging, await listAccountsPage(paging));
  });
export const action = adminOtherMethods(["GET"], permissions.action);
