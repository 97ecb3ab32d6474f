import type { ActionFunctionArgs } from "@remix-run/node";
import { apiHandler, jsonResponse } from "~/lib/api.server";
import { otherMethods, requireMutation } from "~/lib/api-params.server";
import { parseWith, readBody } from "~/lib/http.server";
import { addToCart, assertAddable, ensureCart } from "~/models/cart.server";
import { CartAddSchema } from "~/utils/schemas";

export const action = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["POST"]);
    const input = parseWith(CartAddSchema, await readBody(request));
    await assertAddable(input.itemId, input.quantity);
    const { cartId, headers } = await ensureCart(request);
    const line = await addToCart(cartId, input.itemId, input.quantity);
    return jsonResponse(line, { headers });
  });
export const loader = otherMethods(["POST"]);
