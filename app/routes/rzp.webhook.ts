import type { ActionFunctionArgs } from "@remix-run/node";
import { apiHandler } from "~/lib/api.server";
import { otherMethods, requireMutation } from "~/lib/api-params.server";
import { readRawBody } from "~/lib/http.server";
import { handleWebhook } from "~/models/payments/webhook.server";

/**
 * Razorpay's webhook (set it up for payment.captured, order.paid, payment.failed, refund.created,
 * refund.processed and refund.failed). The X-Razorpay-Signature header is checked over the raw body
 * before anything is read from it.
 */
export const action = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["POST"]);
    const raw = await readRawBody(request);
    return handleWebhook(raw, request.headers.get("X-Razorpay-Signature"));
  });
export const loader = otherMethods(["POST"]);
