// /admin/account: the signed-in staff member's own account (docs/decisions/0033). Change the
// password (the customers' password rules; every other session of the account ends), two-step
// sign-in (set up, new recovery codes, off where it is not required; each asks the current
// password), the account's active sessions (device, address, signed in, last seen), and 'Sign out
// everywhere'. Open to every staff member (their own account only).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/Link";
import { RecoveryCodes } from "~/components/AdminAccess";
import { FormBanner } from "~/components/FormBanner";
import { FormField, fieldA11y } from "~/components/FormField";
import { pageAction } from "~/lib/form.server";
import { AppError } from "~/lib/errors.server";
import { assertSameOrigin, parseWith, readForm, refuseUnknownFields } from "~/lib/http.server";
import { commitSession, destroySession, getSession, rotateSession } from "~/lib/session.server";
import { redirectWithToast } from "~/lib/toast.server";
import { changeStaffPassword, checkStaffPassword } from "~/models/staff/sign-in.server";
import { listStaffSessions, signOutEverywhere } from "~/models/staff/sessions.server";
import { twoStepRequiredFor } from "~/models/staff/staff.server";
import { recoveryCodesLeft, renewRecoveryCodes, turnOffTwoStep } from "~/models/staff/two-step.server";
import { requireStaff, STAFF_ABSOLUTE_MS, STAFF_IDLE_MS } from "~/web/staff.server";
import { TWO_STEP_SETUP_PATH } from "~/utils/admin-access";
import { ChangePasswordSchema, PASSWORD_MAX } from "~/utils/account-schemas";
import type { FormFailure } from "~/utils/forms";
import type { RoutePermissions } from "~/utils/staff-permissions";
import { ROLE_LABELS } from "~/utils/staff-permissions";

export const handle = { section: "My account" };

export const permissions = { loader: null, action: null } satisfies RoutePermissions;

const BUILTIN_HAS_NO_ACCOUNT = "The built-in owner has no staff account: sign in with your own email to manage one.";

export async function loader({ request }: LoaderFunctionArgs) {
  const { staff } = await requireStaff(request, permissions.loader);
  if (!staff) return { account: null, sessions: [], codesLeft: 0, required: false };
  const session = await getSession(request);
  const [sessions, codesLeft, required] = await Promise.all([
    listStaffSessions(staff.id, session.id || undefined, { idleMs: STAFF_IDLE_MS, absoluteMs: STAFF_ABSOLUTE_MS }),
    recoveryCodesLeft(staff.id),
    twoStepRequiredFor(staff),
  ]);
  return {
    account: { name: staff.name, email: staff.email, role: ROLE_LABELS[staff.role], twoStepEnabled: staff.twoStepEnabled },
    sessions,
    codesLeft,
    required,
  };
}

/** The signed-in staff member (the built-in owner has no account to change); any field but `fields` refused. */
async function ownAccount(request: Request, form: FormData, fields: string[] = []) {
  const visitor = await requireStaff(request, permissions.action);
  refuseUnknownFields(form.keys(), ["intent", ...fields]);
  if (!visitor.staff) throw new AppError(400, BUILTIN_HAS_NO_ACCOUNT);
  return visitor as typeof visitor & { staff: NonNullable<typeof visitor.staff> };
}

export async function action({ request }: ActionFunctionArgs) {
  return pageAction(
    request,
    {
      intents: {
        password: async (form) => {
          const { staff } = await ownAccount(request, form, ["currentPassword", "newPassword", "confirmPassword"]);
          const input = parseWith(ChangePasswordSchema, {
            currentPassword: form.get("currentPassword"),
            newPassword: form.get("newPassword"),
            confirmPassword: form.get("confirmPassword"),
          });
          const session = await getSession(request);
          await changeStaffPassword(staff.id, input, session.id || undefined);
          // A new session id after the change; every other session of the account has ended.
          const fresh = await rotateSession(session);
          const headers = new Headers({ "Set-Cookie": await commitSession(fresh, request) });
          return redirectWithToast(
            request,
            "/admin/account",
            { type: "success", title: "Password changed. Your other sessions were signed out." },
            { headers },
          );
        },
        "recovery-codes": async (form) => {
          const { staff } = await ownAccount(request, form, ["currentPassword"]);
          await checkStaffPassword(staff.id, form.get("currentPassword"));
          return { ok: true as const, recoveryCodes: await renewRecoveryCodes(staff.id) };
        },
        "two-step-off": async (form) => {
          const { staff, actor } = await ownAccount(request, form, ["currentPassword"]);
          if (await twoStepRequiredFor(staff))
            throw new AppError(400, "Two-step sign-in is required for your account and cannot be turned off.");
          await checkStaffPassword(staff.id, form.get("currentPassword"));
          await turnOffTwoStep(staff.id, actor);
          return redirectWithToast(request, "/admin/account", { type: "success", title: "Two-step sign-in is off" });
        },
        "signout-all": async (form) => {
          const { staff } = await ownAccount(request, form);
          await signOutEverywhere(staff.id);
          const session = await getSession(request);
          return redirect("/", { status: 303, headers: { "Set-Cookie": await destroySession(session, request) } });
        },
      },
    },
    {
      // The site check and the guard before the form is read: a stranger's post is refused whatever it holds.
      read: async (req, limit) => {
        assertSameOrigin(req);
        await requireStaff(req, permissions.action);
        return readForm(req, limit);
      },
    },
  );
}

