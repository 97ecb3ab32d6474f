import type { ActionFunctionArgs } from "@remix-run/node";
import { apiHandler } from "~/lib/api.server";
import { otherMethods, requireMutation } from "~/lib/api-params.server";
import { parseWith, readBody } from "~/lib/http.server";
import { updateCartLine } from "~/models/cart.server";
import { currentCartId } from "~/web/visitor.server";
import { CartUpdateSchema } from "~/utils/schemas";

export const action = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["PUT"]);
    const input = parseWith(CartUpdateSchema, await readBody(request));
    return updateCartLine(await currentCartId(request), input.id, input.quantity);
  });
export const loader = otherMethods(["PUT"]);
