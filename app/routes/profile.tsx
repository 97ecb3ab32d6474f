import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { z } from "zod";
import { FormBanner } from "~/components/AuthLayout";
import { fieldProps, FormField, RuleField } from "~/components/FormField";
import { BoxIcon, LockIcon, LogoutIcon, UserIcon } from "~/components/icons";
import { OtpInput } from "~/components/OtpInput";
import { useFormErrors } from "~/components/useFormErrors";
import { isAppError } from "~/lib/errors.server";
import { pageAction } from "~/lib/form.server";
import { parseWith, readForm } from "~/lib/http.server";
import { clientOf } from "~/lib/rate-limit.server";
import { commitSession, getSession, rotateSession } from "~/lib/session.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { User } from "~/models/users/users.server";
import {
  cancelEmailChange,
  confirmEmailChange,
  pendingEmailChange,
  resendEmailChangeCode,
  updateProfile,
} from "~/models/users/profile.server";
import { changePassword } from "~/models/users/password.server";
import { CHANGE_PASSWORD_FIELDS, EMAIL_CHANGE_FIELDS, PROFILE_FIELDS } from "~/utils/account-fields";
import { ChangePasswordSchema, ConfirmEmailSchema, CurrentPasswordSchema, ProfileSchema } from "~/utils/account-schemas";
import { useIsPending } from "~/utils/hooks";
import { requireUser } from "~/web/auth.server";

export const meta: MetaFunction = () => [{ title: "My Account | Sagwan Living" }, { name: "robots", content: "noindex" }];

const PROFILE_FAILED = "Failed to update profile. Please try again.";
const IntentSchema = z.enum(["profile", "password", "confirm-email", "resend-email-code", "cancel-email-change"], {
  error: "Unknown action",
});
type Intent = z.infer<typeof IntentSchema>;
/** The forms of the 'Confirm your new email' card. */
const EMAIL_INTENTS: readonly string[] = ["confirm-email", "resend-email-code", "cancel-email-change"];

/** Which of the page's forms was sent: anything unknown counts as the profile's. */
function intentOf(form: FormData): Intent {
  return IntentSchema.safeParse(form.get("intent")).data ?? "profile";
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const params = new URL(request.url).searchParams;
  return {
    user,
    editing: params.get("edit") === "1",
    changingPassword: params.get("password") === "1",
    emailChange: await pendingEmailChange(user.id),
  };
}

/** What the forms show again after a refusal (passwords never); the intent says which form failed. */
const ECHO = ["name", "email", "mobile"];

export async function action({ request }: ActionFunctionArgs) {
  return pageAction(request, (form) => saveForm(request, form), {
    // A body that cannot be read fails as the profile form would.
    read: (r, limit) => asProfileFailure(() => readForm(r, limit)),
    echo: ECHO,
    echoExtra,
    unexpected: PROFILE_FAILED,
  });
}

const HANDLERS: Record<Exclude<Intent, "profile">, (request: Request, userId: number, form: FormData) => Promise<Response>> = {
  password: savePassword,
  "confirm-email": confirmEmail,
  "resend-email-code": resendEmailCode,
  "cancel-email-change": cancelChange,
};

async function saveForm(request: Request, form: FormData) {
  const user = await requireUser(request);
  const intent = intentOf(form);
  if (intent === "profile") return asProfileFailure(() => saveProfile(request, user.id, form));
  // The other forms' refusals keep their own messages; an unforeseen failure says the general one.
  return pageAction(request, () => HANDLERS[intent](request, user.id, form), {
    read: async () => form,
    echo: ECHO,
    echoExtra,
    unexpected: "An error occurred. Please try again.",
  });
}

function echoExtra(form: FormData) {
  return { intent: intentOf(form) };
}

/** docs/product.md: a refused profile save says PROFILE_FAILED, and the field messages say why. */
async function asProfileFailure<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isAppError(error) && (error.status === 400 || error.status === 409)) throw error.withMessage(PROFILE_FAILED);
    throw error;
  }
}

async function saveProfile(request: Request, userId: number, form: FormData) {
  parseWith(IntentSchema, form.get("intent")); // a post of neither form: 'Unknown action'
  const input = parseWith(ProfileSchema, { name: form.get("name"), email: form.get("email"), mobile: form.get("mobile") });
  const { currentPassword } = parseWith(CurrentPasswordSchema, { currentPassword: form.get("currentPassword") });
  const { emailChange } = await updateProfile(userId, input, currentPassword, clientOf(request));
  // A new email waits for its code: the page shows the 'Confirm your new email' card.
  const description = emailChange ? `Your email changes once you enter the code we sent to ${emailChange.pendingEmail}.` : undefined;
  return redirectWithToast(request, "/profile", { type: "success", title: "Profile updated successfully!", description });
}

