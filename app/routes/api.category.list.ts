import type { LoaderFunctionArgs } from "@remix-run/node";
import { publicApiHandler } from "~/lib/api.server";
import { otherMethods } from "~/lib/api-params.server";
import { listCategories } from "~/models/catalogue/categories.server";

export const loader = ({ request }: LoaderFunctionArgs) => publicApiHandler(request, () => listCategories());
export const action = otherMethods(["GET"]);
