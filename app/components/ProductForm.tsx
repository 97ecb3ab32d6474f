import { Form } from "@remix-run/react";
import { Link } from "./Link";
import { useState } from "react";
import { AdminDialog } from "~/components/AdminUI";
import { FormBanner } from "~/components/FormBanner";
import { FormField, fieldA11y, fieldProps } from "~/components/FormField";
import { ImageFields } from "~/components/ImageFields";
import type { FormResult } from "~/hooks/useFormErrors";
import { useFormErrors } from "~/hooks/useFormErrors";
import { useHydrated } from "~/hooks/useHydrated";
import { useIsPending } from "~/hooks/useIsPending";
import type { AdminItem } from "~/models/catalogue/admin-lists.server";
import { ADMIN_LIMITS, PRODUCT_FIELDS } from "~/utils/admin-fields";
import type { Category } from "~/utils/catalogue";
import { MADE_TO_ORDER_DAYS } from "~/utils/delivery";

const EXTRA_SPEC_ROWS = 2;

function initialSpecs(product: AdminItem | null, posted: string | undefined): [string, string][] {
  if (posted) {
    try {
      const [keys, values] = JSON.parse(posted) as [string[], string[]];
      return keys.map((k, i) => [k, values[i] ?? ""]).filter(([k, v]) => k || v) as [string, string][];
    } catch {
      return [];
    }
  }
  return product ? Object.entries(product.specifications) : [];
}

/**
 * The add and edit dialog of the admin's products: a refused post comes back in `result` and
 * the form is drawn again as it was typed, specification rows included. The edit dialog
 * changes the stock by an adjustment and carries the version it was opened at.
 */
