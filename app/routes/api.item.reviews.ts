import type { LoaderFunctionArgs } from "@remix-run/node";
import { publicApiHandler } from "~/lib/api.server";
import { otherMethods, pageParams } from "~/lib/api-params.server";
import { parseWith } from "~/lib/http.server";
import { productReviews } from "~/models/reviews.server";
import { ReviewApiQuerySchema } from "~/utils/review-schemas";

/**
 * GET /api/item/reviews?itemId=&sort=newest|helpful&page=&pageSize= (docs/api.md, Reviews): the
 * product's rating (average, count, histogram) and one page of its visible reviews. 400 for a bad
 * parameter, 404 for a product that does not exist. The same for every caller, so cached like the catalogue.
 */
export const loader = ({ request }: LoaderFunctionArgs) =>
  publicApiHandler(request, async () => {
    const url = new URL(request.url);
    const { itemId, sort } = parseWith(ReviewApiQuerySchema, {
      itemId: url.searchParams.get("itemId") ?? undefined,
      sort: url.searchParams.get("sort") ?? undefined,
    });
    const paging = pageParams(request, { defaultSize: 10, maxSize: 50 });
    const { info, ...page } = await productReviews(itemId, { sort, page: paging.page }, undefined, paging.pageSize);
    return { itemId, ...page, total: page.reviewCount, page: info.page, pageSize: paging.pageSize };
  });
export const action = otherMethods(["GET"]);