const dateTime = (iso: string) =>
  new Intl.DateTimeFormat("en-IN", { dateStyle: "medium", timeStyle: "short", timeZone: "Asia/Kolkata" }).format(new Date(iso));

function PasswordField({
  id,
  name,
  label,
  error,
  autoComplete,
}: {
  id: string;
  name: string;
  label: string;
  error?: string;
  autoComplete: string;
}) {
  return (
    <FormField id={id} label={label} required error={error}>
      <input
        id={id}
        name={name}
        type="password"
        required
        maxLength={PASSWORD_MAX}
        autoComplete={autoComplete}
        className="field-input"
        {...fieldA11y(id, error)}
      />
    </FormField>
  );
}

export default function AdminAccount() {
  const { account, sessions, codesLeft, required } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>() as
    (FormFailure & { recoveryCodes?: undefined }) | { ok: true; recoveryCodes: string[] } | undefined;
  const failure = answer && answer.ok === false ? answer : null;
  const fields = failure?.fieldErrors ?? {};

  if (!account) {
    return (
      <div className="card max-w-2xl p-6">
        <p className="text-sm text-stone-700">{BUILTIN_HAS_NO_ACCOUNT}</p>
      </div>
    );
  }
  return (
    <div className="max-w-3xl space-y-6">
      <FormBanner message={failure?.formError} />
      <section className="card p-6" aria-labelledby="account-heading">
        <h2 id="account-heading" className="text-lg font-semibold">
          {account.name}
        </h2>
        <p className="text-sm text-stone-600">
          {account.email} · {account.role}
        </p>
      </section>

      <section className="card p-6" aria-labelledby="password-heading">
        <h2 id="password-heading" className="text-lg font-semibold">
          Change password
        </h2>
        <Form method="post" className="mt-4 max-w-sm space-y-4">
          <input type="hidden" name="intent" value="password" />
          <PasswordField
            id="current-password"
            name="currentPassword"
            label="Current password"
            autoComplete="current-password"
            error={fields.currentPassword}
          />
          <PasswordField id="new-password" name="newPassword" label="New password" autoComplete="new-password" error={fields.newPassword} />
          <PasswordField
            id="confirm-password"
            name="confirmPassword"
            label="Confirm new password"
            autoComplete="new-password"
            error={fields.confirmPassword}
          />
          <button type="submit" className="btn-primary">
            Change password
          </button>
        </Form>
      </section>

      <section className="card p-6" aria-labelledby="two-step-heading">
        <h2 id="two-step-heading" className="text-lg font-semibold">
          Two-step sign-in
        </h2>
        {answer?.ok === true && answer.recoveryCodes ? (
          <div className="mt-3">
            <RecoveryCodes codes={answer.recoveryCodes} />
          </div>
        ) : null}
        {account.twoStepEnabled ? (
          <>
            <p className="mt-2 text-sm text-stone-700">
              On: you sign in with a code from your authenticator app. {codesLeft} of 10 recovery codes unused.
              {required ? " Required for your account." : ""}
            </p>
            <Form method="post" className="mt-4 flex max-w-md flex-wrap items-end gap-3">
              <div className="grow">
                <label htmlFor="two-step-password" className="field-label">
                  Current password
                </label>
                <input
                  id="two-step-password"
                  name="currentPassword"
                  type="password"
                  required
                  maxLength={PASSWORD_MAX}
                  autoComplete="current-password"
                  className="field-input"
                />
              </div>
              <button type="submit" name="intent" value="recovery-codes" className="btn-secondary">
                New recovery codes
              </button>
              {required ? null : (
                <button type="submit" name="intent" value="two-step-off" className="btn-ghost">
                  Turn off
                </button>
              )}
            </Form>
          </>
        ) : (
          <>
            <p className="mt-2 text-sm text-stone-700">
              Off{required ? ", but required for your account" : ""}. Sign in with a code from an authenticator app as well as your
              password.
            </p>
            <Link to={TWO_STEP_SETUP_PATH} className="btn-primary mt-4 inline-flex">
              Set up two-step sign-in
            </Link>
          </>
        )}
      </section>

      <section className="card p-6" aria-labelledby="sessions-heading">
        <h2 id="sessions-heading" className="text-lg font-semibold">
          Active sessions
        </h2>
        <ul aria-labelledby="sessions-heading" className="mt-3 divide-y divide-sand-200">
          {sessions.map((s) => (
            <li key={s.key} className="py-3 text-sm">
              <p className="font-medium text-stone-900">
                {s.device}
                {s.current ? <span className="ml-2 rounded-full bg-wood-50 px-2 py-0.5 text-xs text-wood-700">This device</span> : null}
              </p>
              <p className="text-stone-600">
                {s.address ?? "Address unknown"} · signed in {dateTime(s.signedInAt)} · last seen {dateTime(s.lastSeenAt)}
              </p>
            </li>
          ))}
        </ul>
        <Form method="post" className="mt-4">
          <input type="hidden" name="intent" value="signout-all" />
          <button type="submit" className="btn-secondary">
            Sign out everywhere
          </button>
        </Form>
      </section>
    </div>
  );
}
