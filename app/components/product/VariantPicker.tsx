// The product page's choice of a variant: each option a group of pills (radio buttons) in a GET
// form, so that without JavaScript 'Show this choice' reloads the page with ?fabric=linen&size=3-seater
// and the chosen variant's price, stock and delivery; with JavaScript a change submits the form at
// once, in place (the URL follows, the scroll stays). A value that makes no variant on sale with
// the other choices is shown struck through, still choosable: the page then says why.
import { Form, useSubmit } from "@remix-run/react";
import type { Choosable } from "~/utils/variants";

const PILL =
  "inline-flex min-h-11 items-center rounded-full border px-4 text-sm font-medium transition " +
  "peer-checked:border-wood-700 peer-checked:bg-wood-700 peer-checked:text-white " +
  "peer-focus-visible:ring-2 peer-focus-visible:ring-wood-500 peer-focus-visible:ring-offset-2";
const ON_SALE = "border-sand-300 bg-white text-ink hover:border-wood-600";
const NOT_ON_SALE = "border-dashed border-sand-300 bg-sand-50 text-stone-500 line-through";

export interface PickerVariant {
  id: number;
  active: boolean;
  stock: number;
  valueIds: number[];
}

/** Is there a variant on sale with `valueId` for its option and the other options as chosen? */
function sells(variants: PickerVariant[], optionIndex: number, valueId: number, chosen: (number | undefined)[]): boolean {
  return variants.some(
    (v) =>
      v.active &&
      v.stock > 0 &&
      v.valueIds[optionIndex] === valueId &&
      chosen.every((c, i) => i === optionIndex || c === undefined || v.valueIds[i] === c),
  );
}

export function VariantPicker({
  options,
  variants,
  chosen,
}: {
  options: Choosable["options"];
  variants: PickerVariant[];
  /** the chosen value's id by option id */
  chosen: Record<string, number>;
}) {
  const submit = useSubmit();
  if (options.length === 0) return null;
  const picked = options.map((o) => chosen[String(o.id)]);
  return (
    <Form
      // Drawn anew for each choice the server answers, so the pills show what it chose.
      key={JSON.stringify(chosen)}
      method="get"
      replace
      preventScrollReset
      className="mt-6 space-y-4"
      aria-label="Choose your piece"
      onChange={(event) => submit(event.currentTarget, { replace: true, preventScrollReset: true })}
    >
      {options.map((option, index) => {
        const current = option.values.find((v) => v.id === picked[index]);
        return (
          <fieldset key={option.id}>
            <legend className="text-sm font-semibold text-ink">
              {option.name}
              {current ? <span className="font-normal text-stone-600">: {current.value}</span> : null}
            </legend>
            <div className="mt-2 flex flex-wrap gap-2">
              {option.values.map((value) => {
                const onSale = sells(variants, index, value.id, picked);
                return (
                  <label key={value.id} className="cursor-pointer">
                    <input
                      type="radio"
                      name={option.slug}
                      value={value.slug}
                      defaultChecked={picked[index] === value.id}
                      className="peer sr-only"
                      aria-describedby={onSale ? undefined : `unavailable-${value.id}`}
                    />
                    <span className={`${PILL} ${onSale ? ON_SALE : NOT_ON_SALE}`}>{value.value}</span>
                    {onSale ? null : (
                      <span id={`unavailable-${value.id}`} className="sr-only">
                        (not available with the other choices)
                      </span>
                    )}
                  </label>
                );
              })}
            </div>
          </fieldset>
        );
      })}
      <noscript>
        <button type="submit" className="btn-secondary">
          Show this choice
        </button>
      </noscript>
    </Form>
  );
}
