import type { LoaderFunctionArgs } from "@remix-run/node";
import { adminOtherMethods } from "~/web/admin.server";
import { requireAdmin } from "~/web/visitor.server";
import { apiHandler } from "~/lib/api.server";
import { LIST_PAGE_SIZES, pagedArray, parseListQuery } from "~/lib/paging.server";
import { listAccountsPage } from "~/models/users/admin.server";

/** GET: one page of the accounts (`User[]`, newest first, with X-Total-Count and Link), for the shop's admin only (403 otherwise). */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiHandler(async () => {
    await requireAdmin(request, { api: true });
    const paging = parseListQuery(request, LIST_PAGE_SIZES);
    return pagedArray(request, paging, await listAccountsPage(paging));
  });
export const action = adminOtherMethods(["GET"]);
