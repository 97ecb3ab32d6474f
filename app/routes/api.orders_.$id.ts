import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiHandler } from "~/lib/api.server";
import { otherMethods } from "~/lib/api-params.server";
import { requireOrderViewer } from "~/lib/auth.server";
import { AppError } from "~/lib/errors.server";
import { getOrder } from "~/models/orders.server";
import { IdSchema } from "~/utils/schemas";

/** GET one order; 404 when it does not exist or is not the caller's. */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  apiHandler(async () => {
    const viewer = await requireOrderViewer(request);
    const id = IdSchema.safeParse(params.id);
    const order = id.success ? await getOrder(id.data, viewer) : null;
    if (!order) throw new AppError(404, "Order Not Found");
    return order;
  });
export const action = otherMethods(["GET"]);
