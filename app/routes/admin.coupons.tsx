// Admin: coupons (docs/product.md, Coupons). Search by code, pages of 10, how often each was used,
// add/edit dialogs, pause and resume, delete (only a coupon no order used).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { AdminDialog, AdminTable, BehindDialog, DeleteDialog, EmptyRow, ListError, ListSearch, RowActions } from "~/components/AdminUI";
import { FormBanner } from "~/components/FormBanner";
import { FormField, fieldA11y, fieldProps } from "~/components/FormField";
import { Pagination } from "~/components/Pagination";
import { useFormErrors } from "~/hooks/useFormErrors";
import { parseWith } from "~/lib/http.server";
import type { AdminCoupon } from "~/models/coupons/admin.server";
import {
  couponFormCategories,
  createCoupon,
  deleteCoupon,
  getCouponForAdmin,
  listCouponsPage,
  setCouponPaused,
  updateCoupon,
} from "~/models/coupons/admin.server";
import { adminCrudAction, adminListLoader } from "~/web/admin-crud.server";
import { parseAdminListQuery } from "~/utils/admin-schemas";
import { listSearch } from "~/utils/admin-url";
import { COUPON_FIELDS, COUPON_KIND_LABELS, COUPON_KINDS, istDay } from "~/utils/coupon-fields";
import { CouponFormSchema } from "~/utils/coupon-schemas";
import { formatShortDate } from "~/utils/dates";
import { useIsPending } from "~/hooks/useIsPending";
import { formatPrice } from "~/utils/money";
import type { RoutePermissions } from "~/utils/staff-permissions";

export const handle = { section: "Coupons" };

export const permissions = { loader: "coupons.write", action: "coupons.write" } satisfies RoutePermissions;

const FIELDS = ["code", "kind", "value", "minSubtotal", "maxDiscount", "validFrom", "validUntil", "usageLimit", "perCustomerLimit"];

/** The list the page shows, read again after a write to find the page the staff go back to. */
const LIST = { filters: (url: URL) => ({ q: parseAdminListQuery(url).q }), list: listCouponsPage };

export const loader = ({ request }: LoaderFunctionArgs) =>
  adminListLoader(request, permissions.loader, {
    ...LIST,
    more: async () => ({ categories: await couponFormCategories() }),
    one: getCouponForAdmin,
  });

export const action = ({ request }: ActionFunctionArgs) =>
  adminCrudAction(request, {
    thing: "Coupon",
    permission: permissions.action,
    list: LIST,
    fields: FIELDS,
    moreFields: ["categoryIds"],
    parse: async (form) =>
      parseWith(CouponFormSchema, { ...Object.fromEntries(FIELDS.map((f) => [f, form.get(f)])), categoryIds: form.getAll("categoryIds") }),
    create: createCoupon,
    update: updateCoupon,
    remove: deleteCoupon,
    extraValues: (form) => ({ categoryIds: form.getAll("categoryIds").map(String).join(",") }),
    rowIntents: {
      pause: async (id, actor) => `Coupon ${await setCouponPaused(id, true, actor)} paused`,
      resume: async (id, actor) => `Coupon ${await setCouponPaused(id, false, actor)} resumed`,
    },
  });

type Status = { label: string; className: string };

/** Active, Paused, Scheduled, Expired or Used up, in words (colour is never the only signal). */
function statusOf(c: AdminCoupon, now: string): Status {
  if (c.paused) return { label: "Paused", className: "bg-stone-200 text-stone-800" };
  if (c.validUntil && now >= c.validUntil) return { label: "Expired", className: "bg-red-100 text-red-800" };
  if (c.validFrom && now < c.validFrom) return { label: "Scheduled", className: "bg-blue-100 text-blue-800" };
  if (c.usageLimit !== null && c.uses >= c.usageLimit) return { label: "Used up", className: "bg-amber-100 text-amber-900" };
  return { label: "Active", className: "bg-green-100 text-green-800" };
}

function validity(c: AdminCoupon): string {
  const from = c.validFrom ? formatShortDate(c.validFrom) : null;
  const until = c.validUntil ? formatShortDate(new Date(Date.parse(c.validUntil) - 1).toISOString()) : null;
  if (from && until) return `${from} – ${until}`;
  if (from) return `From ${from}`;
  if (until) return `Until ${until}`;
  return "Always";
}

