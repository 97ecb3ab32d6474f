import type { ActionFunctionArgs } from "@remix-run/node";
import { apiHandler } from "~/lib/api.server";
import { otherMethods, requireMutation } from "~/lib/api-params.server";
import { clearCart } from "~/models/cart.server";
import { currentCartId } from "~/web/visitor.server";

export const action = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["DELETE"]);
    await clearCart(await currentCartId(request));
    return { success: true };
  });
export const loader = otherMethods(["DELETE"]);
