// Returns on an order's page: the customer's request form and the list of
// returns with their timelines, and the staff's decisions on the admin order page. Plain forms
// that post to the page's own action: everything works without JavaScript.
import { Form } from "@remix-run/react";
import type { OrderReturn, Returnable } from "~/models/returns/read.server";
import { formatDateTime, formatLongDate } from "~/utils/dates";
import { useIsPending } from "~/hooks/useIsPending";
import { formatPrice } from "~/utils/money";
import { RETURN_LABEL, RETURN_WINDOW_HOURS, statusBadgeClass } from "~/utils/order-status";
import { RETURN_FIELDS, RETURN_REASON_KEYS, RETURN_REASONS, returnQuantityField } from "~/utils/returns";
import { useFormErrors } from "~/hooks/useFormErrors";
import { FormBanner } from "./FormBanner";
import { useStaffCan } from "~/hooks/useStaffCan";

type Viewer = "customer" | "admin";

export interface ReturnFormResult {
  formError?: string;
  fieldErrors?: Record<string, string>;
  values?: Record<string, string>;
}

function ReturnBadge({ ret }: { ret: OrderReturn }) {
  return (
    <span
      data-testid="return-status"
      className={`inline-flex items-center rounded-full px-3 py-1 text-xs font-semibold ring-1 ring-inset ${statusBadgeClass(ret.status)}`}
    >
      {RETURN_LABEL[ret.status]}
    </span>
  );
}

function whoText(actor: string, viewer: Viewer): string {
  if (actor === "admin") return viewer === "admin" ? " by the shop" : " by Sagwan Living";
  if (actor === "customer") return viewer === "admin" ? " by the customer" : " by you";
  return "";
}

