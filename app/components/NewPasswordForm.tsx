// The page of a mailed link that sets a password (a customer's or a staff member's reset, a staff
// invitation): the new password twice (the customers' rules, account-fields.ts), the link's token
// in a hidden field. A plain post that works without JavaScript; the server's messages stand
// beside the fields. And the page of a link that no longer works.
import { Form } from "@remix-run/react";
import { Link } from "./Link";
import { AuthLayout } from "~/components/AuthLayout";
import { FormBanner } from "~/components/FormBanner";
import { RuleField } from "~/components/FormField";
import type { FormResult } from "~/hooks/useFormErrors";
import { useFormErrors } from "~/hooks/useFormErrors";
import { useIsPending } from "~/hooks/useIsPending";
import { MESSAGES, RESET_PASSWORD_FIELDS } from "~/utils/account-fields";

export function NewPasswordForm({
  title,
  intro,
  token,
  submit,
  result,
}: {
  title: string;
  intro: string;
  token: string;
  submit: string;
  result: FormResult | undefined;
}) {
  const errors = useFormErrors(result);
  const busy = useIsPending();
  return (
    <AuthLayout title={title} intro={intro}>
      <Form method="post" onChange={errors.onChange} className="space-y-5">
        <FormBanner message={errors.formError} />
        <input type="hidden" name="token" value={token} />
        <RuleField
          id="reset-password"
          name="password"
          label="New Password"
          rule={RESET_PASSWORD_FIELDS.password}
          requiredBy="server"
          autoComplete="new-password"
          error={errors.error("password")}
        >
          <p className="mt-1 text-xs text-stone-600">{MESSAGES.passwordShort}</p>
        </RuleField>
        <RuleField
          id="reset-confirm"
          name="confirmPassword"
          label="Confirm New Password"
          rule={RESET_PASSWORD_FIELDS.confirmPassword}
          requiredBy="server"
          autoComplete="new-password"
          error={errors.error("confirmPassword")}
        />
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? "Saving..." : submit}
        </button>
      </Form>
    </AuthLayout>
  );
}

/** A link that no longer works: the reason, and where to go next. */
export function DeadLink({ title, message, next }: { title: string; message: string; next: { to: string; label: string } }) {
  return (
    <AuthLayout title={title}>
      <div role="alert" className="space-y-4 text-center text-stone-700">
        <p>{message}</p>
        <Link to={next.to} className="btn-primary">
          {next.label}
        </Link>
      </div>
    </AuthLayout>
  );
}
