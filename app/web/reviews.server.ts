// The product page's reviews for a request (ADR 0018): the list's GET parameters (a bad
// one falls back, the page never fails on its URL) and who is looking (the form for a customer
// who received the piece, the reviews they marked helpful).
import { getUserId } from "./visitor.server";
import { reviewViewer } from "~/models/reviews/read.server";
import { storefront } from "~/models/catalogue/storefront.server";
import { ReviewListQuerySchema } from "~/utils/review-schemas";
import { REVIEW_PARAMS } from "~/utils/reviews";

export async function reviewsForPage(request: Request, itemId: number) {
  const params = new URL(request.url).searchParams;
  const query = ReviewListQuerySchema.parse({
    sort: params.get(REVIEW_PARAMS.sort) ?? undefined,
    page: params.get(REVIEW_PARAMS.page) ?? undefined,
  });
  const [data, viewer] = await Promise.all([storefront.reviews(itemId, query), getUserId(request).then((id) => reviewViewer(id, itemId))]);
  return { data, viewer };
}