async function confirmEmail(request: Request, userId: number, form: FormData) {
  const { code } = parseWith(ConfirmEmailSchema, { code: form.getAll("code").map(String) });
  const user = await confirmEmailChange(userId, code, clientOf(request));
  return redirectWithToast(request, "/profile", {
    type: "success",
    title: "Email address changed successfully!",
    description: `We will write to ${user.email} from now on.`,
  });
}

async function resendEmailCode(request: Request, userId: number) {
  const { pendingEmail } = await resendEmailChangeCode(userId, clientOf(request));
  return redirectWithToast(request, "/profile", { type: "success", title: `A new code has been sent to ${pendingEmail}` });
}

async function cancelChange(request: Request, userId: number) {
  await cancelEmailChange(userId);
  return redirectWithToast(request, "/profile", {
    type: "success",
    title: "Email change cancelled",
    description: "Your email stays as it was.",
  });
}

async function savePassword(request: Request, userId: number, form: FormData) {
  const input = parseWith(ChangePasswordSchema, {
    currentPassword: form.get("currentPassword"),
    newPassword: form.get("newPassword"),
    confirmPassword: form.get("confirmPassword"),
  });
  const session = await getSession(request);
  await changePassword(userId, input, session.id);
  // A new session id after the change; every other device is already signed out.
  const fresh = await rotateSession(session);
  const headers = new Headers({ "Set-Cookie": await commitSession(fresh, request) });
  return redirectWithToast(request, "/profile", { type: "success", title: "Password changed successfully" }, { headers });
}

export default function ProfileRoute() {
  const { user, editing, changingPassword, emailChange } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  // A body that could not be read (too large, from another site) failed as the profile form.
  const failedIntent = result ? (result.values?.intent ?? "profile") : undefined;
  const emailResult = failedIntent && EMAIL_INTENTS.includes(failedIntent) ? result : undefined;

  return (
    <div className="bg-sand-50">
      <div className="container-page py-10 sm:py-14">
        <h1 className="text-3xl font-semibold sm:text-4xl">My Account</h1>
        <p className="mt-2 text-stone-600">Hello, {user.name}. Keep your details up to date for smooth deliveries.</p>
        <div className="mt-8 grid grid-cols-1 gap-6 lg:grid-cols-4">
          <AccountMenu />
          <div className="space-y-6 lg:col-span-3">
            {emailChange || emailResult ? (
              <ConfirmEmail
                pendingEmail={emailChange?.pendingEmail ?? null}
                currentEmail={user.email}
                result={emailResult}
                // The code is what the page waits for, unless another form is open.
                autoFocus={!editing && !changingPassword && !(failedIntent && !emailResult)}
              />
            ) : null}
            <PersonalInformation
              user={user}
              editing={editing || failedIntent === "profile"}
              result={failedIntent === "profile" ? result : undefined}
            />
            <AccountSecurity
              open={changingPassword || failedIntent === "password"}
              result={failedIntent === "password" ? result : undefined}
            />
          </div>
        </div>
      </div>
    </div>
  );
}

function AccountMenu() {
  const item = [
    "flex min-h-12 w-full items-center justify-center gap-3 whitespace-nowrap rounded-lg px-3 text-left text-sm font-medium",
    "sm:text-base lg:justify-start lg:px-4",
  ].join(" ");
  return (
    <nav aria-label="Account" className="card h-fit p-2">
      <ul className="grid grid-cols-3 gap-1 lg:grid-cols-1">
        <li>
          <span aria-current="page" className={`${item} bg-wood-50 text-wood-800`}>
            <UserIcon className="hidden h-5 w-5 sm:block" /> My Account
          </span>
        </li>
        <li>
          <Link to="/orders" className={`${item} text-ink hover:bg-sand-100`}>
            <BoxIcon className="hidden h-5 w-5 sm:block" /> Order History
          </Link>
        </li>
        <li>
          <Form method="post" action="/logout">
            <input type="hidden" name="redirectTo" value="/login" />
            <button type="submit" className={`${item} text-red-700 hover:bg-red-50`}>
              <LogoutIcon className="hidden h-5 w-5 sm:block" /> Logout
            </button>
          </Form>
        </li>
      </ul>
    </nav>
  );
}

