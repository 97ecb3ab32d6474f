import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiHandler, jsonResponse, publicApiHandler } from "~/lib/api.server";
import { requireMutation } from "~/lib/api-params.server";
import { parseListQuery, REVIEW_API_PAGE_SIZES } from "~/lib/paging.server";
import { parseWith, readBody } from "~/lib/http.server";
import { ownReview, productReviews } from "~/models/reviews/read.server";
import { saveReview } from "~/models/reviews/write.server";
import { requireApiUser } from "~/web/visitor.server";
import { ReviewApiQuerySchema, ReviewSchema } from "~/utils/review-schemas";

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
    const paging = parseListQuery(request, REVIEW_API_PAGE_SIZES);
    const { info, ...page } = await productReviews(itemId, { sort, page: paging.page }, paging.pageSize);
    return { itemId, ...page, total: page.reviewCount, page: info.page, pageSize: paging.pageSize };
  });

/**
 * POST `{ itemId, rating, title, body }` by a customer who received the piece: 201 with their
 * review when written, 200 when it edits the one they wrote. The rules are models/reviews/'s: 401
 * signed out, 403 not received, 404 no such product, 400 bad input, 429.
 */
export const action = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["POST"]);
    const body = await readBody(request);
    const user = await requireApiUser(request);
    const input = parseWith(ReviewSchema, body);
    const saved = await saveReview(user.id, input);
    return jsonResponse({ itemId: input.itemId, ...(await ownReview(user.id, input.itemId)) }, { status: saved.created ? 201 : 200 });
  });
