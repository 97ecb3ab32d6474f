import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiHandler, jsonResponse } from "~/lib/api.server";
import { otherMethods, requireMutation } from "~/lib/api-params.server";
import { requireApiUser } from "~/web/auth.server";
import { parseWith, readBody } from "~/lib/http.server";
import { LIMITS, rateLimit } from "~/lib/rate-limit.server";
import { placeCodOrder, placeOnlineOrder } from "~/models/checkout.server";
import { CheckoutSchema, IdempotencyKeySchema, PaymentProofSchema } from "~/utils/checkout";

/**
 * POST the checkout fields → the new Order (201). Online orders also carry Razorpay's three
 * fields; the order is placed only for a verified payment of exactly its total. Prices and
 * totals come from the catalogue, never from the body.
 */
export const action = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["POST"]);
    const body = await readBody(request);
    const user = await requireApiUser(request);
    const input = parseWith(CheckoutSchema, body);
    await rateLimit(LIMITS.placeOrder, `u:${user.id}`);
    const order =
      input.paymentMethod === "online"
        ? await placeOnlineOrder(parseWith(PaymentProofSchema, body), user.id, input.shipping)
        : await placeCodOrder(user.id, input.shipping, keyOf(body));
    return jsonResponse(order, { status: 201 });
  });
export const loader = otherMethods(["POST"]);

/** An optional `idempotencyKey`: the same key never makes a second order. */
function keyOf(body: Record<string, unknown>): string | null {
  if (body.idempotencyKey === undefined || body.idempotencyKey === null || body.idempotencyKey === "") return null;
  return parseWith(z.object({ idempotencyKey: IdempotencyKeySchema }), body).idempotencyKey;
}