function Card({ title, action, children }: { title: string; action?: ReactNode; children: ReactNode }) {
  const id = title.toLowerCase().replace(/\W+/g, "-");
  return (
    <section aria-labelledby={id} className="card p-5 sm:p-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id={id} className="text-xl font-semibold">
          {title}
        </h2>
        {action}
      </div>
      <div className="mt-5">{children}</div>
    </section>
  );
}

type Result = ReturnType<typeof useActionData<typeof action>>;

function PersonalInformation({ user, editing, result }: { user: User; editing: boolean; result: Result }) {
  const errors = useFormErrors(result);
  const saving = useIsPending({ intent: "profile" });
  const toggle = editing ? (
    <Link to="/profile" className="btn-ghost" replace>
      Cancel
    </Link>
  ) : (
    <Link to="/profile?edit=1" className="btn-secondary" replace>
      Edit
    </Link>
  );

  if (!editing) {
    return (
      <Card title="Personal Information" action={toggle}>
        <dl className="grid grid-cols-1 gap-5 sm:grid-cols-2">
          <Detail label="Full Name" value={user.name} />
          <Detail label="Email Address" value={user.email} />
          <Detail label="Mobile Number" value={user.mobile ?? "Not provided"} muted={!user.mobile} />
        </dl>
      </Card>
    );
  }
  const value = (name: keyof User) => errors.value(name) ?? String(user[name] ?? "");
  const passwordError = errors.error("currentPassword");
  return (
    <Card title="Personal Information" action={toggle}>
      <Form method="post" action="/profile" onChange={errors.onChange} className="space-y-5">
        <FormBanner message={errors.formError} />
        <input type="hidden" name="intent" value="profile" />
        <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
          <RuleField
            id="profile-name"
            name="name"
            label="Full Name"
            rule={PROFILE_FIELDS.name}
            requiredBy="server"
            autoComplete="name"
            defaultValue={value("name")}
            error={errors.error("name")}
          />
          <RuleField
            id="profile-email"
            name="email"
            label="Email Address"
            rule={PROFILE_FIELDS.email}
            requiredBy="server"
            autoComplete="email"
            defaultValue={value("email")}
            error={errors.error("email")}
          />
          <RuleField
            id="profile-mobile"
            name="mobile"
            label="Mobile Number"
            rule={PROFILE_FIELDS.mobile}
            requiredBy="server"
            inputMode="numeric"
            autoComplete="tel-national"
            defaultValue={value("mobile")}
            error={errors.error("mobile")}
          />
          {/* The hint is described too, so this input spells out its aria props. */}
          <FormField id="profile-current-password" label="Current Password" error={passwordError}>
            <input
              id="profile-current-password"
              name="currentPassword"
              {...fieldProps(EMAIL_CHANGE_FIELDS.currentPassword)}
              autoComplete="current-password"
              className="field-input"
              aria-invalid={passwordError ? true : undefined}
              aria-describedby={
                passwordError ? "profile-current-password-error profile-current-password-hint" : "profile-current-password-hint"
              }
            />
            <p id="profile-current-password-hint" className="mt-1 text-xs text-stone-600">
              Needed only to change your email address. We then send a code to the new address.
            </p>
          </FormField>
        </div>
        <div className="flex flex-wrap gap-3">
          <button type="submit" className="btn-primary" disabled={saving}>
            {saving ? "Saving..." : "Save Changes"}
          </button>
          <Link to="/profile" className="btn-ghost" replace>
            Cancel
          </Link>
        </div>
      </Form>
    </Card>
  );
}

/**
 * A new email waiting for the code mailed to it: the four boxes and Confirm, a resend and a
 * cancel, each a plain form. Without a change waiting (it ended meanwhile) only the message of
 * the refused form shows.
 */
