import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiHandler } from "~/lib/api.server";
import { currentCartId, getCart } from "~/models/cart.server";

export const loader = ({ request }: LoaderFunctionArgs) => apiHandler(async () => getCart(await currentCartId(request)));
