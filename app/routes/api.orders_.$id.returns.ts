import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiHandler, jsonResponse } from "~/lib/api.server";
import { requireMutation } from "~/lib/api-params.server";
import { AppError } from "~/lib/errors.server";
import { parseWith, readBody } from "~/lib/http.server";
import { getOrderByParam } from "~/models/orders/read.server";
import { requestReturn } from "~/models/returns/request.server";
import { returnableFor, returnsForOrder } from "~/models/returns/read.server";
import { requireApiUser, requireOrderViewer } from "~/web/visitor.server";
import { ReturnRequestSchema } from "~/utils/return-schemas";

/**
 * GET: the order's returns and what its customer may still return (`returnable`: the window's
 * end and the units left per line); 404 when the order is not the caller's (the shop sees all).
 */
export const loader = ({ request, params }: LoaderFunctionArgs) =>
  apiHandler(async () => {
    const viewer = await requireOrderViewer(request);
    const order = await getOrderByParam(params.id, viewer);
    if (!order) throw new AppError(404, "Order Not Found");
    const [returns, returnable] = await Promise.all([returnsForOrder(order.id), returnableFor(order)]);
    return { returns, returnable };
  });

/**
 * POST `{ reason, details, lines: [{ orderItemId, quantity }] }` by the order's customer: 201 with
 * the return (docs/api.md, Returns). The rules are models/returns/'s: 404 not yours, 409 not
 * delivered, past the 48-hour window or more units than are left, 400 bad input.
 */
export const action = ({ request, params }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["POST"]);
    const body = await readBody(request);
    const user = await requireApiUser(request);
    const order = await getOrderByParam(params.id, { userId: user.id, isAdmin: false });
    if (!order) throw new AppError(404, "Order Not Found");
    const created = await requestReturn(user.id, order.id, parseWith(ReturnRequestSchema, body));
    return jsonResponse(created, { status: 201 });
  });