function ConfirmEmail({
  pendingEmail,
  currentEmail,
  result,
  autoFocus,
}: {
  pendingEmail: string | null;
  currentEmail: string;
  result: Result;
  autoFocus: boolean;
}) {
  const errors = useFormErrors(result);
  const confirming = useIsPending({ intent: "confirm-email" });
  const resending = useIsPending({ intent: "resend-email-code" });
  const cancelling = useIsPending({ intent: "cancel-email-change" });
  const codeError = errors.error("code");
  const link = "inline-flex min-h-11 items-center text-sm font-semibold hover:underline disabled:opacity-60";
  return (
    <Card title="Confirm your new email">
      {/* A refusal of the code stands beside the boxes; others (a resend with nothing waiting, too many tries) show here. */}
      <FormBanner message={pendingEmail && codeError ? undefined : errors.formError} />
      {pendingEmail ? (
        <>
          <p className="text-stone-700">
            We sent a 4-digit code to <strong className="break-all text-ink">{pendingEmail}</strong>. Enter it to make that your
            account&apos;s email. Until then we keep writing to <span className="break-all">{currentEmail}</span>.
          </p>
          <Form method="post" action="/profile" onChange={errors.onChange} className="mt-5 max-w-sm space-y-4">
            <input type="hidden" name="intent" value="confirm-email" />
            <OtpInput
              name="code"
              legend="Enter the 4-digit code"
              autoFocus={autoFocus}
              error={codeError}
              describedBy={codeError ? "confirm-code-error" : "confirm-code-help"}
            />
            {codeError ? (
              <p id="confirm-code-error" className="field-error text-center">
                {codeError}
              </p>
            ) : (
              <p id="confirm-code-help" className="text-center text-xs text-stone-600">
                The code works once, for 10 minutes. Check the spam folder too.
              </p>
            )}
            <button type="submit" className="btn-primary w-full" disabled={confirming}>
              {confirming ? "Confirming..." : "Confirm"}
            </button>
          </Form>
          <div className="mt-3 flex max-w-sm flex-wrap justify-between gap-x-6">
            <Form method="post" action="/profile">
              <input type="hidden" name="intent" value="resend-email-code" />
              <button type="submit" className={`${link} text-wood-700`} disabled={resending}>
                {resending ? "Sending..." : "Resend code"}
              </button>
            </Form>
            <Form method="post" action="/profile">
              <input type="hidden" name="intent" value="cancel-email-change" />
              <button type="submit" className={`${link} text-stone-700`} disabled={cancelling}>
                {cancelling ? "Cancelling..." : "Cancel email change"}
              </button>
            </Form>
          </div>
        </>
      ) : (
        <Link to="/profile?edit=1" className="btn-secondary" replace>
          Edit your details
        </Link>
      )}
    </Card>
  );
}

function Detail({ label, value, muted }: { label: string; value: string; muted?: boolean }) {
  return (
    <div>
      <dt className="text-sm text-stone-600">{label}</dt>
      <dd className={`mt-1 break-all font-medium ${muted ? "text-stone-500 italic" : "text-ink"}`}>{value}</dd>
    </div>
  );
}

function AccountSecurity({ open, result }: { open: boolean; result: Result }) {
  const errors = useFormErrors(result);
  const saving = useIsPending({ intent: "password" });
  const note = (
    <p className="flex gap-3 text-sm text-stone-600">
      <LockIcon className="h-5 w-5 shrink-0 text-wood-600" />
      Use a strong, unique password that you do not use on any other site. Changing it signs out every other device.
    </p>
  );
  if (!open) {
    return (
      <Card
        title="Account Security"
        action={
          <Link to="/profile?password=1" className="btn-secondary whitespace-nowrap" replace>
            Change Password
          </Link>
        }
      >
        {note}
      </Card>
    );
  }
  const field = (id: string, name: keyof typeof CHANGE_PASSWORD_FIELDS, label: string, autoComplete: string) => (
    <RuleField
      id={id}
      name={name}
      label={label}
      rule={CHANGE_PASSWORD_FIELDS[name]}
      requiredBy="server"
      autoComplete={autoComplete}
      error={errors.error(name)}
    />
  );
  return (
    <Card
      title="Account Security"
      action={
        <Link to="/profile" className="btn-ghost" replace>
          Cancel
        </Link>
      }
    >
      <div className="space-y-5">
        {note}
        <Form method="post" action="/profile" onChange={errors.onChange} className="max-w-md space-y-5">
          <FormBanner message={errors.formError} />
          <input type="hidden" name="intent" value="password" />
          {field("current-password", "currentPassword", "Current Password", "current-password")}
          {field("new-password", "newPassword", "New Password", "new-password")}
          {field("confirm-password", "confirmPassword", "Confirm New Password", "new-password")}
          <button type="submit" className="btn-primary" disabled={saving}>
            {saving ? "Updating..." : "Update Password"}
          </button>
        </Form>
      </div>
    </Card>
  );
}
