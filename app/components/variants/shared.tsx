// What the variants page's forms share: which form a refused post came from (its intent and the
// row's id, echoed back), so the field messages stand beside that form; the error text tied to
// its field; a submit button with its pending state.
import { useIsPending } from "~/hooks/useIsPending";
import type { FormFailure } from "~/utils/forms";

export type VariantPageResult =
  FormFailure | { ok?: undefined; formError?: undefined; fieldErrors?: undefined; values?: undefined } | undefined;

export interface Refusal {
  errors: Record<string, string>;
  values: Record<string, string>;
}

/** The refusal of this form (its intent, and its row when `key` names the row's id field), or null. */
export function refusalOf(result: VariantPageResult, intents: string[], key?: string, id?: number): Refusal | null {
  const values = result?.values;
  if (!result?.formError || !values || !intents.includes(values.intent ?? "")) return null;
  if (key !== undefined && values[key] !== String(id)) return null;
  return { errors: result.fieldErrors ?? {}, values };
}

/** The accessible pair of a field with its message: aria-invalid and aria-describedby. */
export function errorProps(id: string, error: string | undefined) {
  return error ? { "aria-invalid": true as const, "aria-describedby": `${id}-error` } : {};
}

export function FieldError({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <p id={`${id}-error`} className="field-error">
      {error}
    </p>
  ) : null;
}

/** A submit button that says it is busy while its own intent is on its way. */
export function Submit({
  intent,
  label,
  busyLabel,
  className = "btn-secondary",
  form,
  value,
  name = "intent",
  srLabel,
}: {
  intent: string;
  label: string;
  busyLabel: string;
  className?: string;
  form?: string;
  value?: string;
  name?: string;
  srLabel?: string;
}) {
  const busy = useIsPending({ state: "submitting", intent });
  return (
    <button type="submit" name={name} value={value ?? intent} form={form} className={className} disabled={busy}>
      {busy ? busyLabel : label}
      {srLabel ? <span className="sr-only"> {srLabel}</span> : null}
    </button>
  );
}
