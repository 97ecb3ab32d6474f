import type { ActionFunctionArgs } from "@remix-run/node";
import { apiHandler, jsonResponse } from "~/lib/api.server";
import { otherMethods, requireMutation } from "~/lib/api-params.server";
import { parseWith, readBody } from "~/lib/http.server";
import { addItem } from "~/models/cart.server";
import { asOwner } from "~/web/visitor.server";
import { CartAddSchema } from "~/utils/schemas";

export const action = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["POST"]);
    const input = parseWith(CartAddSchema, await readBody(request));
    const { line, headers } = await asOwner(request, "carts", (owner) => addItem(owner, input));
    return jsonResponse(line, { headers });
  });
export const loader = otherMethods(["POST"]);
