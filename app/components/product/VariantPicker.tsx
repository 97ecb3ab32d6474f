// The product page's choice of a variant: each option a group of pills (radio buttons) in a GET
// form, so that without JavaScript 'Show this choice' reloads the page with ?fabric=linen&size=3-seater
// and the chosen variant's price, stock and delivery; with JavaScript a change submits the form at
// once, in place (the URL follows, the scroll stays). A value that makes no variant on sale with
// the other choices is shown struck through, still choosable: the page then says why. What is
// chosen and on sale is the server's (utils/variants: pickerOptions).
import { Form } from "@remix-run/react";
import type { PickerOption } from "~/utils/variants";

const PILL =
  "inline-flex min-h-11 items-center rounded-full border px-4 text-sm font-medium transition " +
  "peer-checked:border-wood-700 peer-checked:bg-wood-700 peer-checked:text-white " +
  "peer-focus-visible:ring-2 peer-focus-visible:ring-wood-500 peer-focus-visible:ring-offset-2";
const ON_SALE = "border-sand-300 bg-white text-ink hover:border-wood-600";
const NOT_ON_SALE = "border-dashed border-sand-300 bg-sand-50 text-stone-500 line-through";

export function VariantPicker({ options }: { options: PickerOption[] }) {
  return (
    <Form
      // Drawn anew for each choice the server answers, so the pills show what it chose.
      key={options.map((o) => o.values.find((v) => v.chosen)?.id).join()}
      method="get"
      replace
      preventScrollReset
      className="mt-6 space-y-4"
      aria-label="Choose your piece"
      // Remix's Form takes the submit: a navigation in place, as the form's own props say.
      onChange={(event) => event.currentTarget.requestSubmit()}
    >
      {options.map((option) => (
        <fieldset key={option.id}>
          <legend className="text-sm font-semibold text-ink">
            {option.name}
            <span className="font-normal text-stone-600">{option.values.filter((v) => v.chosen).map((v) => `: ${v.value}`)}</span>
          </legend>
          <div className="mt-2 flex flex-wrap gap-2">
            {option.values.map((value) => (
              <label key={value.id} className="cursor-pointer">
                <input type="radio" name={option.slug} value={value.slug} defaultChecked={value.chosen} className="peer sr-only" />
                <span className={`${PILL} ${value.onSale ? ON_SALE : NOT_ON_SALE}`}>{value.value}</span>
                {value.onSale ? null : <span className="sr-only"> (not available with the other choices)</span>}
              </label>
            ))}
          </div>
        </fieldset>
      ))}
      <noscript>
        <button type="submit" className="btn-secondary">
          Show this choice
        </button>
      </noscript>
    </Form>
  );
}
