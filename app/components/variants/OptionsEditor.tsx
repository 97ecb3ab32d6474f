// The variants page's options: each option with its values (rename, move up or down, remove), a
// value added, the option removed; and a new option with its values.
import { Form } from "@remix-run/react";
import { VARIANT_LIMITS } from "~/utils/variant-schemas";
import type { VariantPageResult } from "./shared";
import { errorProps, FieldError, refusalOf, Submit } from "./shared";

interface Option {
  id: number;
  name: string;
  values: { id: number; value: string }[];
}

function ValueRow({
  value,
  index,
  count,
  result,
}: {
  value: Option["values"][number];
  index: number;
  count: number;
  result: VariantPageResult;
}) {
  const refused = refusalOf(result, ["rename-value"], "valueId", value.id);
  const id = `value-${value.id}`;
  return (
    <li className="grid gap-1 py-2 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-start sm:gap-2" data-testid="option-value">
      <Form method="post" className="flex min-w-0 items-start gap-2">
        <input type="hidden" name="valueId" value={value.id} />
        <div className="min-w-0 flex-1">
          <label htmlFor={id} className="sr-only">
            Name of value {value.value}
          </label>
          <input
            id={id}
            name="value"
            required
            maxLength={VARIANT_LIMITS.value}
            defaultValue={refused?.values.value ?? value.value}
            className="field-input py-1.5"
            {...errorProps(id, refused?.errors.value)}
          />
          <FieldError id={id} error={refused?.errors.value} />
        </div>
        <Submit intent="rename-value" label="Rename" busyLabel="Saving..." className="btn-ghost px-3 py-1.5" srLabel={value.value} />
      </Form>
      <Form method="post" className="flex justify-end gap-1">
        <input type="hidden" name="valueId" value={value.id} />
        <button
          type="submit"
          name="intent"
          value="value-up"
          className="btn-ghost px-2 py-1.5"
          disabled={index === 0}
          aria-label={`Move ${value.value} up`}
        >
          ↑
        </button>
        <button
          type="submit"
          name="intent"
          value="value-down"
          className="btn-ghost px-2 py-1.5"
          disabled={index === count - 1}
          aria-label={`Move ${value.value} down`}
        >
          ↓
        </button>
        <button type="submit" name="intent" value="remove-value" className="btn-ghost px-3 py-1.5 text-red-700">
          Remove<span className="sr-only"> {value.value}</span>
        </button>
      </Form>
    </li>
  );
}

function OptionCard({ option, result }: { option: Option; result: VariantPageResult }) {
  const refused = refusalOf(result, ["add-value"], "optionId", option.id);
  const id = `new-value-${option.id}`;
  return (
    <section className="card p-4" aria-labelledby={`option-${option.id}`} data-testid="option">
      <div className="flex items-center justify-between gap-2">
        <h4 id={`option-${option.id}`} className="font-semibold">
          {option.name}
        </h4>
        <Form method="post">
          <input type="hidden" name="optionId" value={option.id} />
          <Submit
            intent="remove-option"
            label="Remove option"
            busyLabel="Removing..."
            className="btn-ghost px-3 py-1.5 text-sm text-red-700"
            srLabel={option.name}
          />
        </Form>
      </div>
      <ol className="mt-2 divide-y divide-sand-100" aria-label={`Values of ${option.name}`}>
        {option.values.map((value, index) => (
          <ValueRow key={`${value.id}-${value.value}`} value={value} index={index} count={option.values.length} result={result} />
        ))}
      </ol>
      <Form key={option.values.length} method="post" className="mt-3 flex items-start gap-2 border-t border-sand-100 pt-3">
        <input type="hidden" name="optionId" value={option.id} />
        <div className="min-w-0 flex-1">
          <label htmlFor={id} className="sr-only">
            New value of {option.name}
          </label>
          <input
            id={id}
            name="value"
            required
            maxLength={VARIANT_LIMITS.value}
            placeholder={`Another ${option.name.toLowerCase()}`}
            defaultValue={refused?.values.value}
            className="field-input py-1.5"
            {...errorProps(id, refused?.errors.value)}
          />
          <FieldError id={id} error={refused?.errors.value} />
        </div>
        <Submit intent="add-value" label="Add value" busyLabel="Adding..." className="btn-secondary py-1.5" srLabel={`to ${option.name}`} />
      </Form>
    </section>
  );
}

function AddOptionForm({ result }: { result: VariantPageResult }) {
  const refused = refusalOf(result, ["add-option"]);
  return (
    <Form method="post" className="card grid gap-3 p-4" aria-labelledby="add-option-heading">
      <h4 id="add-option-heading" className="font-semibold">
        Add an option
      </h4>
      <div>
        <label htmlFor="option-name" className="field-label label-required">
          Name
        </label>
        <input
          id="option-name"
          name="name"
          required
          maxLength={VARIANT_LIMITS.name}
          placeholder="Fabric"
          defaultValue={refused?.values.name}
          className="field-input"
          {...errorProps("option-name", refused?.errors.name)}
        />
        <FieldError id="option-name" error={refused?.errors.name} />
      </div>
      <div>
        <label htmlFor="option-values" className="field-label label-required">
          Values
        </label>
        <input
          id="option-values"
          name="values"
          required
          placeholder="Linen, Velvet"
          defaultValue={refused?.values.values}
          className="field-input"
          aria-describedby={refused?.errors.values ? "option-values-error" : "option-values-hint"}
          aria-invalid={refused?.errors.values ? true : undefined}
        />
        <p id="option-values-hint" className="mt-1 text-xs text-stone-500">
          Separated by commas. Every variant takes the first value.
        </p>
        <FieldError id="option-values" error={refused?.errors.values} />
      </div>
      <Submit intent="add-option" label="Add option" busyLabel="Adding..." className="btn-primary justify-self-start" />
    </Form>
  );
}

export function OptionsEditor({ options, result }: { options: Option[]; result: VariantPageResult }) {
  return (
    <section className="mt-6" aria-labelledby="options-heading">
      <h3 id="options-heading" className="text-lg font-semibold">
        Options{" "}
        <span className="text-sm font-normal text-stone-500">
          ({options.length} of {VARIANT_LIMITS.options})
        </span>
      </h3>
      <div className="mt-3 grid gap-4 lg:grid-cols-2">
        {options.map((option) => (
          <OptionCard key={option.id} option={option} result={result} />
        ))}
        {/* Keyed by the options' count: once one is added, the form is empty again. */}
        {options.length < VARIANT_LIMITS.options ? <AddOptionForm key={options.length} result={result} /> : null}
      </div>
    </section>
  );
}
