// The coupon box's posts on the cart and checkout pages (components/CouponForm): apply or remove
// the signed-in customer's code, then back to the page with a toast; a refused code answers the
// page's action data with its message beside the field (and the refusal's 4xx), nothing written.
import { data } from "@remix-run/node";
import { isAppError } from "~/lib/errors.server";
import { clientOf } from "~/lib/rate-limit.server";
import { redirectWithToast } from "~/lib/toast.server";
import { applyCoupon, removeCoupon } from "~/models/coupons/apply.server";
import { COUPON_INTENTS } from "~/utils/coupon-fields";
import { requireUser } from "./visitor.server";

/** Is this post the coupon box's? */
export function isCouponPost(form: FormData): boolean {
  return (COUPON_INTENTS as readonly unknown[]).includes(form.get("intent"));
}

/** A refused code: beside the field, with what was typed. */
export interface CouponFailure {
  ok: false;
  fieldErrors: { couponCode: string };
  values: { couponCode: string };
}

export async function couponPost(request: Request, form: FormData, backTo: "/cart" | "/checkout") {
  const user = await requireUser(request);
  if (form.get("intent") === "remove-coupon") {
    await removeCoupon(user.id);
    return redirectWithToast(request, backTo, { type: "success", title: "Coupon removed" });
  }
  const typed = form.get("couponCode");
  try {
    const code = await applyCoupon(user.id, typed, clientOf(request));
    return redirectWithToast(request, backTo, { type: "success", title: `Coupon ${code} applied` });
  } catch (error) {
    if (!isAppError(error)) throw error;
    const body: CouponFailure = {
      ok: false,
      fieldErrors: { couponCode: error.fieldErrors?.couponCode ?? error.message },
      values: { couponCode: typeof typed === "string" ? typed.slice(0, 64) : "" },
    };
    return data(body, { status: error.status, headers: error.headers });
  }
}
