// The variants page's table: one row a variant, its details form (SKU, price, on sale, weight and
// size) and its stock adjustment ('+5', '-1') each carrying the version the page was opened at,
// and its deletion. The rows' inputs belong to their forms by the `form` attribute, so a table
// row holds three plain posts that work without JavaScript.
import { Form } from "@remix-run/react";
import { AdminTable } from "~/components/AdminUI";
import type { EditorVariant } from "~/models/catalogue/variant-editor.server";
import { formatPrice } from "~/utils/money";
import { VARIANT_LIMITS } from "~/utils/variant-schemas";
import type { VariantPageResult } from "./shared";
import { errorProps, FieldError, refusalOf, Submit } from "./shared";

/** A row as the page's loader sends it (its values' ids are the label's business). */
type Row = Omit<EditorVariant, "valueIds">;

const MEASURES = [
  ["weightGrams", "Weight (g)"],
  ["lengthCm", "Length (cm)"],
  ["widthCm", "Width (cm)"],
  ["heightCm", "Height (cm)"],
] as const;

function VariantRow({ v, hasOptions, result }: { v: Row; hasOptions: boolean; result: VariantPageResult }) {
  const saved = refusalOf(result, ["save-variant"], "variantId", v.id);
  const adjusted = refusalOf(result, ["adjust-stock"], "variantId", v.id);
  const details = `variant-${v.id}`;
  const stock = `stock-${v.id}`;
  const name = v.label || "The piece";
  const shown = (key: string, value: string) => saved?.values[key] ?? value;
  return (
    <tr data-testid="variant-row" className="align-top">
      <td className="px-4 py-3">
        <p className="font-medium">{name}</p>
        {v.active ? null : (
          <span className="mt-1 inline-block whitespace-nowrap rounded-full bg-stone-100 px-2 py-0.5 text-xs font-semibold text-stone-700">
            Not sold
          </span>
        )}
        <Form method="post" id={details} className="hidden">
          <input type="hidden" name="variantId" value={v.id} />
          <input type="hidden" name="version" value={v.version} />
        </Form>
        <Form method="post" id={stock} className="hidden">
          <input type="hidden" name="variantId" value={v.id} />
          <input type="hidden" name="version" value={v.version} />
          <input type="hidden" name="stockSeen" value={v.stock} />
        </Form>
      </td>
      <td data-label="SKU" className="px-4 py-3">
        <label htmlFor={`${details}-sku`} className="sr-only">
          SKU of {name}
        </label>
        <input
          id={`${details}-sku`}
          name="sku"
          form={details}
          required
          maxLength={VARIANT_LIMITS.sku}
          defaultValue={shown("sku", v.sku)}
          className="field-input w-full min-w-36 py-1.5 font-mono text-xs uppercase"
          {...errorProps(`${details}-sku`, saved?.errors.sku)}
        />
        <FieldError id={`${details}-sku`} error={saved?.errors.sku} />
      </td>
      <td data-label="Price" className="px-4 py-3">
        <label htmlFor={`${details}-price`} className="sr-only">
          Price of {name} (₹)
        </label>
        <input
          id={`${details}-price`}
          name="price"
          form={details}
          type="number"
          min={0}
          step={1}
          required
          defaultValue={shown("price", String(v.price))}
          className="field-input w-28 py-1.5"
          {...errorProps(`${details}-price`, saved?.errors.price)}
        />
        <FieldError id={`${details}-price`} error={saved?.errors.price} />
        <span className="mt-1 block text-xs text-stone-500">{formatPrice(v.price)}</span>
      </td>
      <td data-label="Stock" className="px-4 py-3">
        <p>
          <span className="font-semibold" data-testid="variant-stock">
            {v.stock}
          </span>{" "}
          in stock
        </p>
        <div className="mt-1 flex items-start gap-2">
          <div>
            <label htmlFor={`${stock}-delta`} className="sr-only">
              Adjust stock of {name} by
            </label>
            <input
              id={`${stock}-delta`}
              name="stockDelta"
              form={stock}
              required
              inputMode="numeric"
              pattern="\s*[+\-]?\s*\d+\s*"
              placeholder="+5 or -1"
              defaultValue={adjusted?.values.stockDelta}
              className="field-input w-24 py-1.5"
              {...errorProps(`${stock}-delta`, adjusted?.errors.stockDelta)}
            />
          </div>
          <Submit
            intent="adjust-stock"
            form={stock}
            label="Adjust"
            busyLabel="Adjusting..."
            className="btn-ghost px-3 py-1.5"
            srLabel={`stock of ${name}`}
          />
        </div>
        <FieldError id={`${stock}-delta`} error={adjusted?.errors.stockDelta} />
      </td>
      <td data-label="On sale" className="px-4 py-3">
        <label className="flex min-h-11 items-center gap-2">
          <input
            type="checkbox"
            name="active"
            form={details}
            defaultChecked={saved ? saved.values.active === "on" : v.active}
            className="h-5 w-5"
          />
          <span className="sr-only">{name} on sale</span>
        </label>
      </td>
      <td data-label="Weight and size" className="px-4 py-3">
        <details open={Boolean(saved && MEASURES.some(([key]) => saved.errors[key]))}>
          <summary className="cursor-pointer whitespace-nowrap text-sm text-wood-700">
            {v.weightGrams || v.lengthCm
              ? [
                  v.weightGrams ? `${v.weightGrams} g` : null,
                  v.lengthCm ? `${v.lengthCm}×${v.widthCm ?? "?"}×${v.heightCm ?? "?"} cm` : null,
                ]
                  .filter(Boolean)
                  .join(", ")
              : "Not given"}
          </summary>
          <div className="mt-2 grid grid-cols-2 gap-2">
            {MEASURES.map(([key, label]) => (
              <div key={key}>
                <label htmlFor={`${details}-${key}`} className="text-xs text-stone-600">
                  {label}
                </label>
                <input
                  id={`${details}-${key}`}
                  name={key}
                  form={details}
                  type="number"
                  min={1}
                  step={1}
                  defaultValue={shown(key, v[key] === null ? "" : String(v[key]))}
                  className="field-input w-24 py-1"
                  {...errorProps(`${details}-${key}`, saved?.errors[key])}
                />
                <FieldError id={`${details}-${key}`} error={saved?.errors[key]} />
              </div>
            ))}
          </div>
        </details>
      </td>
      <td className="px-4 py-3">
        <div className="flex flex-wrap gap-2">
          <Submit
            intent="save-variant"
            form={details}
            label="Save"
            busyLabel="Saving..."
            className="btn-primary px-4 py-1.5"
            srLabel={name}
          />
          {hasOptions ? (
            <Form method="post">
              <input type="hidden" name="variantId" value={v.id} />
              <Submit
                intent="delete-variant"
                label="Delete"
                busyLabel="Deleting..."
                className="btn-ghost px-3 py-1.5 text-red-700"
                srLabel={name}
              />
            </Form>
          ) : null}
        </div>
      </td>
    </tr>
  );
}

export function VariantTable({ variants, hasOptions, result }: { variants: Row[]; hasOptions: boolean; result: VariantPageResult }) {
  const total = variants.filter((v) => v.active).reduce((sum, v) => sum + v.stock, 0);
  return (
    <section className="mt-6" aria-labelledby="variants-heading">
      <h3 id="variants-heading" className="text-lg font-semibold">
        Variants{" "}
        <span className="text-sm font-normal text-stone-500">
          ({variants.length}, {total} in stock on sale)
        </span>
      </h3>
      <AdminTable label="Variants" head={["Variant", "SKU", "Price (₹)", "Stock", "On sale", "Weight and size", ""]}>
        {variants.map((v) => (
          // Keyed by its version too: after a write the row's fields show what was saved, not what was typed.
          <VariantRow key={`${v.id}-${v.version}`} v={v} hasOptions={hasOptions} result={result} />
        ))}
      </AdminTable>
    </section>
  );
}
