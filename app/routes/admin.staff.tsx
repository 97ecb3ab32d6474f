// Admin: staff accounts (docs/product.md, Staff and roles), the owner's page. Every account with
// its role, state, two-step sign-in and last sign-in; the invitation form (a mailed link where the
// person chooses a password); per account: change the role, disable or enable, require two-step
// sign-in, send the invitation again; and the shop-wide 'two-step sign-in for all staff' switch.
// Each is a plain form with its `intent`, working without JavaScript; every write is audited.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AdminTable, EmptyRow } from "~/components/AdminUI";
import { FormBanner } from "~/components/FormBanner";
import { FormField, RuleField, fieldA11y } from "~/components/FormField";
import { useFormErrors } from "~/hooks/useFormErrors";
import { useIsPending } from "~/hooks/useIsPending";
import { StaffRow } from "~/components/staff/StaffRow";
import { AppError } from "~/lib/errors.server";
import { pageAction } from "~/lib/form.server";
import { assertSameOrigin, parseWith, readForm, refuseUnknownFields } from "~/lib/http.server";
import { publicOrigin } from "~/lib/mail.server";
import { redirectWithToast } from "~/lib/toast.server";
import { inviteStaff, listStaff, resendInvitation } from "~/models/staff/accounts.server";
import {
  changeRole,
  disableStaff,
  enableStaff,
  resetTwoStep,
  setTwoStepForAll,
  setTwoStepRequired,
} from "~/models/staff/owner-changes.server";
import { twoStepForAll } from "~/models/staff/staff.server";
import { CHECK_FIELDS } from "~/utils/forms";
import { IdSchema } from "~/utils/schemas";
import { STAFF_FIELDS } from "~/utils/staff-fields";
import type { Role, RoutePermissions } from "~/utils/staff-permissions";
import { ROLE_LABELS, ROLE_SUMMARIES, ROLES } from "~/utils/staff-permissions";
import { InviteSchema, RoleSchema, SwitchSchema } from "~/utils/staff-schemas";
import { requireStaff } from "~/web/staff.server";

export const handle = { section: "Staff" };

export const permissions = { loader: "staff.manage", action: "staff.manage" } satisfies RoutePermissions;

export async function loader({ request }: LoaderFunctionArgs) {
  const { staff } = await requireStaff(request, permissions.loader);
  const [rows, forAll] = await Promise.all([listStaff(), twoStepForAll()]);
  return { rows, forAll, me: staff?.id ?? null, now: new Date().toISOString() };
}

/** Every field any of the page's forms sends: anything else is refused (400 'Unknown field: …'). */
const FIELDS = ["intent", "id", "name", "email", "role", "on"];

/** The Origin check and the guard before the body is read, then only the page's own fields. */
async function staffForm(request: Request, limit?: number): Promise<FormData> {
  assertSameOrigin(request);
  await requireStaff(request, permissions.action);
  const form = await readForm(request, limit);
  refuseUnknownFields(form.keys(), FIELDS);
  return form;
}

const BACK = "/admin/staff";

/** The invitation's fields: their messages stand beside them, the banner says to look there. */
function parseInvite(form: FormData) {
  try {
    return parseWith(InviteSchema, { name: form.get("name"), email: form.get("email"), role: form.get("role") });
  } catch (error) {
    if (error instanceof AppError && Object.keys(error.fieldErrors ?? {}).length > 0) throw error.withMessage(CHECK_FIELDS);
    throw error;
  }
}

export async function action({ request }: ActionFunctionArgs) {
  const done = (title: string, description?: string) => redirectWithToast(request, BACK, { type: "success", title, description });
  const actor = async () => (await requireStaff(request, permissions.action)).actor;
  const idOf = (form: FormData) => parseWith(IdSchema, form.get("id"));
  const onOf = (form: FormData) => parseWith(SwitchSchema, form.get("on"));
  return pageAction(
    request,
    {
      intents: {
        invite: async (form) => {
          const input = parseInvite(form);
          const made = await inviteStaff(await actor(), input, publicOrigin());
          return done(`Invitation sent to ${made.email}`, "The link works once, within 48 hours.");
        },
        role: async (form) => {
          const role = parseWith(RoleSchema, form.get("role"));
          const changed = await changeRole(await actor(), idOf(form), role);
          return done(`${changed.name} is now ${ROLE_LABELS[changed.role]}`);
        },
        disable: async (form) => {
          const changed = await disableStaff(await actor(), idOf(form));
          return done(`${changed.name} is disabled`, "Every session of the account has ended.");
        },
        enable: async (form) => {
          const changed = await enableStaff(await actor(), idOf(form));
          return done(`${changed.name} is enabled`);
        },
        "two-step": async (form) => {
          const on = onOf(form);
          const changed = await setTwoStepRequired(await actor(), idOf(form), on);
          return done(on ? `Two-step sign-in required for ${changed.name}` : `Two-step sign-in no longer required for ${changed.name}`);
        },
        "reset-two-step": async (form) => {
          const changed = await resetTwoStep(await actor(), idOf(form));
          return done(
            `Two-step sign-in reset for ${changed.name}`,
            "Every session of the account has ended; the next sign-in sets it up again.",
          );
        },
        resend: async (form) => {
          const changed = await resendInvitation(await actor(), idOf(form), publicOrigin());
          return done(`Invitation sent again to ${changed.email}`, "The earlier link no longer works.");
        },
        "two-step-all": async (form) => {
          const on = onOf(form);
          await setTwoStepForAll(await actor(), on);
          return done(on ? "Two-step sign-in required for all staff" : "Two-step sign-in required by role and account only");
        },
      },
    },
    { read: staffForm, echo: ["intent", "id", "name", "email", "role"] },
  );
}

