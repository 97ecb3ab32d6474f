import type { ActionFunctionArgs } from "@remix-run/node";
import { apiHandler } from "~/lib/api.server";
import { otherMethods, requireMutation } from "~/lib/api-params.server";
import { readBody } from "~/lib/http.server";
import { clientOf } from "~/lib/rate-limit.server";
import { getCart } from "~/models/cart.server";
import { applyCoupon, removeCoupon } from "~/models/coupons/apply.server";
import { currentCartId, requireApiUser } from "~/web/visitor.server";

/**
 * POST `{ couponCode }` applies a code to the caller's cart (signed in; rate-limited like the
 * pages' box); DELETE takes it off. Both answer the cart as GET /api/cart/get does, its
 * `discount` and `coupon` included. A refused code: 4xx with `errors.couponCode`.
 */
export const action = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["POST", "DELETE"]);
    const user = await requireApiUser(request);
    if (request.method.toUpperCase() === "DELETE") await removeCoupon(user.id);
    else await applyCoupon(user.id, (await readBody(request)).couponCode, clientOf(request));
    return getCart(await currentCartId(request));
  });
export const loader = otherMethods(["POST", "DELETE"]);
