import type { ActionFunctionArgs } from "@remix-run/node";
import { apiHandler } from "~/lib/api.server";
import { requireMethod } from "~/lib/api-params.server";
import { guardMutation } from "~/lib/http.server";
import { clearCart, currentCartId } from "~/models/cart.server";

export const action = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    await guardMutation(request);
    requireMethod(request, ["DELETE"]);
    await clearCart(await currentCartId(request));
    return { success: true };
  });
