import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiHandler } from "~/lib/api.server";
import { otherMethods } from "~/lib/api-params.server";
import { getCart } from "~/models/cart.server";
import { currentCartId } from "~/web/visitor.server";

export const loader = ({ request }: LoaderFunctionArgs) => apiHandler(async () => getCart(await currentCartId(request)));
export const action = otherMethods(["GET"]);
