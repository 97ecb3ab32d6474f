import type { ActionFunctionArgs } from "@remix-run/node";
import { apiHandler } from "~/lib/api.server";
import { otherMethods, requireMutation } from "~/lib/api-params.server";
import { isAdminRequest, requireApiUser } from "~/lib/auth.server";
import { parseWith, readBody } from "~/lib/http.server";
import { LIMITS, rateLimit } from "~/lib/rate-limit.server";
import { changeOrderStatus } from "~/models/orders.server";
import { OrderStatusChangeSchema } from "~/utils/schemas";

/** PUT orderId, status → `{ success: true }`; the rules are utils/order-status's (409 illegal, 403 not yours). */
export const action = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["PUT"]);
    const body = await readBody(request);
    const input = parseWith(OrderStatusChangeSchema, body);
    if (await isAdminRequest(request)) {
      await changeOrderStatus(input.orderId, input.status, { actor: "admin", userId: null });
    } else {
      const user = await requireApiUser(request);
      await rateLimit(LIMITS.orderStatus, `u:${user.id}`);
      await changeOrderStatus(input.orderId, input.status, { actor: "customer", userId: user.id });
    }
    return { success: true };
  });
export const loader = otherMethods(["PUT"]);
