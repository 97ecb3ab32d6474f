// /admin/products/import: upload a CSV of products. Every row is checked first; a file with any
// problem changes nothing and the page lists each problem by line. Works without JavaScript.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { Link } from "~/components/Link";
import { FormBanner } from "~/components/FormBanner";
import { FormField, fieldA11y } from "~/components/FormField";
import { useFormErrors } from "~/hooks/useFormErrors";
import { adminForm, formActor } from "~/web/admin.server";
import { requireStaff } from "~/web/staff.server";
import type { RoutePermissions } from "~/utils/staff-permissions";
import { pageAction } from "~/lib/form.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { ImportProblem } from "~/models/catalogue/csv-read.server";
import { ImportRejected } from "~/models/catalogue/csv-read.server";
import { importProductsFile } from "~/models/catalogue/csv-import.server";
import type { FormFailure } from "~/utils/forms";
import { useIsPending } from "~/hooks/useIsPending";
import { MADE_TO_ORDER_DAYS } from "~/utils/delivery";
import { CSV_COLUMNS, IMPORT_MAX_BYTES, IMPORT_MAX_ROWS } from "~/utils/product-csv";

export const meta: MetaFunction = () => [{ title: "Import Products | Sagwan Living" }, { name: "robots", content: "noindex" }];

export const handle = { section: "Products" };

export const permissions = { loader: "catalogue.write", action: "catalogue.write" } satisfies RoutePermissions;

/** At most this many problems are listed; the rest are counted. */
const SHOWN_PROBLEMS = 200;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request, permissions.loader);
  return {};
}

/** A refused file: the report of its rows' problems (the first SHOWN_PROBLEMS, and how many more). */
function rejected(error: ImportRejected) {
  const problems: ImportProblem[] = error.problems.slice(0, SHOWN_PROBLEMS);
  const body: FormFailure & { problems: ImportProblem[]; more: number } = {
    ok: false,
    formError: error.message,
    fieldErrors: {},
    problems,
    more: error.problems.length - problems.length,
  };
  return data(body, { status: 400 });
}

export async function action({ request }: ActionFunctionArgs) {
  // First: the Origin check and the staff guard (adminForm), before the body is read.
  return pageAction(
    request,
    async (form) => {
      try {
        const { created, updated } = await importProductsFile(form.get("file"), formActor(request));
        const n = created + updated;
        return redirectWithToast(request, "/admin/products", {
          type: "success",
          title: `Imported ${n} product${n === 1 ? "" : "s"} (${created} new, ${updated} updated)`,
        });
      } catch (error) {
        if (error instanceof ImportRejected) return rejected(error);
        throw error;
      }
    },
    { read: adminForm(["file"], permissions.action), limit: IMPORT_MAX_BYTES + 64 * 1024 },
  );
}

/** Two rows of one sofa sold in two fabrics: the product's columns repeated, one row per variant. */
const EXAMPLE_ROW = (fabric: string, sku: string, price: string) =>
  [
    "teak-lounge-chair",
    "Teak Lounge Chair",
    "living-room",
    price,
    "5",
    "no",
    "no",
    '"Solid teak, hand-finished in Jodhpur."',
    "/images/products/teak-lounge-chair.svg",
    '"{""Material"":""Teak""}"',
    "",
    "Fabric",
    fabric,
    "",
    "",
    "",
    "",
    sku,
    "yes",
    "",
    "",
    "",
    "",
    "",
  ].join(",");
const EXAMPLE = [CSV_COLUMNS.join(","), EXAMPLE_ROW("Linen", "TLC-LINEN", "24999"), EXAMPLE_ROW("Velvet", "TLC-VELVET", "27999")].join(
  "\n",
);

