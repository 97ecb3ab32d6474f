import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiHandler } from "~/lib/api.server";
import { otherMethods, requireMutation } from "~/lib/api-params.server";
import { parseWith, readBody } from "~/lib/http.server";
import { parseStaffBody } from "~/web/admin.server";
import { changeOrderStatus } from "~/models/orders/status.server";
import { getStaffVisitor, requireStaff } from "~/web/staff.server";
import { getUserId, requireApiUser } from "~/web/visitor.server";
import type { RoutePermissions } from "~/utils/staff-permissions";
import { can } from "~/utils/staff-permissions";
import { OrderStatusChangeSchema } from "~/utils/schemas";
import { ShipmentSchema } from "~/utils/shipment";

/** The shop's API may confirm shipping an order paid on the test gateway (docs/api.md). */
const AdminStatusChangeSchema = OrderStatusChangeSchema.extend({ shipUnpaid: z.boolean().optional(), ...ShipmentSchema.shape });

/** Staff change an order's status with orders.status; a customer (no staff sign-in) only their own orders. */
export const permissions = { action: "orders.status" } satisfies RoutePermissions;

/**
 * PUT orderId, status → `{ success: true }`; the rules are utils/order-status's (409 illegal, 403
 * not yours). The shop may add `shipUnpaid: true` to ship an order paid on the test gateway, and
 * `carrier` and `trackingNumber` when it ships one.
 */
export const action = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["PUT"]);
    // Who acts is settled before the body is read: staff whose role may change statuses act as the
    // shop; a customer signed in (even beside a staff sign-in without that permission) acts on their
    // own orders; other staff are refused (403), anyone else must log in (401).
    const visitor = await getStaffVisitor(request);
    const staffMay = visitor !== null && can(visitor.actor.role, permissions.action);
    const staff =
      staffMay || (visitor && !(await getUserId(request))) ? await requireStaff(request, permissions.action, { api: true }) : null;
    const body = await readBody(request);
    if (!staff) {
      const user = await requireApiUser(request);
      const input = parseWith(OrderStatusChangeSchema, body);
      await changeOrderStatus(input.orderId, input.status, { actor: "customer", userId: user.id });
    } else {
      const input = parseStaffBody(AdminStatusChangeSchema, body);
      const shipment = { carrier: input.carrier, trackingNumber: input.trackingNumber };
      await changeOrderStatus(input.orderId, input.status, {
        actor: "admin",
        userId: null,
        staff: staff.actor,
        shipUnpaid: input.shipUnpaid,
        shipment,
      });
    }
    return { success: true };
  });
export const loader = otherMethods(["PUT"]);
