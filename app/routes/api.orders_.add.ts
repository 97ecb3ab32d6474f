import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiHandler, jsonResponse } from "~/lib/api.server";
import { otherMethods, requireMutation } from "~/lib/api-params.server";
import { parseWith, readBody } from "~/lib/http.server";
import { clientOf } from "~/lib/rate-limit.server";
import { checkout } from "~/models/orders/checkout.server";
import { requireApiUser } from "~/web/visitor.server";
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
    const { shipping, paymentMethod } = parseWith(CheckoutSchema, body);
    // An optional `couponCode` is applied to the cart first (checked and rate-limited like the pages' box).
    const coupon =
      body.couponCode === undefined || body.couponCode === null || body.couponCode === ""
        ? undefined
        : { code: body.couponCode, client: clientOf(request) };
    const placed = await checkout(
      user.id,
      paymentMethod === "online"
        ? { shipping, paymentMethod, proof: parseWith(PaymentProofSchema, body), coupon }
        : { shipping, paymentMethod, idempotencyKey: keyOf(body), coupon },
    );
    return jsonResponse(placed.order, { status: 201 });
  });
export const loader = otherMethods(["POST"]);

/** An optional `idempotencyKey`: the same key never makes a second order. */
function keyOf(body: Record<string, unknown>): string | null {
  if (body.idempotencyKey === undefined || body.idempotencyKey === null || body.idempotencyKey === "") return null;
  return parseWith(z.object({ idempotencyKey: IdempotencyKeySchema }), body).idempotencyKey;
}