export default function AdminCoupons() {
  const { list, error, q, dialog, editing } = useLoaderData<typeof loader>();
  const now = new Date().toISOString();
  return (
    <div>
      <BehindDialog dialogOpen={dialog !== null}>
        <ListSearch placeholder="Search codes..." q={q} addLabel="Add Coupon" />
        {error !== null ? (
          <ListError message={error} />
        ) : (
          <>
            <AdminTable label="Coupons" head={["Status", "Code", "Deal", "Conditions", "Valid", "Used", ""]}>
              {list.rows.length === 0 ? (
                <EmptyRow colSpan={7}>{q ? `No coupons match "${q}".` : "No coupons yet."}</EmptyRow>
              ) : (
                list.rows.map((c) => {
                  const status = statusOf(c, now);
                  return (
                    <tr key={c.id} data-testid="coupon-row">
                      <td className="px-4 py-3">
                        <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${status.className}`}>{status.label}</span>
                      </td>
                      <td className="px-4 py-3 font-mono font-semibold">{c.code}</td>
                      <td className="px-4 py-3">{c.deal}</td>
                      <td className="px-4 py-3 text-stone-700">
                        {c.minSubtotal > 0 ? `Subtotal from ${formatPrice(c.minSubtotal)}` : "Any subtotal"}
                        {c.categoryIds ? `; ${c.categoryTitles.join(", ") || "no category left"}` : ""}
                      </td>
                      <td data-label="Valid" className="px-4 py-3 text-stone-700">
                        {validity(c)}
                      </td>
                      <td data-label="Used" className="whitespace-nowrap px-4 py-3" data-testid="coupon-uses">
                        {c.uses}
                        {c.usageLimit !== null ? ` of ${c.usageLimit}` : ""}
                        {c.perCustomerLimit !== null ? ` (${c.perCustomerLimit} per customer)` : ""}
                        {c.held > 0 ? <span className="block text-xs text-stone-600">{c.held} held by payments being made</span> : null}
                      </td>
                      <td className="px-4 py-3">
                        <div className="flex items-center justify-end gap-1">
                          <PauseButton coupon={c} />
                          <RowActions id={c.id} name={c.code} />
                        </div>
                      </td>
                    </tr>
                  );
                })
              )}
            </AdminTable>
            <Pagination info={list.info} label="Coupons" />
          </>
        )}
      </BehindDialog>
      {dialog?.mode === "delete" && editing ? <DeleteCoupon coupon={editing} /> : null}
      {dialog?.mode === "new" || (dialog?.mode === "edit" && editing) ? (
        <CouponForm coupon={dialog.mode === "edit" ? editing : null} categories={list?.categories ?? []} />
      ) : null}
    </div>
  );
}

function PauseButton({ coupon }: { coupon: AdminCoupon }) {
  const location = useLocation();
  const intent = coupon.paused ? "resume" : "pause";
  return (
    <Form method="post" action={`${location.pathname}${listSearch(location.search)}`} preventScrollReset>
      <input type="hidden" name="id" value={coupon.id} />
      <button
        type="submit"
        name="intent"
        value={intent}
        className="btn-ghost px-3 py-1.5 text-sm"
        aria-label={`${coupon.paused ? "Resume" : "Pause"} ${coupon.code}`}
      >
        {coupon.paused ? "Resume" : "Pause"}
      </button>
    </Form>
  );
}

function DeleteCoupon({ coupon }: { coupon: AdminCoupon }) {
  const result = useActionData<typeof action>();
  return <DeleteDialog thing="coupon" id={coupon.id} name={coupon.code} error={result?.formError} />;
}

function NumberField({
  name,
  label,
  value,
  error,
  required,
  hint,
}: {
  name: keyof typeof COUPON_FIELDS;
  label: string;
  value: string;
  error?: string;
  required?: boolean;
  hint?: string;
}) {
  const id = `coupon-${name}`;
  return (
    <FormField id={id} label={label} required={required} optional={!required} error={error}>
      <input
        id={id}
        name={name}
        {...fieldProps(COUPON_FIELDS[name])}
        min={1}
        step={1}
        inputMode="numeric"
        placeholder={hint}
        defaultValue={value}
        className="field-input"
        {...fieldA11y(id, error)}
      />
    </FormField>
  );
}

/** A day in India's calendar (YYYY-MM-DD); empty: no bound. */
function DateField({ name, label, value, error }: { name: "validFrom" | "validUntil"; label: string; value: string; error?: string }) {
  const id = `coupon-${name}`;
  return (
    <FormField id={id} label={label} optional error={error}>
      <input id={id} type="date" name={name} defaultValue={value} className="field-input" {...fieldA11y(id, error)} />
    </FormField>
  );
}

function CouponForm({ coupon, categories }: { coupon: AdminCoupon | null; categories: { id: number; title: string }[] }) {
  const result = useActionData<typeof action>();
  const errors = useFormErrors(result);
  const busy = useIsPending({ state: "submitting" });
  const e = errors.error;
  const text = (name: string, fallback: string) => errors.value(name) ?? fallback;
  const opt = (n: number | null | undefined) => (n === null || n === undefined ? "" : String(n));
  const chosen = new Set((errors.value("categoryIds") ?? coupon?.categoryIds?.join(",") ?? "").split(",").filter(Boolean).map(Number));
  return (
    <AdminDialog title={coupon ? `Edit Coupon ${coupon.code}` : "Add Coupon"} wide>
      {(close) => (
        <Form method="post" noValidate onChange={errors.onChange} className="mt-4 space-y-4">
          <FormBanner message={errors.formError} />
          {coupon ? <input type="hidden" name="id" value={coupon.id} /> : null}
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id="coupon-code" label="Code" required error={e("code")}>
              <input
                id="coupon-code"
                name="code"
                {...fieldProps(COUPON_FIELDS.code)}
                readOnly={coupon !== null}
                autoComplete="off"
                placeholder="DIWALI10"
                defaultValue={text("code", coupon?.code ?? "")}
                className="field-input font-mono uppercase read-only:bg-sand-100"
                aria-describedby={e("code") ? "coupon-code-error coupon-code-hint" : "coupon-code-hint"}
                aria-invalid={e("code") ? true : undefined}
              />
              <p id="coupon-code-hint" className="mt-1 text-xs text-stone-600">
                {coupon ? "A code stays as it was made." : "Letters, digits, - and _; customers may type it in any case."}
              </p>
            </FormField>
            <FormField id="coupon-kind" label="Type" required error={e("kind")}>
              <select
                id="coupon-kind"
                name="kind"
                defaultValue={text("kind", coupon?.kind ?? "percent")}
                className="field-input"
                {...fieldA11y("coupon-kind", e("kind"))}
              >
                {COUPON_KINDS.map((k) => (
                  <option key={k} value={k}>
                    {COUPON_KIND_LABELS[k]}
                  </option>
                ))}
              </select>
            </FormField>
            <NumberField name="value" label="Value (% or ₹)" required value={text("value", opt(coupon?.value))} error={e("value")} />
            <NumberField
              name="maxDiscount"
              label="Maximum discount (₹)"
              hint="Percentages only"
              value={text("maxDiscount", opt(coupon?.maxDiscount))}
              error={e("maxDiscount")}
            />
            <NumberField
              name="minSubtotal"
              label="Minimum subtotal (₹)"
              value={text("minSubtotal", coupon && coupon.minSubtotal > 0 ? String(coupon.minSubtotal) : "")}
              error={e("minSubtotal")}
            />
            <div className="hidden sm:block" />
            <DateField
              name="validFrom"
              label="Valid from"
              value={text("validFrom", coupon?.validFrom ? istDay(coupon.validFrom) : "")}
              error={e("validFrom")}
            />
            <DateField
              name="validUntil"
              label="Valid until (last day)"
              value={text("validUntil", coupon?.validUntil ? istDay(coupon.validUntil, true) : "")}
              error={e("validUntil")}
            />
            <NumberField
              name="usageLimit"
              label="Total uses"
              hint="No limit"
              value={text("usageLimit", opt(coupon?.usageLimit))}
              error={e("usageLimit")}
            />
            <NumberField
              name="perCustomerLimit"
              label="Uses per customer"
              hint="No limit"
              value={text("perCustomerLimit", opt(coupon?.perCustomerLimit))}
              error={e("perCustomerLimit")}
            />
          </div>
          <fieldset className="rounded-lg border border-sand-200 p-3" aria-describedby="coupon-categories-hint">
            <legend className="px-1 text-sm font-medium">Only these categories</legend>
            <p id="coupon-categories-hint" className="text-xs text-stone-600">
              None ticked: the whole cart is discounted. Days are India&apos;s; the last day counts.
            </p>
            {e("categoryIds") ? <p className="field-error">{e("categoryIds")}</p> : null}
            <div className="mt-2 grid gap-1 sm:grid-cols-2">
              {categories.map((c) => (
                <label key={c.id} className="flex min-h-11 items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    name="categoryIds"
                    value={c.id}
                    defaultChecked={chosen.has(c.id)}
                    className="h-5 w-5 accent-wood-600"
                  />
                  {c.title}
                </label>
              ))}
            </div>
          </fieldset>
          <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
            {close}
            <button type="submit" name="intent" value={coupon ? "update" : "create"} className="btn-primary" disabled={busy}>
              {busy ? "Saving..." : coupon ? "Save Changes" : "Add Coupon"}
            </button>
          </div>
        </Form>
      )}
    </AdminDialog>
  );
}