function InviteForm() {
  const result = useActionData<typeof action>();
  const mine = result?.values?.intent === "invite";
  const errors = useFormErrors(mine ? result : undefined);
  const busy = useIsPending({ state: "submitting", intent: "invite" });
  return (
    <section aria-labelledby="invite-title" className="card p-5">
      <h2 id="invite-title" className="font-display text-lg font-semibold">
        Invite a staff member
      </h2>
      <p className="mt-1 text-sm text-stone-600">
        They get a mail with a link to choose their password; it works once, within 48 hours. Owners and managers must also set up two-step
        sign-in.
      </p>
      <Form method="post" noValidate onChange={errors.onChange} className="mt-4 space-y-4">
        <FormBanner message={errors.formError} />
        <div className="grid gap-4 sm:grid-cols-3">
          <RuleField
            id="invite-name"
            name="name"
            label="Name"
            rule={STAFF_FIELDS.name}
            autoComplete="off"
            defaultValue={errors.value("name")}
            error={errors.error("name")}
          />
          <RuleField
            id="invite-email"
            name="email"
            label="Email"
            rule={STAFF_FIELDS.email}
            autoComplete="off"
            defaultValue={errors.value("email")}
            error={errors.error("email")}
          />
          <FormField id="invite-role" label="Role" required error={errors.error("role")}>
            <select
              id="invite-role"
              name="role"
              defaultValue={errors.value("role") ?? "support"}
              className="field-input"
              {...fieldA11y("invite-role", errors.error("role"))}
            >
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {ROLE_LABELS[r]}
                </option>
              ))}
            </select>
          </FormField>
        </div>
        <button type="submit" name="intent" value="invite" className="btn-primary" disabled={busy}>
          {busy ? "Sending..." : "Send Invitation"}
        </button>
      </Form>
    </section>
  );
}

function TwoStepForAll({ on }: { on: boolean }) {
  return (
    <section aria-labelledby="two-step-all-title" className="card p-5">
      <h2 id="two-step-all-title" className="font-display text-lg font-semibold">
        Two-step sign-in for all staff
      </h2>
      <p className="mt-1 text-sm text-stone-700" data-testid="two-step-all">
        {on
          ? "Required for every staff member: each signs in with a code from their phone after the password."
          : "Required for owners, managers and the accounts marked below; optional for everyone else."}
      </p>
      <Form method="post" className="mt-3">
        <input type="hidden" name="on" value={on ? "off" : "on"} />
        <button type="submit" name="intent" value="two-step-all" className="btn-secondary">
          {on ? "Stop requiring it for all staff" : "Require two-step sign-in for all staff"}
        </button>
      </Form>
    </section>
  );
}

function Roles() {
  return (
    <details className="card p-5">
      <summary className="cursor-pointer font-semibold">What each role may do</summary>
      <dl className="mt-3 grid gap-2 text-sm sm:grid-cols-2">
        {ROLES.map((r: Role) => (
          <div key={r}>
            <dt className="font-medium">{ROLE_LABELS[r]}</dt>
            <dd className="text-stone-700">{ROLE_SUMMARIES[r]}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

export default function AdminStaff() {
  const { rows, forAll, me, now } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const rowIntent = result?.values?.intent !== "invite";
  const failedId = rowIntent ? Number(result?.values?.id) : NaN;
  const rowError = result?.formError;
  return (
    <div className="space-y-5">
      {rowIntent ? <FormBanner message={rowError} /> : null}
      {/* Made afresh once an invitation adds a row, so a sent form starts empty again. */}
      <InviteForm key={rows.length} />
      <AdminTable label="Staff" head={["Status", "Name", "Role", "Two-step sign-in", "Last sign-in", "Actions"]}>
        {rows.length === 0 ? (
          <EmptyRow colSpan={6}>No staff accounts yet: invite the first one above.</EmptyRow>
        ) : (
          rows.map((row) => (
            <StaffRow key={row.id} row={row} forAll={forAll} me={me} now={now} error={row.id === failedId ? rowError : undefined} />
          ))
        )}
      </AdminTable>
      <TwoStepForAll on={forAll} />
      <Roles />
    </div>
  );
}
