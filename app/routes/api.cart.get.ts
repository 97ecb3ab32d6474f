import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiHandler } from "~/lib/api.server";
import { otherMethods } from "~/lib/api-params.server";
import { currentCartId, getCart } from "~/models/cart.server";

export const loader = ({ request }: LoaderFunctionArgs) => apiHandler(async () => getCart(await currentCartId(request)));
export const action = otherMethods(["GET"]);
