// /admin/products/:id/variants: a product's options, their values and its variants. Staff add an
// option (a product sold as one piece then has its piece as the first combination), add, rename,
// move and remove values, generate the missing combinations, edit each variant (SKU, price,
// active, weight and size), adjust its stock relatively against the version the page was opened
// at, set one price for all, and delete what no cart, payment or open order uses. Every form is
// a plain post that works without JavaScript; each change is one transaction with its audit row.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/Link";
import { FormBanner } from "~/components/FormBanner";
import { OptionsEditor } from "~/components/variants/OptionsEditor";
import { VariantBulkForms } from "~/components/variants/VariantBulkForms";
import { VariantTable } from "~/components/variants/VariantTable";
import { notFoundPage } from "~/lib/errors.server";
import { pageAction } from "~/lib/form.server";
import { parseWith } from "~/lib/http.server";
import { redirectWithToast } from "~/lib/toast.server";
import { PRODUCT_NOT_FOUND, variantEditor } from "~/models/catalogue/variant-editor.server";
import { adjustVariantStock, deleteVariant, generateVariants, saveVariant, setPriceForAll } from "~/models/catalogue/variant-matrix.server";
import { addOption, addValue, moveValue, removeOption, removeValue, renameValue } from "~/models/catalogue/variant-options.server";
import { IdSchema } from "~/utils/schemas";
import type { RoutePermissions } from "~/utils/staff-permissions";
import {
  AddOptionSchema,
  AddValueSchema,
  AdjustStockSchema,
  GenerateSchema,
  OptionIdSchema,
  PriceForAllSchema,
  RenameValueSchema,
  ValueIdSchema,
  VariantDetailsSchema,
  VariantIdSchema,
} from "~/utils/variant-edit-schemas";
import { adminForm, formActor } from "~/web/admin.server";
import { requireStaff } from "~/web/staff.server";

export const handle = { section: "Products" };
export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `Variants of ${data?.product.title ?? "a product"} | Admin | Sagwan Living` },
  { name: "robots", content: "noindex" },
];

export const permissions = { loader: "catalogue.write", action: "catalogue.write" } satisfies RoutePermissions;

/** The product of the URL: 404 for an id that is not a number or not a product. */
function productId(param: string | undefined): number {
  const id = IdSchema.safeParse(param);
  if (!id.success) throw notFoundPage(PRODUCT_NOT_FOUND);
  return id.data;
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireStaff(request, permissions.loader);
  const editor = await variantEditor(productId(params.id));
  if (!editor) throw notFoundPage(PRODUCT_NOT_FOUND);
  return editor;
}

const FIELDS = [
  "intent",
  "name",
  "values",
  "optionId",
  "value",
  "valueId",
  "price",
  "stock",
  "variantId",
  "version",
  "sku",
  "active",
  "weightGrams",
  "lengthCm",
  "widthCm",
  "heightCm",
  "stockDelta",
  "stockSeen",
];

/** The form's fields as an object for a schema (a missing field is undefined; a checkbox's absence is false). */
const fieldsOf = (form: FormData) => Object.fromEntries(FIELDS.map((k) => [k, form.get(k) ?? undefined]));

export async function action({ request, params }: ActionFunctionArgs) {
  const here = new URL(request.url).pathname;
  const done = (title: string) => redirectWithToast(request, here, { type: "success", title });
  const id = productId(params.id);
  const actor = () => formActor(request);
  return pageAction(
    request,
    {
      intents: {
        "add-option": async (form) => {
          const input = parseWith(AddOptionSchema, fieldsOf(form));
          await addOption(id, input, actor());
          return done(`Option ${input.name} added`);
        },
        "remove-option": async (form) => {
          await removeOption(id, parseWith(OptionIdSchema, fieldsOf(form)).optionId, actor());
          return done("Option removed");
        },
        "add-value": async (form) => {
          const input = parseWith(AddValueSchema, fieldsOf(form));
          await addValue(id, input.optionId, input.value, actor());
          return done(`${input.value} added`);
        },
        "rename-value": async (form) => {
          const input = parseWith(RenameValueSchema, fieldsOf(form));
          await renameValue(id, input.valueId, input.value, actor());
          return done(`Renamed to ${input.value}`);
        },
        "value-up": async (form) => {
          await moveValue(id, parseWith(ValueIdSchema, fieldsOf(form)).valueId, "up", actor());
          return done("Value moved up");
        },
        "value-down": async (form) => {
          await moveValue(id, parseWith(ValueIdSchema, fieldsOf(form)).valueId, "down", actor());
          return done("Value moved down");
        },
        "remove-value": async (form) => {
          await removeValue(id, parseWith(ValueIdSchema, fieldsOf(form)).valueId, actor());
          return done("Value removed");
        },
        generate: async (form) => {
          await generateVariants(id, parseWith(GenerateSchema, fieldsOf(form)), actor());
          return done("Variants made");
        },
        "price-all": async (form) => {
          await setPriceForAll(id, parseWith(PriceForAllSchema, fieldsOf(form)).price, actor());
          return done("Price set for every variant");
        },
        "save-variant": async (form) => {
          await saveVariant(id, parseWith(VariantDetailsSchema, fieldsOf(form)), actor());
          return done("Variant saved");
        },
        "adjust-stock": async (form) => {
          await adjustVariantStock(id, parseWith(AdjustStockSchema, fieldsOf(form)), actor());
          return done("Stock adjusted");
        },
        "delete-variant": async (form) => {
          await deleteVariant(id, parseWith(VariantIdSchema, fieldsOf(form)).variantId, actor());
          return done("Variant deleted");
        },
      },
    },
    { read: adminForm(FIELDS, permissions.action), echo: FIELDS.filter((f) => f !== "version") },
  );
}

export default function ProductVariants() {
  const { product, options, variants, missing } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <div>
      <Link to="/admin/products" className="text-sm font-medium text-wood-700 hover:underline">
        ← Products
      </Link>
      <h2 className="mt-2 text-xl font-semibold">Variants of {product.title}</h2>
      <p className="mt-1 max-w-3xl text-sm text-stone-600">
        {options.length === 0
          ? "Sold as one piece. Add an option (Finish, Size, Fabric) to sell it in several variants; " +
            "the piece becomes the first of them, so carts and orders of it stay as they are."
          : "Each variant is one combination of the options' values, with its own SKU, price and stock."}{" "}
        <Link to={`/product/${product.slug}`} className="underline">
          Product page
        </Link>{" "}
        ·{" "}
        <Link to={`/admin/products/${product.id}/photos`} className="underline">
          Photos
        </Link>
      </p>
      <FormBanner message={result?.formError} className="mt-4" />
      <OptionsEditor options={options} result={result} />
      {/* Keyed by what they change: after a write they are empty again. */}
      <VariantBulkForms
        key={`${missing}-${variants.map((v) => v.version).join(".")}`}
        hasOptions={options.length > 0}
        missing={missing}
        variants={variants.length}
        result={result}
      />
      <VariantTable variants={variants} hasOptions={options.length > 0} result={result} />
    </div>
  );
}