/** One return: its pieces, reason, refund and timeline; with the staff's forms on the admin page. */
function ReturnCard({ ret, viewer, result }: { ret: OrderReturn; viewer: Viewer; result?: ReturnFormResult }) {
  return (
    <li className="rounded-lg border border-sand-200 bg-white p-4" data-testid={`return-${ret.id}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-semibold">Return #{ret.id}</p>
        <ReturnBadge ret={ret} />
      </div>
      <ul className="mt-2 text-sm text-stone-700">
        {ret.lines.map((l) => (
          <li key={l.orderItemId}>
            {l.title} × {l.quantity}
          </li>
        ))}
      </ul>
      <p className="mt-2 text-sm">
        <span className="font-medium">{ret.reasonLabel}:</span> {ret.details}
      </p>
      <p className="mt-1 text-sm text-stone-700">
        {ret.status === "returned" ? "Refund: " : ret.status === "rejected" ? "Would have refunded: " : "Refund once received: "}
        <span className="font-semibold">{formatPrice(ret.refundAmount)}</span>
      </p>
      {ret.status === "rejected" && ret.staffNote ? (
        <p className="mt-2 rounded-md bg-red-50 p-2 text-sm text-red-900">Not approved: {ret.staffNote}</p>
      ) : null}
      <ol className="mt-3 space-y-1 border-l-2 border-sand-200 pl-3 text-xs text-stone-600" aria-label={`Return #${ret.id} timeline`}>
        {ret.events.map((e, i) => (
          <li key={i}>
            {RETURN_LABEL[e.status]}
            {whoText(e.actor, viewer)} · <time dateTime={e.at}>{formatDateTime(e.at)}</time>
          </li>
        ))}
      </ol>
      {viewer === "admin" ? <ReturnDecisionForms ret={ret} result={result} /> : null}
    </li>
  );
}

/** The staff's next step for a return: approve or reject (with a note) a request; receive an approved one's goods. */
function ReturnDecisionForms({ ret, result }: { ret: OrderReturn; result?: ReturnFormResult }) {
  const busy = useIsPending({ state: "submitting" });
  const canDecide = useStaffCan("returns.decide");
  const canReceive = useStaffCan("returns.receive");
  const noteError = result?.values?.returnId === String(ret.id) ? result.fieldErrors?.note : undefined;
  if (ret.status === "requested" && canDecide) {
    return (
      <div className="mt-3 flex flex-col gap-3">
        <Form method="post">
          <input type="hidden" name="returnId" value={ret.id} />
          <button type="submit" name="intent" value="approve-return" className="btn-primary" disabled={busy}>
            Approve return
          </button>
        </Form>
        <Form method="post" className="flex flex-1 flex-col gap-2">
          <input type="hidden" name="returnId" value={ret.id} />
          <label>
            <span className="field-label">Why not (the customer reads this)</span>
            <textarea
              name="note"
              rows={2}
              className="field-input"
              maxLength={RETURN_FIELDS.staffNote.maxLength}
              aria-invalid={noteError ? true : undefined}
              aria-describedby={noteError ? `note-${ret.id}-error` : undefined}
            />
          </label>
          {noteError ? (
            <span id={`note-${ret.id}-error`} className="field-error">
              {noteError}
            </span>
          ) : null}
          <button type="submit" name="intent" value="reject-return" className="btn-secondary self-start" disabled={busy}>
            Reject return
          </button>
        </Form>
      </div>
    );
  }
  if (ret.status === "approved" && canReceive) {
    return (
      <Form method="post" className="mt-3">
        <input type="hidden" name="returnId" value={ret.id} />
        <p className="mb-2 text-xs text-stone-600">
          When the pieces arrive: their units go back to stock and {formatPrice(ret.refundAmount)} is refunded.
        </p>
        <button type="submit" name="intent" value="receive-return" className="btn-primary" disabled={busy}>
          Mark returned (goods received)
        </button>
      </Form>
    );
  }
  return null;
}

/** The order's returns, and (for its customer, within the window) the form to ask for one. */
export function ReturnsSection({
  returns,
  returnable,
  viewer,
  result,
}: {
  returns: OrderReturn[];
  returnable?: Returnable;
  viewer: Viewer;
  result?: ReturnFormResult;
}) {
  const canAsk = viewer === "customer" && returnable?.open;
  if (returns.length === 0 && !canAsk && !(viewer === "customer" && returnable?.windowEnds)) return null;
  return (
    <section aria-labelledby="returns-heading" className="card p-5 sm:p-6">
      <h2 id="returns-heading" className="text-lg font-semibold">
        Returns
      </h2>
      {viewer === "admin" ? <FormBanner message={result?.values?.returnId ? result.formError : undefined} /> : null}
      {viewer === "customer" && !canAsk ? <FormBanner message={result?.formError} /> : null}
      {returns.length > 0 ? (
        <ul className="mt-3 space-y-3">
          {returns.map((r) => (
            <ReturnCard key={r.id} ret={r} viewer={viewer} result={result} />
          ))}
        </ul>
      ) : null}
      {viewer === "customer" && returnable?.windowEnds && !canAsk ? (
        <p className="mt-3 text-sm text-stone-600">
          Damaged or defective pieces can be returned within {RETURN_WINDOW_HOURS} hours of delivery
          {Date.parse(returnable.windowEnds) > Date.now()
            ? "."
            : `: this order's window closed on ${formatLongDate(returnable.windowEnds)}.`}
        </p>
      ) : null}
      {canAsk ? <ReturnRequestForm returnable={returnable!} result={result} /> : null}
    </section>
  );
}

/** Which pieces to return and why: a plain form (works without JavaScript), the server checks everything again. */
function ReturnRequestForm({ returnable, result }: { returnable: Returnable; result?: ReturnFormResult }) {
  const busy = useIsPending({ state: "submitting" });
  const errors = useFormErrors(result);
  return (
    <Form method="post" className="mt-4 space-y-4" aria-labelledby="return-form-heading" onChange={errors.onChange}>
      <h3 id="return-form-heading" className="font-semibold">
        Request a return
      </h3>
      <p className="text-sm text-stone-600">
        Damaged or defective pieces can be returned until {formatLongDate(returnable.windowEnds!)} ({RETURN_WINDOW_HOURS} hours after
        delivery). Choose the pieces and tell us what is wrong.
      </p>
      <FormBanner message={errors.formError} />
      <fieldset className="space-y-2">
        <legend className="field-label">Pieces to return</legend>
        {returnable.lines.map((line) => {
          const name = returnQuantityField(line.orderItemId);
          return (
            <div key={line.orderItemId}>
              <label className="flex items-center justify-between gap-3 text-sm">
                <span>
                  {line.title}{" "}
                  <span className="text-stone-600">
                    ({line.left} of {line.ordered} can be returned)
                  </span>
                </span>
                <select
                  name={name}
                  className="field-input w-24"
                  defaultValue={errors.value(name) ?? "0"}
                  disabled={line.left === 0}
                  aria-invalid={errors.error(name) ? true : undefined}
                  aria-describedby={errors.error(name) ? `${name}-error` : undefined}
                >
                  {Array.from({ length: line.left + 1 }, (_, n) => (
                    <option key={n} value={n}>
                      {n}
                    </option>
                  ))}
                </select>
              </label>
              {errors.error(name) ? (
                <span id={`${name}-error`} className="field-error">
                  {errors.error(name)}
                </span>
              ) : null}
            </div>
          );
        })}
        {errors.error("lines") ? <span className="field-error">{errors.error("lines")}</span> : null}
      </fieldset>
      <fieldset>
        <legend className="field-label">Reason</legend>
        {RETURN_REASON_KEYS.map((key) => (
          <label key={key} className="flex min-h-11 items-center gap-2 text-sm">
            <input type="radio" name="reason" value={key} required defaultChecked={errors.value("reason") === key} />
            {RETURN_REASONS[key]}
          </label>
        ))}
        {errors.error("reason") ? <span className="field-error">{errors.error("reason")}</span> : null}
      </fieldset>
      <label className="block">
        <span className="field-label">What is wrong</span>
        <textarea
          name="details"
          rows={3}
          className="field-input"
          required
          maxLength={RETURN_FIELDS.details.maxLength}
          defaultValue={errors.value("details") ?? ""}
          aria-invalid={errors.error("details") ? true : undefined}
          aria-describedby={errors.error("details") ? "details-error" : undefined}
        />
      </label>
      {errors.error("details") ? (
        <span id="details-error" className="field-error">
          {errors.error("details")}
        </span>
      ) : null}
      <button type="submit" name="intent" value="request-return" className="btn-primary" disabled={busy}>
        {busy ? "Sending..." : "Request a return"}
      </button>
    </Form>
  );
}
