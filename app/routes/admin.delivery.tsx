// Admin: delivery zones (ADR 0017). Where the shop delivers, in how many business days, and with
// cash on delivery or not: by state, district or pincode range, plus the default zone for
// everywhere else; the most specific zone covering a pincode decides. Add/edit/delete dialogs.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { Link } from "~/components/Link";
import { AdminDialog, AdminTable, BehindDialog, DeleteDialog, RowActions } from "~/components/AdminUI";
import { FormBanner } from "~/components/FormBanner";
import { FormField, fieldA11y, fieldProps } from "~/components/FormField";
import { PlusIcon } from "~/components/icons";
import { useFormErrors } from "~/hooks/useFormErrors";
import { parseWith } from "~/lib/http.server";
import { createZone, deleteZone, districtsByState, getZone, listZones, updateZone } from "~/models/delivery/zones.server";
import { adminCrudAction } from "~/web/admin-crud.server";
import { dialogFromUrl } from "~/web/admin.server";
import { requireStaff } from "~/web/staff.server";
import type { RoutePermissions } from "~/utils/staff-permissions";
import { withParams } from "~/utils/admin-url";
import type { DeliveryZone } from "~/utils/delivery";
import { INDIAN_STATES, ZONE_FIELDS, ZONE_KIND_LABELS, ZONE_KINDS, zoneScope } from "~/utils/delivery";
import { ZoneFormSchema } from "~/utils/delivery-schemas";
import { useIsPending } from "~/hooks/useIsPending";

export const handle = { section: "Delivery" };

export const permissions = { loader: "delivery.manage", action: "delivery.manage" } satisfies RoutePermissions;

const CHECKBOX = "h-5 w-5 accent-wood-600";
const TEXT_FIELDS = ["kind", "state", "district", "pincodeFrom", "pincodeTo", "minDays", "maxDays", "label"] as const;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request, permissions.loader);
  const dialog = dialogFromUrl(new URL(request.url));
  const [zones, districts, editing] = await Promise.all([
    listZones(),
    districtsByState(),
    dialog && dialog.mode !== "new" ? getZone(dialog.id) : null,
  ]);
  return { zones, districts, dialog: dialog?.mode === "new" || editing ? dialog : null, editing };
}

export const action = ({ request }: ActionFunctionArgs) =>
  adminCrudAction(request, {
    thing: "Delivery zone",
    permission: permissions.action,
    fields: [...TEXT_FIELDS],
    moreFields: ["cod", "served"],
    parse: async (form) =>
      parseWith(ZoneFormSchema, {
        ...Object.fromEntries(TEXT_FIELDS.map((f) => [f, form.get(f)])),
        cod: form.get("cod"),
        served: form.get("served"),
      }),
    create: createZone,
    update: updateZone,
    remove: deleteZone,
    extraValues: (form) => ({ cod: form.get("cod") ? "on" : "", served: form.get("served") ? "on" : "" }),
  });

export default function AdminDelivery() {
  const { zones, districts, dialog, editing } = useLoaderData<typeof loader>();
  const location = useLocation();
  return (
    <div>
      <BehindDialog dialogOpen={dialog !== null}>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <p className="max-w-2xl text-sm text-stone-700">
            The most specific zone covering a pincode decides: a pincode range, then its district, then its state, then the default zone.
            Days are business days (Monday to Saturday, without gazetted holidays).
          </p>
          <Link to={`${location.pathname}${withParams("", { new: 1 })}`} preventScrollReset className="btn-primary shrink-0">
            <PlusIcon className="h-5 w-5" /> Add Zone
          </Link>
        </div>
        <AdminTable label="Delivery zones" head={["Kind", "Where", "Business days", "Cash on delivery", "Served", "Label", ""]}>
          {zones.map((z) => (
            <tr key={z.id} data-testid="zone-row">
              <td className="px-4 py-3 text-stone-600">{ZONE_KIND_LABELS[z.kind]}</td>
              <td className="px-4 py-3 font-medium">{zoneScope(z)}</td>
              <td data-label="Days" className="px-4 py-3">
                {z.served ? `${z.days.min}-${z.days.max}` : "—"}
              </td>
              <td data-label="Cash on delivery" className="px-4 py-3">
                {z.served && z.cod ? "Yes" : "No"}
              </td>
              <td data-label="Served" className="px-4 py-3">
                {z.served ? "Yes" : "No"}
              </td>
              <td className="px-4 py-3 text-stone-700">{z.label}</td>
              <td className="px-4 py-3">
                {z.kind === "default" ? (
                  <div className="flex justify-end">
                    <Link
                      to={withParams("", { edit: z.id })}
                      preventScrollReset
                      className="btn-ghost px-3 py-1.5 text-sm"
                      aria-label={`Edit ${zoneScope(z)}`}
                    >
                      Edit
                    </Link>
                  </div>
                ) : (
                  <RowActions id={z.id} name={zoneScope(z)} />
                )}
              </td>
            </tr>
          ))}
        </AdminTable>
      </BehindDialog>
      {dialog?.mode === "delete" && editing ? <DeleteZone zone={editing} /> : null}
      {dialog?.mode === "new" || (dialog?.mode === "edit" && editing) ? (
        <ZoneForm zone={dialog.mode === "edit" ? editing : null} districts={districts} />
      ) : null}
    </div>
  );
}

