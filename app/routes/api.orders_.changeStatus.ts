import type { ActionFunctionArgs } from "@remix-run/node";
import { apiHandler } from "~/lib/api.server";
import { otherMethods, requireMutation } from "~/lib/api-params.server";
import { parseWith, readBody } from "~/lib/http.server";
import { changeOrderStatus } from "~/models/orders.server";
import { isAdminRequest, requireApiUser } from "~/web/auth.server";
import { OrderStatusChangeSchema } from "~/utils/schemas";

/** PUT orderId, status → `{ success: true }`; the rules are utils/order-status's (409 illegal, 403 not yours). */
export const action = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["PUT"]);
    const body = await readBody(request);
    const admin = await isAdminRequest(request);
    const user = admin ? null : await requireApiUser(request);
    const input = parseWith(OrderStatusChangeSchema, body);
    await changeOrderStatus(input.orderId, input.status, user ? { actor: "customer", userId: user.id } : { actor: "admin", userId: null });
    return { success: true };
  });
export const loader = otherMethods(["PUT"]);
