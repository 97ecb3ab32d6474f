// The coupon box's posts on the cart and checkout pages (components/CouponForm): apply or remove
// the signed-in customer's code, then back to the page with a toast; a refused code answers the
// page's action data with its message beside the field (and the refusal's 4xx), nothing written.
import { data } from "@remix-run/node";
import type { AppError } from "~/lib/errors.server";
import { isAppError } from "~/lib/errors.server";
import { clientOf } from "~/lib/rate-limit.server";
import { redirectWithToast } from "~/lib/toast.server";
import { applyCoupon, removeCoupon } from "~/models/coupons/apply.server";
import type { COUPON_INTENTS } from "~/utils/coupon-fields";
import { requireUser } from "./visitor.server";

/** A refused code: beside the field, with what was typed. */
export interface CouponFailure {
  ok: false;
  fieldErrors: { couponCode: string };
  values: { couponCode: string };
}

/** The coupon box's intents, for a page action's `intents` (pageAction in lib/form.server). */
export function couponIntents(request: Request, backTo: "/cart" | "/checkout") {
  return {
    "apply-coupon": (form) => applyPost(request, form, backTo),
    "remove-coupon": async () => {
      const user = await requireUser(request);
      await removeCoupon(user.id);
      return redirectWithToast(request, backTo, { type: "success", title: "Coupon removed" });
    },
  } satisfies Record<(typeof COUPON_INTENTS)[number], (form: FormData) => Promise<unknown>>;
}

async function applyPost(request: Request, form: FormData, backTo: "/cart" | "/checkout") {
  const user = await requireUser(request);
  const typed = form.get("couponCode");
  try {
    const code = await applyCoupon(user.id, typed, clientOf(request));
    return redirectWithToast(request, backTo, { type: "success", title: `Coupon ${code} applied` });
  } catch (error) {
    if (!isAppError(error)) throw error;
    return refused(error, typed);
  }
}

function refused(error: AppError, typed: FormDataEntryValue | null) {
  const body: CouponFailure = {
    ok: false,
    fieldErrors: { couponCode: error.fieldErrors?.couponCode ?? error.message },
    values: { couponCode: typeof typed === "string" ? typed.slice(0, 64) : "" },
  };
  return data(body, { status: error.status, headers: error.headers });
}
