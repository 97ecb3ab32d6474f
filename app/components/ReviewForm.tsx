// The review form: a rating of 1-5 stars, a title and the text, posted to
// /product/{slug}/review (its page shows the form again with the server's messages beside the
// fields when something is wrong). Works without JavaScript; shown to a customer who received the
// piece, filled with their review when they wrote one.
import { Form } from "@remix-run/react";
import { useIsPending } from "~/hooks/useIsPending";
import type { OwnReview } from "~/models/reviews/read.server";
import { RATINGS, REVIEW_FIELDS } from "~/utils/reviews";
import { useFormErrors } from "~/hooks/useFormErrors";
import { FormBanner } from "./FormBanner";
import { fieldA11y, FormField, fieldProps } from "./FormField";
import { StarIcon } from "./icons";

export interface ReviewFormResult {
  formError?: string;
  fieldErrors?: Record<string, string>;
  values?: Record<string, string>;
}

const RATING_WORDS: Record<number, string> = { 5: "Excellent", 4: "Good", 3: "Average", 2: "Poor", 1: "Terrible" };

const CHIP = [
  "inline-flex min-h-11 min-w-11 cursor-pointer items-center justify-center gap-1 rounded-full border border-sand-300 bg-white px-2.5",
  "text-sm font-semibold text-stone-700 transition hover:border-wood-600",
  "peer-checked:border-wood-600 peer-checked:bg-wood-600 peer-checked:text-white",
  "peer-focus-visible:outline peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-wood-600",
].join(" ");

export function ReviewForm({
  slug,
  own,
  result,
  idPrefix = "review",
}: {
  slug: string;
  own: OwnReview | null;
  result?: ReviewFormResult;
  idPrefix?: string;
}) {
  const action = `/product/${slug}/review`;
  const busy = useIsPending({ formAction: action, intent: "save" });
  const errors = useFormErrors(result);
  const value = (key: "rating" | "title" | "body") => errors.value(key) ?? (own ? String(own[key]) : "");
  const ratingError = errors.error("rating");
  return (
    <Form method="post" action={action} className="space-y-4" data-testid="review-form" preventScrollReset onChange={errors.onChange}>
      <FormBanner message={errors.formError} />
      {own && !own.visible ? (
        <p className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200" data-testid="review-hidden-note">
          Our team hid this review{own.hiddenReason ? `: ${own.hiddenReason}` : "."} You can still edit it; it stays hidden until our team
          shows it again.
        </p>
      ) : null}
      <input type="hidden" name="intent" value="save" />
      <fieldset {...fieldA11y(`${idPrefix}-rating`, ratingError)}>
        <legend className="field-label label-required">Your rating</legend>
        <div className="flex flex-wrap gap-1.5">
          {[...RATINGS].reverse().map((n) => (
            <label key={n} className="relative inline-flex">
              <input
                type="radio"
                name="rating"
                value={n}
                required
                defaultChecked={value("rating") === String(n)}
                className="peer absolute inset-0 h-full w-full cursor-pointer appearance-none opacity-0"
              />
              <span className={CHIP}>
                {n} <StarIcon className="h-4 w-4" />
                <span className="sr-only">
                  {n === 1 ? "star" : "stars"}: {RATING_WORDS[n]}
                </span>
              </span>
            </label>
          ))}
        </div>
        {ratingError ? (
          <p id={`${idPrefix}-rating-error`} className="field-error">
            {ratingError}
          </p>
        ) : null}
      </fieldset>
      <FormField id={`${idPrefix}-title`} label="Title" required error={errors.error("title")}>
        <input
          id={`${idPrefix}-title`}
          name="title"
          {...fieldProps(REVIEW_FIELDS.title)}
          defaultValue={value("title")}
          placeholder="Sturdy and beautiful"
          className="field-input"
          {...fieldA11y(`${idPrefix}-title`, errors.error("title"))}
        />
      </FormField>
      <FormField id={`${idPrefix}-body`} label="Your review" required error={errors.error("body")}>
        <textarea
          id={`${idPrefix}-body`}
          name="body"
          rows={5}
          {...fieldProps(REVIEW_FIELDS.body)}
          defaultValue={value("body")}
          placeholder="How is the finish, the comfort, the delivery and assembly?"
          className="field-input"
          {...fieldA11y(`${idPrefix}-body`, errors.error("body"))}
        />
      </FormField>
      <button type="submit" className="btn-primary" disabled={busy}>
        {busy ? "Saving..." : own ? "Update review" : "Submit review"}
      </button>
    </Form>
  );
}