export default function ImportProductsPage() {
  const result = useActionData<typeof action>();
  const errors = useFormErrors(result);
  const busy = useIsPending({ state: "submitting" });
  const problems = result && "problems" in result ? result.problems : [];
  const more = result && "more" in result ? result.more : 0;
  const fileErrorText = errors.error("file");

  return (
    <div className="max-w-3xl space-y-6">
      <div>
        <Link to="/admin/products" className="text-sm text-wood-700 underline">
          ← Back to products
        </Link>
        <h1 className="mt-2 text-2xl font-semibold sm:text-3xl">Import products from CSV</h1>
      </div>

      {/* The report stays while a corrected file is chosen: it is the list to work through. */}
      <FormBanner message={result?.formError}>
        {problems.length ? (
          <ul className="mt-2 list-disc space-y-1 pl-5" aria-label="Problems in the file" data-testid="import-problems">
            {problems.map((p, i) => (
              <li key={i}>
                Line {p.line}: {p.message}
              </li>
            ))}
            {more > 0 ? <li>…and {more} more</li> : null}
          </ul>
        ) : null}
      </FormBanner>

      <section className="card space-y-3 p-5 text-sm text-stone-700 sm:p-6" aria-labelledby="columns-heading">
        <h2 id="columns-heading" className="text-lg font-semibold text-ink">
          The file
        </h2>
        <p>
          One row per variant (a product without options is one row), with a header row naming the columns:{" "}
          <code className="font-mono text-xs">{CSV_COLUMNS.join(", ")}</code>. The columns{" "}
          <strong>title, category, price, description and imgPath</strong> are required; the others may be left out.
        </p>
        <ul className="list-disc space-y-1 pl-5">
          <li>
            <strong>slug</strong>: a product&apos;s slug updates that product; a new slug, or none, adds a new product. The rows of one
            product repeat its slug and its columns, which must agree.
          </li>
          <li>
            <strong>category</strong>: the category&apos;s slug, such as <code className="font-mono text-xs">living-room</code>.
          </li>
          <li>
            <strong>price</strong> in whole rupees and <strong>stock</strong> in units are the row&apos;s variant&apos;s (0 means out of
            stock); <strong>featured</strong>: yes or no; <strong>made_to_order</strong>: yes for a piece made after it is ordered (delivery
            then takes at least {MADE_TO_ORDER_DAYS.min}-{MADE_TO_ORDER_DAYS.max} business days), else no. A column left out keeps each
            product&apos;s value.
          </li>
          <li>
            <strong>specifications</strong>: a JSON object of names and values, like{" "}
            <code className="font-mono text-xs">{'{"Material":"Teak"}'}</code>.
          </li>
          <li>
            <strong>sku</strong> is the key: a row with a known SKU updates that variant; a new SKU adds a variant, with its{" "}
            <strong>option1_name</strong>/<strong>option1_value</strong> (up to option3) in the product&apos;s option order; a value the
            product does not have yet is added. A new product sold in variants names its options in its rows. <strong>active</strong>: yes
            or no; <strong>weight_grams</strong>, <strong>length_cm</strong>, <strong>width_cm</strong>, <strong>height_cm</strong>: whole
            numbers, or blank.
          </li>
          <li>
            <strong>version</strong> and <strong>variant_version</strong>: leave them as the export wrote them (blank for a new product or
            variant). A row is refused when its product or variant changed since the export (units sold, say): export again and make the
            change there. To change an existing variant&apos;s stock a row needs its version; without a stock column the stock is left as it
            is.
          </li>
        </ul>
        <p>Example:</p>
        <pre className="overflow-x-auto rounded-md bg-sand-100 p-3 font-mono text-xs">{EXAMPLE}</pre>
        <p>
          Every row is checked first: if any row has a problem, nothing is imported and each problem is listed by its line. At most{" "}
          {IMPORT_MAX_ROWS} rows and 1 MB per file; save it as &quot;CSV UTF-8&quot;.
        </p>
        <p>
          <a href="/admin/products/export.csv" className="font-medium text-wood-700 underline">
            Download the current list as CSV
          </a>
        </p>
      </section>

      <Form method="post" encType="multipart/form-data" onChange={errors.onChange} className="card space-y-5 p-5 sm:p-6">
        <FormField id="import-file" label="CSV file" required error={fileErrorText}>
          <input
            id="import-file"
            name="file"
            type="file"
            accept=".csv,text/csv"
            required
            aria-required="true"
            className="field-input"
            {...fieldA11y("import-file", fileErrorText)}
          />
        </FormField>
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? "Importing..." : "Import products"}
        </button>
      </Form>
    </div>
  );
}
