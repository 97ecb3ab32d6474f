import type { LoaderFunctionArgs } from "@remix-run/node";
import { db } from "~/lib/db.server";
import { withVariants } from "~/models/catalogue/variant-lists.server";
import { publicApiHandler } from "~/lib/api.server";
import { otherMethods } from "~/lib/api-params.server";
import { pagedArray, parseListQuery, PRODUCT_PAGE_SIZES } from "~/lib/paging.server";
import { listFeaturedPage } from "~/models/catalogue/products.server";

/** GET `?page=&pageSize=`: one page of the featured products by id, as `Item[]` with X-Total-Count and Link (docs/api.md, Lists). */
export const loader = ({ request }: LoaderFunctionArgs) =>
  publicApiHandler(request, async () => {
    const paging = parseListQuery(request, PRODUCT_PAGE_SIZES);
    const page = await listFeaturedPage(paging);
    return pagedArray(request, paging, { ...page, rows: await withVariants(db, page.rows) });
  });
export const action = otherMethods(["GET"]);
