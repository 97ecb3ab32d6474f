import type { LoaderFunctionArgs } from "@remix-run/node";
import { db } from "~/lib/db.server";
import { withVariants } from "~/models/catalogue/variant-lists.server";
import { publicApiHandler } from "~/lib/api.server";
import { otherMethods, slugParam } from "~/lib/api-params.server";
import { notFound } from "~/lib/errors.server";
import { getItemBySlug } from "~/models/catalogue/products.server";

export const loader = ({ request }: LoaderFunctionArgs) =>
  publicApiHandler(request, async () => {
    const item = await getItemBySlug(slugParam(request));
    if (!item) throw notFound("Product not found");
    return (await withVariants(db, [item]))[0];
  });
export const action = otherMethods(["GET"]);
