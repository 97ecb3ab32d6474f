import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiHandler } from "~/lib/api.server";
import { otherMethods } from "~/lib/api-params.server";
import { requireOrderViewer } from "~/web/auth.server";
import { listOrders } from "~/models/orders.server";

/** GET: the caller's orders, newest first (every order for the shop's admin). */
export const loader = ({ request }: LoaderFunctionArgs) => apiHandler(async () => listOrders(await requireOrderViewer(request)));
export const action = otherMethods(["GET"]);
