// Admin: reviews. Every review, newest first, pages of 10, searched by product,
// title or the customer's email and filtered by state; the staff hide one with a reason (its
// author is mailed the reason; it leaves the product's average, count and list) or show it again.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { Link } from "~/components/Link";
import { FormBanner } from "~/components/FormBanner";
import { AdminTable, EmptyRow, ListError, ListSearch } from "~/components/AdminUI";
import { Pagination } from "~/components/Pagination";
import { Stars } from "~/components/ReviewStars";
import { pageAction } from "~/lib/form.server";
import { parseWith } from "~/lib/http.server";
import { redirectWithToast } from "~/lib/toast.server";
import { adminForm, formActor } from "~/web/admin.server";
import { adminListLoader, backToListPage } from "~/web/admin-crud.server";
import { listReviewsPage, moderateReview } from "~/models/reviews/admin.server";
import { formatDateTime } from "~/utils/dates";
import { useIsPending } from "~/hooks/useIsPending";
import { AdminReviewQuerySchema, ReviewModerationSchema } from "~/utils/review-schemas";
import { REVIEW_FIELDS, REVIEW_FILTER_LABEL, REVIEW_FILTERS } from "~/utils/reviews";
import type { RoutePermissions } from "~/utils/staff-permissions";

export const handle = { section: "Reviews" };

export const permissions = {
  loader: "reviews.moderate",
  action: { hide: "reviews.moderate", unhide: "reviews.moderate" },
} satisfies RoutePermissions;

/** The list the page shows, read again after a write to find the page the staff go back to. */
const LIST = {
  filters: (url: URL) =>
    AdminReviewQuerySchema.parse({ q: url.searchParams.get("q") ?? undefined, status: url.searchParams.get("status") ?? undefined }),
  list: listReviewsPage,
};

export const loader = ({ request }: LoaderFunctionArgs) => adminListLoader(request, permissions.loader, LIST);

export const action = ({ request }: ActionFunctionArgs) =>
  pageAction(
    request,
    { intents: { hide: (form) => moderate(request, form), unhide: (form) => moderate(request, form) } },
    { read: adminForm(["intent", "reviewId", "reason"], permissions.action), echo: ["reviewId", "reason"] },
  );

/** Hide a review (with the reason mailed to its author) or show it again: the form's intent. */
async function moderate(request: Request, form: FormData) {
  const input = parseWith(ReviewModerationSchema, {
    intent: form.get("intent") ?? undefined,
    reviewId: form.get("reviewId") ?? undefined,
    reason: form.get("reason") ?? undefined,
  });
  await moderateReview(
    input.reviewId,
    input.intent === "hide" ? { hide: true, reason: input.reason } : { hide: false },
    formActor(request),
  );
  return redirectWithToast(request, await backToListPage(request, LIST), {
    type: "success",
    title: `Review #${input.reviewId} ${input.intent === "hide" ? "hidden" : "shown again"}`,
    description: "Its author was told by mail.",
  });
}

function ModerationForm({
  review,
  result,
}: {
  review: { id: number; visible: boolean; title: string };
  result?: { formError?: string; fieldErrors?: Record<string, string>; values?: Record<string, string> };
}) {
  const location = useLocation();
  const busy = useIsPending({ state: "submitting" });
  const mine = result?.values?.reviewId === String(review.id);
  const error = mine ? result?.fieldErrors?.reason : undefined;
  const action = `/admin/reviews${location.search}`;
  if (!review.visible) {
    return (
      <Form method="post" action={action}>
        <input type="hidden" name="reviewId" value={review.id} />
        <button type="submit" name="intent" value="unhide" className="btn-secondary px-3 py-1.5 text-sm" disabled={busy}>
          Show again
        </button>
      </Form>
    );
  }
  return (
    <details open={mine} className="w-48">
      <summary className="btn-ghost inline-flex cursor-pointer px-3 py-1.5 text-sm">Hide…</summary>
      <Form method="post" action={action} className="mt-2 flex flex-col gap-2">
        <input type="hidden" name="reviewId" value={review.id} />
        <label>
          <span className="field-label">Reason (the author reads it)</span>
          <textarea
            name="reason"
            rows={2}
            required
            maxLength={REVIEW_FIELDS.hiddenReason.maxLength}
            defaultValue={mine ? result?.values?.reason : undefined}
            className="field-input"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `reason-${review.id}-error` : undefined}
          />
        </label>
        {error ? (
          <span id={`reason-${review.id}-error`} className="field-error">
            {error}
          </span>
        ) : null}
        <button
          type="submit"
          name="intent"
          value="hide"
          className="btn-primary self-start px-3 py-1.5 text-sm"
          disabled={busy}
          aria-label={`Hide review #${review.id}`}
        >
          Hide review
        </button>
      </Form>
    </details>
  );
}

