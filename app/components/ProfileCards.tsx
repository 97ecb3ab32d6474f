// The cards of the account page (/profile). Each form on them posts to a route of its own
// (PROFILE_FORMS); when one is refused, that route draws its card with the messages in place
// of the page's own, so the page reads the same with its error in the right card.
import { Form, useOutletContext } from "@remix-run/react";
import { Link } from "./Link";
import type { ReactNode } from "react";
import { FormBanner } from "~/components/FormBanner";
import { fieldProps, FormField, RuleField } from "~/components/FormField";
import { LockIcon } from "~/components/account-icons";
import { OtpInput } from "~/components/OtpInput";
import type { FormResult } from "~/hooks/useFormErrors";
import { useFormErrors } from "~/hooks/useFormErrors";
import { useIsPending } from "~/hooks/useIsPending";
import type { User } from "~/models/users/users.server";
import { CHANGE_PASSWORD_FIELDS, EMAIL_CHANGE_FIELDS, PROFILE_FIELDS } from "~/utils/account-fields";

/** Where each of the page's forms posts: one route module each, under /profile. */
export const PROFILE_FORMS = {
  details: "/profile/details",
  password: "/profile/password",
  confirmEmail: "/profile/email/confirm",
  resendEmailCode: "/profile/email/resend",
  cancelEmailChange: "/profile/email/cancel",
} as const;

/** The card a form's route draws in the page's place (its route `handle.profileCard`). */
export type ProfileCard = "details" | "password" | "email";

/** What /profile hands the route of the form in use (React Router's outlet context). */
export interface ProfileContext {
  user: User;
  emailChange: { pendingEmail: string } | null;
  /** whether the code boxes take the focus (not while another form is open) */
  codeAutoFocus: boolean;
}

export function useProfileContext() {
  return useOutletContext<ProfileContext>();
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

function Detail({ label, value, muted }: { label: string; value: string; muted?: boolean }) {
  return (
    <div>
      <dt className="text-sm text-stone-600">{label}</dt>
      <dd className={`mt-1 break-all font-medium ${muted ? "text-stone-500 italic" : "text-ink"}`}>{value}</dd>
    </div>
  );
}

export function PersonalInformation({ user, editing, result }: { user: User; editing: boolean; result?: FormResult }) {
  const errors = useFormErrors(result);
  const saving = useIsPending({ formAction: PROFILE_FORMS.details });
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
      <Form method="post" action={PROFILE_FORMS.details} onChange={errors.onChange} className="space-y-5">
        <FormBanner message={errors.formError} />
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
export function ConfirmEmail({
  pendingEmail,
  currentEmail,
  result,
  autoFocus,
}: {
  pendingEmail: string | null;
  currentEmail: string;
  result?: FormResult;
  autoFocus: boolean;
}) {
  const errors = useFormErrors(result);
  const confirming = useIsPending({ formAction: PROFILE_FORMS.confirmEmail });
  const resending = useIsPending({ formAction: PROFILE_FORMS.resendEmailCode });
  const cancelling = useIsPending({ formAction: PROFILE_FORMS.cancelEmailChange });
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
          <Form method="post" action={PROFILE_FORMS.confirmEmail} onChange={errors.onChange} className="mt-5 max-w-sm space-y-4">
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
            <Form method="post" action={PROFILE_FORMS.resendEmailCode}>
              <button type="submit" className={`${link} text-wood-700`} disabled={resending}>
                {resending ? "Sending..." : "Resend code"}
              </button>
            </Form>
            <Form method="post" action={PROFILE_FORMS.cancelEmailChange}>
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

/** The 'Confirm your new email' card as the route of one of its forms draws it (after a refusal, with its message). */
export function ConfirmEmailOutlet({ result }: { result: FormResult | undefined }) {
  const { user, emailChange, codeAutoFocus } = useProfileContext();
  if (!emailChange && !result) return null;
  return (
    <ConfirmEmail pendingEmail={emailChange?.pendingEmail ?? null} currentEmail={user.email} result={result} autoFocus={codeAutoFocus} />
  );
}

export function AccountSecurity({ open, result }: { open: boolean; result?: FormResult }) {
  const errors = useFormErrors(result);
  const saving = useIsPending({ formAction: PROFILE_FORMS.password });
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
        <Form method="post" action={PROFILE_FORMS.password} onChange={errors.onChange} className="max-w-md space-y-5">
          <FormBanner message={errors.formError} />
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
