import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiHandler } from "~/lib/api.server";
import { otherMethods } from "~/lib/api-params.server";
import { requireOrderViewer } from "~/web/visitor.server";
import { AppError } from "~/lib/errors.server";
import { getOrderByParam } from "~/models/orders/read.server";

/** GET one order; 404 when it does not exist or is not the caller's. */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  apiHandler(async () => {
    const viewer = await requireOrderViewer(request);
    const order = await getOrderByParam(params.id, viewer);
    if (!order) throw new AppError(404, "Order Not Found");
    return order;
  });
export const action = otherMethods(["GET"]);
