// /admin/products/import: upload a CSV of products. Every row is checked first; a file with any
// problem changes nothing and the page lists each problem by line. Works without JavaScript.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { FormBanner } from "~/components/AuthLayout";
import { FormField, fieldA11y } from "~/components/FormField";
import { useFormErrors } from "~/components/useFormErrors";
import { readAdminForm, requireAdmin } from "~/web/admin.server";
import { AppError } from "~/lib/errors.server";
import { formAction } from "~/lib/form.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { ImportProblem } from "~/models/product-csv.server";
import { ImportRejected, importProductsCsv } from "~/models/product-csv.server";
import { CSV_COLUMNS, IMPORT_MAX_BYTES, IMPORT_MAX_ROWS, TOO_LARGE } from "~/utils/product-csv";

export const meta: MetaFunction = () => [{ title: "Import Products | Sagwan Living" }, { name: "robots", content: "noindex" }];

export const handle = { section: "Products" };

/** At most this many problems are listed; the rest are counted. */
const SHOWN_PROBLEMS = 200;
const CHOOSE_FILE = "Choose a CSV file to import";
const SPREADSHEET = 'That is a spreadsheet file, not CSV: in your spreadsheet choose Save As → "CSV UTF-8", then upload that file';
const NOT_UTF8 = 'The file is not UTF-8 text: in your spreadsheet choose Save As → "CSV UTF-8", then upload that file';

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return {};
}

const fileError = (message: string, status: 400 | 413 = 400) => new AppError(status, message, { file: message });

/** The uploaded file as text: a non-empty UTF-8 file, not a spreadsheet's own format. */
async function uploadedText(value: FormDataEntryValue | null): Promise<string> {
  if (value === null || typeof value === "string" || value.size === 0) throw fileError(CHOOSE_FILE);
  if (/\.(xlsx|xlsm|xlsb|xls|ods|numbers)$/i.test(value.name)) throw fileError(SPREADSHEET);
  if (value.size > IMPORT_MAX_BYTES) throw fileError(TOO_LARGE, 413);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(await value.arrayBuffer());
  } catch {
    throw fileError(NOT_UTF8);
  }
}

export async function action({ request }: ActionFunctionArgs) {
  return formAction(async () => {
    // First: the Origin check and the admin guard, before the body is read.
    const form = await readAdminForm(request, IMPORT_MAX_BYTES + 64 * 1024);
    const text = await uploadedText(form.get("file"));
    try {
      const { created, updated } = await importProductsCsv(text);
      const n = created + updated;
      return redirectWithToast(request, "/admin/products", {
        type: "success",
        title: `Imported ${n} product${n === 1 ? "" : "s"} (${created} new, ${updated} updated)`,
      });
    } catch (error) {
      if (!(error instanceof ImportRejected)) throw error;
      const problems: ImportProblem[] = error.problems.slice(0, SHOWN_PROBLEMS);
      return data(
        { ok: false as const, formError: error.message, fieldErrors: {} as Record<string, string>, problems, more: error.problems.length - problems.length },
        { status: 400 },
      );
    }
  });
}

const EXAMPLE = [
  CSV_COLUMNS.join(","),
  'teak-lounge-chair,Teak Lounge Chair,living-room,24999,5,no,"Solid teak, hand-finished in Jodhpur.",/images/products/teak-lounge-chair.svg,"{""Material"":""Teak"",""Color"":""Honey""}"',
].join("\n");

export default function ImportProductsPage() {
  const result = useActionData<typeof action>();
  const errors = useFormErrors(result);
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const problems = result && "problems" in result ? result.problems : [];
  const more = result && "more" in result ? result.more : 0;
  const fileErrorText = errors.error("file");

  return (
    <div className="max-w-3xl space-y-6">
      <div>
        <Link to="/admin/products" className="text-sm text-wood-700 underline">← Back to products</Link>
        <h1 className="mt-2 text-2xl font-semibold sm:text-3xl">Import products from CSV</h1>
      </div>

      {/* The report stays while a corrected file is chosen: it is the list to work through. */}
      <FormBanner message={result?.formError}>
        {problems.length ? (
          <ul className="mt-2 list-disc space-y-1 pl-5" aria-label="Problems in the file" data-testid="import-problems">
            {problems.map((p, i) => (
              <li key={i}>Line {p.line}: {p.message}</li>
            ))}
            {more > 0 ? <li>…and {more} more</li> : null}
          </ul>
        ) : null}
      </FormBanner>

      <section className="card space-y-3 p-5 text-sm text-stone-700 sm:p-6" aria-labelledby="columns-heading">
        <h2 id="columns-heading" className="text-lg font-semibold text-ink">The file</h2>
        <p>
          One product per row, with a header row naming the columns: <code className="font-mono text-xs">{CSV_COLUMNS.join(", ")}</code>.
          The columns <strong>title, category, price, description and imgPath</strong> are required; the others may be left out.
        </p>
        <ul className="list-disc space-y-1 pl-5">
          <li><strong>slug</strong>: a product&apos;s slug updates that product; a new slug, or none, adds a new product.</li>
          <li><strong>category</strong>: the category&apos;s slug, such as <code className="font-mono text-xs">living-room</code>.</li>
          <li><strong>price</strong> in whole rupees; <strong>stock</strong> in units (0 means out of stock); <strong>featured</strong>: yes or no.</li>
          <li><strong>specifications</strong>: a JSON object of names and values, like <code className="font-mono text-xs">{'{"Material":"Teak"}'}</code>.</li>
        </ul>
        <p>Example:</p>
        <pre className="overflow-x-auto rounded-md bg-sand-100 p-3 font-mono text-xs">{EXAMPLE}</pre>
        <p>
          Every row is checked first: if any row has a problem, nothing is imported and each problem is listed by its line.
          At most {IMPORT_MAX_ROWS} rows and 1 MB per file; save it as &quot;CSV UTF-8&quot;.
        </p>
        <p>
          <a href="/admin/products/export.csv" className="font-medium text-wood-700 underline">Download the current list as CSV</a>
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
