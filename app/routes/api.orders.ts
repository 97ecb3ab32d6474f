import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiHandler } from "~/lib/api.server";
import { otherMethods, pageParams, pagedArray } from "~/lib/api-params.server";
import { requireOrderViewer } from "~/web/visitor.server";
import { pageOfOrders } from "~/models/orders/list.server";

/** GET: one page of the caller's orders, newest first (every order for the shop's admin), with X-Total-Count and Link. */
export const loader = ({ request }: LoaderFunctionArgs) =>
  apiHandler(async () => {
    const viewer = await requireOrderViewer(request);
    const paging = pageParams(request);
    return pagedArray(request, paging, await pageOfOrders(viewer, paging));
  });
export const action = otherMethods(["GET"]);
