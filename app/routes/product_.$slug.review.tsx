// /product/{slug}/review: the review form of a piece on a page of its own (the delivered
// order's page and the invitation mail link here; the product page's form posts here),
// and the helpful vote. A guest is sent to sign in; a customer who did not receive the piece is
// told so (403); a refused form is shown again with the messages beside its fields.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/Link";
import { FormBanner } from "~/components/FormBanner";
import { notFoundBoundary } from "~/components/NotFoundPage";
import { ReviewForm } from "~/components/ReviewForm";
import { pageAction } from "~/lib/form.server";
import { parseWith, safeRedirectPath } from "~/lib/http.server";
import { redirectWithToast } from "~/lib/toast.server";
import { getItemBySlug } from "~/models/catalogue/products.server";
import { markHelpful, saveReview } from "~/models/reviews/write.server";
import { reviewViewer } from "~/models/reviews/read.server";
import { requireUser } from "~/web/visitor.server";
import { HelpfulVoteSchema, ReviewSchema } from "~/utils/review-schemas";
import { REVIEW_MESSAGES } from "~/utils/reviews";
import { SlugSchema } from "~/utils/schemas";
import { notFoundPage } from "~/lib/errors.server";

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: `${d?.item ? `Review ${d.item.title}` : "Product Not Found"} | Sagwan Living` },
  { name: "robots", content: "noindex" },
];

async function itemOf(slugParam: string | undefined) {
  const slug = SlugSchema.safeParse(slugParam);
  const item = slug.success ? await getItemBySlug(slug.data) : null;
  if (!item) throw notFoundPage("Product Not Found");
  return item;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const item = await itemOf(params.slug);
  const viewer = await reviewViewer(user.id, item.id);
  const body = { item: { id: item.id, title: item.title, slug: item.slug, imgPath: item.imgPath }, viewer };
  // Nobody else may review: the page says why, with a 403.
  return data(body, { status: viewer.canReview ? 200 : 403 });
}

/** intent `save` (the review form) or `helpful` (a vote; with `redirectTo` a page post, without it a fetcher's). */
export const action = ({ request, params }: ActionFunctionArgs) =>
  pageAction(
    request,
    {
      intents: {
        helpful: async (form) => {
          const user = await requireUser(request);
          const item = await itemOf(params.slug);
          const { reviewId } = parseWith(HelpfulVoteSchema, { reviewId: form.get("reviewId") ?? undefined });
          const vote = await markHelpful(user.id, reviewId);
          const back = form.get("redirectTo");
          if (typeof back !== "string") return { ok: true as const, ...vote };
          return redirectWithToast(request, safeRedirectPath(back, `/product/${item.slug}#reviews`), {
            type: "success",
            title: vote.counted ? "Thank you for your vote" : "You already marked this review helpful",
          });
        },
        save: async (form) => {
          const user = await requireUser(request);
          const item = await itemOf(params.slug);
          const input = parseWith(ReviewSchema, {
            itemId: item.id,
            rating: form.get("rating") ?? undefined,
            title: form.get("title") ?? undefined,
            body: form.get("body") ?? undefined,
          });
          const saved = await saveReview(user.id, input);
          return redirectWithToast(request, `/product/${item.slug}#reviews`, {
            type: "success",
            title: saved.created ? "Thank you for your review" : "Your review is updated",
          });
        },
      },
    },
    { echo: ["rating", "title", "body"], banner: true },
  );

export default function ReviewPage() {
  const { item, viewer } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const failure = result && "formError" in result ? result : undefined;
  return (
    <section className="bg-sand-50">
      <div className="container-page max-w-2xl py-10">
        <Link to={`/product/${item.slug}`} className="text-sm font-medium text-wood-700 hover:underline">
          ← Back to {item.title}
        </Link>
        <div className="mt-4 flex items-center gap-4">
          <img src={item.imgPath} alt="" width={96} height={72} className="aspect-[4/3] w-24 rounded-lg bg-sand-100 object-cover" />
          <h1 className="text-2xl font-semibold sm:text-3xl">{viewer.own ? `Your review of ${item.title}` : `Review ${item.title}`}</h1>
        </div>
        <div className="card mt-6 p-5 sm:p-6">
          {viewer.canReview ? (
            <ReviewForm slug={item.slug} own={viewer.own} result={failure} idPrefix="page-review" />
          ) : (
            <FormBanner message={failure?.formError ?? REVIEW_MESSAGES.notBuyer}>
              {failure ? null : (
                <Link to="/orders" className="mt-2 inline-block font-medium underline">
                  See your orders
                </Link>
              )}
            </FormBanner>
          )}
        </div>
      </div>
    </section>
  );
}

export const ErrorBoundary = notFoundBoundary({
  title: "Product Not Found",
  message: "We couldn't find that product. It may have been moved or is no longer available.",
  to: "/categories",
  linkText: "Browse Categories",
});
