import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiHandler } from "~/lib/api.server";
import { otherMethods, requireMutation } from "~/lib/api-params.server";
import { AppError } from "~/lib/errors.server";
import { parseWith, readBody } from "~/lib/http.server";
import { payOnTestGateway } from "~/models/payments/test-gateway.server";
import { requireApiUser } from "~/web/visitor.server";
import { PaymentOrderIdSchema } from "~/utils/schemas";

const BodySchema = z.object({
  outcome: z.enum(["paid", "failed"], { error: "outcome must be paid or failed" }).optional(),
});

/**
 * The offline test gateway for API clients (offline mode only; 404 with Razorpay keys set): POST,
 * body `{ "outcome": "failed" }` optional → `{ razorpay_order_id, razorpay_payment_id,
 * razorpay_signature }` for an unpaid payment order of the caller's, as Razorpay's Checkout hands
 * them to its handler. A failed outcome's signature never verifies. Nothing is written.
 */
export const action = ({ request, params }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["POST"]);
    const body = await readBody(request);
    const user = await requireApiUser(request);
    const id = PaymentOrderIdSchema.safeParse(params.paymentOrderId);
    if (!id.success) throw new AppError(404, "That payment order was not found");
    const { outcome } = parseWith(BodySchema, body);
    return payOnTestGateway(id.data, user.id, outcome ?? "paid");
  });
export const loader = otherMethods(["POST"]);
