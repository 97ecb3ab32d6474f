import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiHandler } from "~/lib/api.server";
import { otherMethods, slugParam } from "~/lib/api-params.server";
import { notFound } from "~/lib/errors.server";
import { getCategoryBySlug, listItemsInCategory } from "~/models/catalogue.server";

export const loader = ({ request }: LoaderFunctionArgs) =>
  apiHandler(async () => {
    const category = await getCategoryBySlug(slugParam(request));
    if (!category) throw notFound("Category not found");
    return { category, items: await listItemsInCategory(category.id) };
  });
export const action = otherMethods(["GET"]);
