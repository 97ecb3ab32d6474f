import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiHandler } from "~/lib/api.server";
import { otherMethods } from "~/lib/api-params.server";
import { LIST_PAGE_SIZES, pagedArray, parseListQuery } from "~/lib/paging.server";
import { requireOrderViewer } from "~/web/visitor.server";
import { listViewerOrdersPage } from "~/models/orders/list.server";

/** GET: one page of the caller's orders, newest first (every order for the shop's admin), with X-Total-Count and Link. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiHandler(async () => {
    const viewer = await requireOrderViewer(request);
    const paging = parseListQuery(request, LIST_PAGE_SIZES);
    return pagedArray(request, paging, await listViewerOrdersPage(viewer, paging));
  });
export const action = otherMethods(["GET"]);