export default function AdminReviews() {
  const { list, error, q, status } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <div>
      <ListSearch placeholder="Search product, title or customer email..." q={q}>
        <label className="sm:w-44">
          <span className="sr-only">State</span>
          <select name="status" defaultValue={status} className="field-input">
            {REVIEW_FILTERS.map((f) => (
              <option key={f} value={f}>
                {REVIEW_FILTER_LABEL[f]}
              </option>
            ))}
          </select>
        </label>
      </ListSearch>
      <div className="mt-4">
        <FormBanner message={result?.formError} />
      </div>
      {error !== null ? (
        <ListError message={error} />
      ) : (
        <>
          <AdminTable label="Reviews" head={["Review", "Rating and text", "Product and customer", "State", "Written", "Actions"]}>
            {list.rows.length === 0 ? (
              <EmptyRow colSpan={6}>{q || status !== "all" ? "No reviews match." : "No reviews yet."}</EmptyRow>
            ) : (
              list.rows.map((r) => (
                <tr key={r.id} data-testid="review-row" className="align-top">
                  <td className="px-4 py-3 font-medium">#{r.id}</td>
                  <td className="min-w-56 max-w-sm px-4 py-3">
                    <span className="flex items-center gap-2 whitespace-nowrap">
                      <Stars rating={r.rating} />
                      <span className="text-xs text-stone-600">{r.rating} of 5</span>
                    </span>
                    <span className="mt-1 block font-semibold">{r.title}</span>
                    <span className="mt-1 block whitespace-pre-line text-sm text-stone-700">{r.body}</span>
                    {!r.visible && r.hiddenReason ? (
                      <span className="mt-1 block text-xs text-red-800">Hidden: {r.hiddenReason}</span>
                    ) : null}
                  </td>
                  <td className="min-w-40 max-w-56 px-4 py-3">
                    <Link to={`/product/${r.slug}#reviews`} className="text-wood-700 underline">
                      {r.product}
                    </Link>
                    <span className="mt-1 block break-all text-xs text-stone-600">{r.customer}</span>
                  </td>
                  <td className="px-4 py-3">
                    <span
                      className={`inline-flex rounded-full px-3 py-1 text-xs font-semibold ring-1 ring-inset ${
                        r.visible ? "bg-green-50 text-green-800 ring-green-200" : "bg-red-50 text-red-800 ring-red-200"
                      }`}
                    >
                      {r.visible ? "Shown" : "Hidden"}
                    </span>
                    <span className="mt-1 block whitespace-nowrap text-xs text-stone-600">{r.helpfulCount} found helpful</span>
                  </td>
                  <td data-label="Written" className="px-4 py-3">
                    {formatDateTime(r.createdAt)}
                  </td>
                  <td className="px-4 py-3">
                    <ModerationForm review={r} result={result} />
                  </td>
                </tr>
              ))
            )}
          </AdminTable>
          <Pagination info={list.info} noun="reviews" label="Reviews" />
        </>
      )}
    </div>
  );
}
