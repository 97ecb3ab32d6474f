import type { LoaderFunctionArgs } from "@remix-run/node";
import { adminOtherMethods } from "~/web/admin.server";
import { requireAdmin } from "~/web/visitor.server";
import { apiHandler } from "~/lib/api.server";
import { pageParams, pagedArray } from "~/lib/api-params.server";
import { pageOfUsers } from "~/models/users/admin.server";

/** GET: one page of the accounts (`User[]`, newest first, with X-Total-Count and Link), for the shop's admin only (403 otherwise). */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiHandler(async () => {
    await requireAdmin(request, { api: true });
    const paging = pageParams(request);
    return pagedArray(request, paging, await pageOfUsers(paging));
  });
export const action = adminOtherMethods(["GET"]);
