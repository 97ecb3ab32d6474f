import type { LoaderFunctionArgs } from "@remix-run/node";
import { publicApiHandler } from "~/lib/api.server";
import { otherMethods } from "~/lib/api-params.server";
import { deliveryForApi } from "~/web/delivery.server";

/**
 * GET `?pincode=NNNNNN[&itemId=]`: `{ pincode, serviceable, city, district, state, days, deliveryBy, cod }`
 * (docs/api.md, Delivery). 400 for a malformed pincode or itemId, 404 for a pincode or product that
 * does not exist. The same for every caller: cacheable like the catalogue (ADR 0015); the date
 * moves at midnight in India, within the minute a cache keeps it.
 */
export const loader = ({ request }: LoaderFunctionArgs) => publicApiHandler(request, () => deliveryForApi(request));
export const action = otherMethods(["GET"]);
