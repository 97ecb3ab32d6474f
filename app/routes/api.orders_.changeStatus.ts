import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiHandler } from "~/lib/api.server";
import { otherMethods, requireMutation } from "~/lib/api-params.server";
import { parseWith, readBody } from "~/lib/http.server";
import { parseStaffBody } from "~/web/admin.server";
import { changeOrderStatus } from "~/models/orders/status.server";
import { isAdminRequest, requireApiUser } from "~/web/visitor.server";
import { OrderStatusChangeSchema } from "~/utils/schemas";
import { ShipmentSchema } from "~/utils/shipment";

/** The shop's API may confirm shipping an order paid on the test gateway (docs/api.md). */
const AdminStatusChangeSchema = OrderStatusChangeSchema.extend({ shipUnpaid: z.boolean().optional(), ...ShipmentSchema.shape });

/**
 * PUT orderId, status → `{ success: true }`; the rules are utils/order-status's (409 illegal, 403
 * not yours). The shop may add `shipUnpaid: true` to ship an order paid on the test gateway, and
 * `carrier` and `trackingNumber` when it ships one.
 */
export const action = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["PUT"]);
    const body = await readBody(request);
    const admin = await isAdminRequest(request);
    const user = admin ? null : await requireApiUser(request);
    if (user) {
      const input = parseWith(OrderStatusChangeSchema, body);
      await changeOrderStatus(input.orderId, input.status, { actor: "customer", userId: user.id });
    } else {
      const input = parseStaffBody(AdminStatusChangeSchema, body);
      const shipment = { carrier: input.carrier, trackingNumber: input.trackingNumber };
      await changeOrderStatus(input.orderId, input.status, { actor: "admin", userId: null, shipUnpaid: input.shipUnpaid, shipment });
    }
    return { success: true };
  });
export const loader = otherMethods(["PUT"]);
