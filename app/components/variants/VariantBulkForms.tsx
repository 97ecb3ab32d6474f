// The variants page's forms for every variant at once: generate the combinations not made yet
// (at a price and stock to start from), and one price for all.
import { Form } from "@remix-run/react";
import type { VariantPageResult } from "./shared";
import { errorProps, FieldError, refusalOf, Submit } from "./shared";

function Field({
  id,
  name,
  label,
  error,
  defaultValue,
  min = 0,
}: {
  id: string;
  name: string;
  label: string;
  error?: string;
  defaultValue?: string;
  min?: number;
}) {
  return (
    <div>
      <label htmlFor={id} className="field-label label-required">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type="number"
        inputMode="numeric"
        min={min}
        step={1}
        required
        defaultValue={defaultValue}
        className="field-input sm:w-36"
        {...errorProps(id, error)}
      />
      <FieldError id={id} error={error} />
    </div>
  );
}

export function VariantBulkForms({
  hasOptions,
  missing,
  variants,
  result,
}: {
  hasOptions: boolean;
  missing: number;
  variants: number;
  result: VariantPageResult;
}) {
  const generate = refusalOf(result, ["generate"]);
  const priceAll = refusalOf(result, ["price-all"]);
  return (
    <div className="mt-6 grid gap-4 md:grid-cols-2">
      {hasOptions ? (
        <Form method="post" className="card p-4" aria-labelledby="generate-heading">
          <h3 id="generate-heading" className="font-semibold">
            Generate the combinations
          </h3>
          <p className="mt-1 text-sm text-stone-600" data-testid="missing-combinations">
            {missing === 0
              ? "Every combination of the values has its variant."
              : `${missing} combination${missing === 1 ? " has" : "s have"} no variant yet. ` +
                "Each new one starts at this price and stock; change them below."}
          </p>
          {missing > 0 ? (
            <div className="mt-3 flex flex-wrap items-end gap-3">
              <Field
                id="generate-price"
                name="price"
                label="Price (₹)"
                error={generate?.errors.price}
                defaultValue={generate?.values.price}
              />
              <Field
                id="generate-stock"
                name="stock"
                label="Stock each"
                error={generate?.errors.stock}
                defaultValue={generate?.values.stock ?? "0"}
              />
              <Submit
                intent="generate"
                label={`Make ${missing} variant${missing === 1 ? "" : "s"}`}
                busyLabel="Making..."
                className="btn-primary"
              />
            </div>
          ) : null}
        </Form>
      ) : null}
      {variants > 1 ? (
        <Form method="post" className="card p-4" aria-labelledby="price-all-heading">
          <h3 id="price-all-heading" className="font-semibold">
            Set price for all
          </h3>
          <p className="mt-1 text-sm text-stone-600">Every variant of this product, on sale or not, gets this price.</p>
          <div className="mt-3 flex flex-wrap items-end gap-3">
            <Field id="price-all" name="price" label="Price (₹)" error={priceAll?.errors.price} defaultValue={priceAll?.values.price} />
            <Submit intent="price-all" label="Set for all" busyLabel="Setting..." className="btn-primary" />
          </div>
        </Form>
      ) : null}
    </div>
  );
}
