import type { LoaderFunctionArgs } from "@remix-run/node";
import { db } from "~/lib/db.server";
import { withVariants } from "~/models/catalogue/variant-lists.server";
import { publicApiHandler } from "~/lib/api.server";
import { otherMethods, slugParam } from "~/lib/api-params.server";
import { parseListQuery, PRODUCT_PAGE_SIZES } from "~/lib/paging.server";
import { notFound } from "~/lib/errors.server";
import { getCategoryBySlug } from "~/models/catalogue/categories.server";
import { listCategoryItemsPage } from "~/models/catalogue/products.server";

/**
 * GET `?slug=&page=&pageSize=`: one page of a category's products by id (`pageSize` 48 by default,
 * at most 100), with the whole category's `total` (docs/api.md, Lists). 400 for a bad slug, page or
 * pageSize; 404 for an unknown category; a page past the end has no items.
 */
export const loader = ({ request }: LoaderFunctionArgs) =>
  publicApiHandler(request, async () => {
    const slug = slugParam(request);
    const paging = parseListQuery(request, PRODUCT_PAGE_SIZES);
    const category = await getCategoryBySlug(slug);
    if (!category) throw notFound("Category not found");
    const list = await listCategoryItemsPage(category.id, undefined, paging);
    return { category, items: await withVariants(db, list.rows), total: list.total, page: paging.page, pageSize: paging.pageSize };
  });
export const action = otherMethods(["GET"]);
