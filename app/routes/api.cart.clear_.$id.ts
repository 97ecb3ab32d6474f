import type { ActionFunctionArgs } from "@remix-run/node";
import { apiHandler } from "~/lib/api.server";
import { otherMethods, requireMutation } from "~/lib/api-params.server";
import { parseWith } from "~/lib/http.server";
import { removeCartLine } from "~/models/cart.server";
import { currentCartId } from "~/web/visitor.server";
import { IdSchema } from "~/utils/schemas";

export const action = ({ request, params }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["DELETE"]);
    await removeCartLine(await currentCartId(request), parseWith(IdSchema, params.id));
    return { success: true };
  });
export const loader = otherMethods(["DELETE"]);