function DeleteZone({ zone }: { zone: DeliveryZone }) {
  const result = useActionData<typeof action>();
  return <DeleteDialog thing="delivery zone" id={zone.id} name={zoneScope(zone)} error={result?.formError} />;
}

function ZoneForm({ zone, districts }: { zone: DeliveryZone | null; districts: Record<string, string[]> }) {
  const result = useActionData<typeof action>();
  const errors = useFormErrors(result);
  const busy = useIsPending({ state: "submitting" });
  const posted = result !== undefined && "values" in result && result.values !== undefined;
  const text = (name: string, fallback: string | number | null | undefined) =>
    errors.value(name) ?? (fallback === null ? "" : String(fallback ?? ""));
  const checked = (name: "cod" | "served", fallback: boolean) => (posted ? errors.value(name) === "on" : fallback);
  const isDefault = zone?.kind === "default";
  const field = (name: (typeof TEXT_FIELDS)[number], label: string, fallback: string | number | null | undefined, extra = {}) => {
    const id = `zone-${name}`;
    return (
      <FormField id={id} label={label} required={"required" in ZONE_FIELDS[name]} error={errors.error(name)}>
        <input
          id={id}
          name={name}
          defaultValue={text(name, fallback)}
          {...fieldProps(ZONE_FIELDS[name])}
          {...extra}
          className="field-input"
          {...fieldA11y(id, errors.error(name))}
        />
      </FormField>
    );
  };
  return (
    <AdminDialog title={zone ? `Edit Zone: ${zoneScope(zone)}` : "Add Zone"} wide>
      {(close) => (
        <Form method="post" noValidate onChange={errors.onChange} className="mt-4 space-y-4">
          <FormBanner message={errors.formError} />
          {zone ? <input type="hidden" name="id" value={zone.id} /> : null}
          {isDefault ? (
            <input type="hidden" name="kind" value="default" />
          ) : (
            <>
              <FormField id="zone-kind" label="Covers" required error={errors.error("kind")}>
                <select
                  id="zone-kind"
                  name="kind"
                  defaultValue={text("kind", zone?.kind ?? "state")}
                  className="field-input"
                  {...fieldA11y("zone-kind", errors.error("kind"))}
                >
                  {ZONE_KINDS.map((k) => (
                    <option key={k} value={k}>
                      {ZONE_KIND_LABELS[k]}
                    </option>
                  ))}
                </select>
              </FormField>
              <p className="text-sm text-stone-600">
                A state zone needs the state; a district zone the state and the district; a range its pincodes.
              </p>
              <div className="grid gap-4 sm:grid-cols-2">
                <FormField id="zone-state" label="State" error={errors.error("state")}>
                  <select
                    id="zone-state"
                    name="state"
                    defaultValue={text("state", zone?.state)}
                    className="field-input"
                    {...fieldA11y("zone-state", errors.error("state"))}
                  >
                    <option value="">—</option>
                    {INDIAN_STATES.map((s) => (
                      <option key={s} value={s}>
                        {s}
                      </option>
                    ))}
                  </select>
                </FormField>
                {field("district", "District", zone?.district, { list: "zone-districts", autoComplete: "off" })}
                <datalist id="zone-districts">
                  {Object.entries(districts).flatMap(([state, names]) =>
                    names.map((d) => <option key={`${state}|${d}`} value={d} label={`${d}, ${state}`} />),
                  )}
                </datalist>
                {field("pincodeFrom", "First pincode", zone?.pincodeFrom, { inputMode: "numeric" })}
                {field("pincodeTo", "Last pincode", zone?.pincodeTo, { inputMode: "numeric" })}
              </div>
            </>
          )}
          <div className="grid gap-4 sm:grid-cols-2">
            {field("minDays", "Minimum business days", zone?.days.min, { min: 1, max: 60 })}
            {field("maxDays", "Maximum business days", zone?.days.max, { min: 1, max: 60 })}
          </div>
          {field("label", "Label", zone?.label, { placeholder: "Metro city" })}
          <div className="flex flex-wrap gap-6">
            <label className="flex min-h-11 items-center gap-2 text-sm font-medium">
              <input type="checkbox" name="served" defaultChecked={checked("served", zone?.served ?? true)} className={CHECKBOX} /> Served
            </label>
            <label className="flex min-h-11 items-center gap-2 text-sm font-medium">
              <input type="checkbox" name="cod" defaultChecked={checked("cod", zone?.cod ?? true)} className={CHECKBOX} /> Cash on delivery
              allowed
            </label>
          </div>
          <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
            {close}
            <button type="submit" name="intent" value={zone ? "update" : "create"} className="btn-primary" disabled={busy}>
              {busy ? "Saving..." : zone ? "Save Changes" : "Add Zone"}
            </button>
          </div>
        </Form>
      )}
    </AdminDialog>
  );
}