export function ProductForm({
  product,
  categories,
  result,
}: {
  product: AdminItem | null;
  categories: Category[];
  result: FormResult | undefined;
}) {
  const errors = useFormErrors(result);
  const busy = useIsPending({ state: "submitting" });
  const posted = (name: string) => errors.value(name);
  const [specs, setSpecs] = useState<[string, string][]>(() => [
    ...initialSpecs(product, posted("specs")),
    ...Array.from({ length: EXTRA_SPEC_ROWS }, () => ["", ""] as [string, string]),
  ]);
  const wasPosted = result?.values !== undefined;
  const checked = (name: "featured" | "madeToOrder" | "inStock", fallback: boolean) => (wasPosted ? posted(name) !== undefined : fallback);
  const text = (name: string, fallback: string) => posted(name) ?? fallback;
  const e = errors.error;
  // An edit posting a stock figure (a client other than this form) has its message here too.
  const deltaError = e("stockDelta") ?? e("stock");
  const hydrated = useHydrated();
  return (
    <AdminDialog title={product ? "Edit Product" : "Add Product"} wide>
      {(close) => (
        <Form method="post" encType="multipart/form-data" noValidate onChange={errors.onChange} className="mt-4 space-y-4">
          <FormBanner message={errors.formError} />
          {product ? (
            <>
              <input type="hidden" name="id" value={product.id} />
              {/* The product as it was opened: an edit of a product that changed since is refused. */}
              <input type="hidden" name="version" value={text("version", String(product.version))} />
              <input type="hidden" name="stockSeen" value={text("stockSeen", String(product.stock))} />
            </>
          ) : null}
          <FormField id="product-title" label="Title" required error={e("title")}>
            <input
              id="product-title"
              name="title"
              defaultValue={text("title", product?.title ?? "")}
              {...fieldProps(PRODUCT_FIELDS.title)}
              className="field-input"
              {...fieldA11y("product-title", e("title"))}
            />
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id="product-category" label="Category" required error={e("categoryId")}>
              <select
                id="product-category"
                name="categoryId"
                defaultValue={text("categoryId", product ? String(product.categoryId) : "")}
                {...fieldProps(PRODUCT_FIELDS.categoryId)}
                className="field-input"
                {...fieldA11y("product-category", e("categoryId"))}
              >
                <option value="">Choose a category</option>
                {categories.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.title}
                  </option>
                ))}
              </select>
            </FormField>
            <FormField id="product-price" label="Price (₹)" required error={e("price")}>
              <input
                id="product-price"
                name="price"
                {...fieldProps(PRODUCT_FIELDS.price)}
                min={0}
                step={0.01}
                inputMode="decimal"
                defaultValue={text("price", product ? String(product.price) : "")}
                className="field-input"
                {...fieldA11y("product-price", e("price"))}
              />
            </FormField>
          </div>
          <FormField id="product-description" label="Description" required error={e("description")}>
            <textarea
              id="product-description"
              name="description"
              rows={4}
              defaultValue={text("description", product?.description ?? "")}
              {...fieldProps(PRODUCT_FIELDS.description)}
              className="field-input"
              {...fieldA11y("product-description", e("description"))}
            />
          </FormField>
          <ImageFields
            idPrefix="product"
            value={text("imgPath", product?.imgPath ?? "")}
            urlError={e("imgPath")}
            fileError={e("imageFile")}
          />
          <div className="grid gap-4 sm:grid-cols-3 sm:items-end">
            <label className="flex min-h-11 items-center gap-2 text-sm font-medium">
              <input
                type="checkbox"
                name="featured"
                defaultChecked={checked("featured", product?.featured ?? false)}
                className="h-5 w-5 accent-wood-600"
              />{" "}
              Featured
            </label>
            <label className="flex min-h-11 items-center gap-2 text-sm font-medium">
              <input
                type="checkbox"
                name="inStock"
                defaultChecked={checked("inStock", product ? product.inStock : true)}
                className="h-5 w-5 accent-wood-600"
              />{" "}
              In Stock
            </label>
            {product ? (
              // Stock is changed by an adjustment, applied on top of what customers buy meanwhile.
              <FormField id="product-stock-delta" label="Adjust stock by" error={deltaError}>
                <input
                  id="product-stock-delta"
                  name="stockDelta"
                  {...fieldProps(PRODUCT_FIELDS.stockDelta)}
                  placeholder="+5 received, -1 damaged"
                  autoComplete="off"
                  defaultValue={text("stockDelta", "")}
                  className="field-input"
                  aria-invalid={deltaError ? true : undefined}
                  aria-describedby={deltaError ? "product-stock-delta-error product-stock-now" : "product-stock-now"}
                />
              </FormField>
            ) : (
              <FormField id="product-stock" label="Units in stock" error={e("stock")}>
                <input
                  id="product-stock"
                  name="stock"
                  {...fieldProps(PRODUCT_FIELDS.stock)}
                  min={0}
                  max={ADMIN_LIMITS.maxStock}
                  step={1}
                  inputMode="numeric"
                  defaultValue={text("stock", "10")}
                  className="field-input"
                  {...fieldA11y("product-stock", e("stock"))}
                />
              </FormField>
            )}
          </div>
          {product ? (
            <p id="product-stock-now" className="text-sm text-stone-600" data-testid="stock-now">
              Units in stock now: <strong>{product.stock}</strong>. Type a change, not the new figure: +5 for units received, -1 for one
              damaged; orders placed meanwhile are kept.{" "}
              <Link to={`/admin/products/${product.id}/variants`} className="font-medium text-wood-700 underline">
                Options and variants
              </Link>{" "}
              (sizes, finishes, each one&apos;s price and stock).
            </p>
          ) : null}
          <div>
            <label className="flex min-h-11 items-center gap-2 text-sm font-medium">
              <input
                type="checkbox"
                name="madeToOrder"
                defaultChecked={checked("madeToOrder", product?.madeToOrder ?? false)}
                aria-describedby="product-made-to-order-hint"
                className="h-5 w-5 accent-wood-600"
              />{" "}
              Made to order ({MADE_TO_ORDER_DAYS.min}-{MADE_TO_ORDER_DAYS.max} business days)
            </label>
            <p id="product-made-to-order-hint" className="text-xs text-stone-600">
              Made after it is ordered: its delivery, and that of any order with it, takes at least this long.
            </p>
          </div>
          <fieldset className="rounded-lg border border-sand-200 p-3">
            <legend className="px-1 text-sm font-medium">Specifications</legend>
            {e("specifications") ? (
              <p className="field-error mb-2" role="alert">
                {e("specifications")}
              </p>
            ) : null}
            <div className="space-y-2">
              {specs.map(([k, v], i) => (
                <div key={i} className="grid grid-cols-2 gap-2">
                  <input
                    name="specKey"
                    defaultValue={k}
                    aria-label={`Specification ${i + 1} name`}
                    placeholder="Name (e.g. Material)"
                    {...fieldProps(PRODUCT_FIELDS.specKey)}
                    className="field-input"
                  />
                  <input
                    name="specValue"
                    defaultValue={v}
                    aria-label={`Specification ${i + 1} value`}
                    placeholder="Value (e.g. Sheesham wood)"
                    {...fieldProps(PRODUCT_FIELDS.specValue)}
                    className="field-input"
                  />
                </div>
              ))}
            </div>
            {hydrated && specs.length < ADMIN_LIMITS.specs ? (
              <button type="button" className="btn-ghost mt-2 text-sm" onClick={() => setSpecs((rows) => [...rows, ["", ""]])}>
                Add a row
              </button>
            ) : null}
            <p className="mt-1 text-xs text-stone-600">Blank rows are ignored.</p>
          </fieldset>
          <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
            {close}
            <button type="submit" name="intent" value={product ? "update" : "create"} className="btn-primary" disabled={busy}>
              {busy ? "Saving..." : product ? "Save Changes" : "Add Product"}
            </button>
          </div>
        </Form>
      )}
    </AdminDialog>
  );
}
