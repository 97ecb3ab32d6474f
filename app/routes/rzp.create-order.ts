import type { ActionFunctionArgs } from "@remix-run/node";
import { apiHandler } from "~/lib/api.server";
import { otherMethods, requireMutation } from "~/lib/api-params.server";
import { readBody } from "~/lib/http.server";
import { startPayment } from "~/models/payments/start.server";
import { requireApiUser } from "~/web/visitor.server";

/**
 * POST → `{ id, amount (paise), currency: "INR", key, reservedUntil }` for the total of the caller's
 * cart, whose units are held for the caller until `reservedUntil` (ADR 0012). A client's `amount`
 * is read only to be ignored: the server computes what is due.
 */
export const action = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["POST"]);
    await readBody(request);
    const user = await requireApiUser(request);
    const order = await startPayment(user.id);
    return { id: order.id, amount: order.amount, currency: order.currency, key: order.key, reservedUntil: order.reservedUntil };
  });
export const loader = otherMethods(["POST"]);
