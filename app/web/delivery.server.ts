// Delivery by pincode, request glue (ADR 0017): the API's query, and the product page's Check
// delivery, whose pincode is remembered for the visit in a cookie of its own (no session row
// for a question anyone may ask; it ends with the browser).
import { createCookie } from "@remix-run/node";
import { z } from "zod";
import { isAppError } from "~/lib/errors.server";
import { isSecureRequest, parseWith } from "~/lib/http.server";
import { deliveryQuote } from "~/models/delivery/quote.server";
import type { DeliveryCheckState, DeliveryQuote } from "~/utils/delivery";
import { DELIVERY_MESSAGES } from "~/utils/delivery";
import { PincodeSchema } from "~/utils/delivery-schemas";
import { IdSchema } from "~/utils/schemas";

const ApiQuerySchema = z.object({ pincode: PincodeSchema, itemId: IdSchema.optional() });

/**
 * GET /api/delivery: 400 for a bad parameter with its own message (docs/api.md, Delivery), a
 * parameter sent twice included (its values are not one pincode, not one id); 404 for an unknown
 * pincode or product.
 */
export function deliveryForApi(request: Request): Promise<DeliveryQuote> {
  const params = new URL(request.url).searchParams;
  const param = (key: string) => {
    const values = params.getAll(key);
    return values.length > 1 ? values : values[0] || undefined;
  };
  const query = parseWith(ApiQuerySchema, { pincode: param("pincode"), itemId: param("itemId") });
  return deliveryQuote(query.pincode, query.itemId ?? null);
}

const pincodeCookie = createCookie("sl_pincode", { httpOnly: true, sameSite: "lax", path: "/" });

/**
 * The product page's Check delivery (a GET form, `?pincode=`): the pincode asked, or else the one
 * remembered for the visit, answered for this product. Answers the check, the status for the page
 * (400 for a malformed or unknown pincode) and the cookie to set when a new pincode was answered.
 */
export async function deliveryCheck(
  request: Request,
  itemId: number,
): Promise<{ check: DeliveryCheckState; status: number; setCookie: string | null }> {
  const asked = new URL(request.url).searchParams.get("pincode");
  const remembered = asked === null ? await pincodeCookie.parse(request.headers.get("Cookie")) : null;
  const raw = asked ?? (typeof remembered === "string" ? remembered : null);
  if (raw === null) return { check: { pincode: null }, status: 200, setCookie: null };
  const parsed = PincodeSchema.safeParse(raw);
  if (!parsed.success) return { check: { pincode: raw.slice(0, 12), error: DELIVERY_MESSAGES.pincode }, status: 400, setCookie: null };
  try {
    const quote = await deliveryQuote(parsed.data, itemId);
    const setCookie = asked !== null ? await pincodeCookie.serialize(parsed.data, { secure: isSecureRequest(request) }) : null;
    return { check: { pincode: parsed.data, quote }, status: 200, setCookie };
  } catch (error) {
    if (isAppError(error, "NOT_FOUND")) return { check: { pincode: parsed.data, error: error.message }, status: 400, setCookie: null };
    throw error;
  }
}

/** The product page's status and cookie for its Check delivery. */
export function deliveryInit(check: { status: number; setCookie: string | null }): ResponseInit {
  return { status: check.status, headers: check.setCookie ? { "Set-Cookie": check.setCookie } : undefined };
}
