import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AuthLayout, FormBanner } from "~/components/AuthLayout";
import { FormField, fieldA11y } from "~/components/FormField";
import { useFormErrors } from "~/components/useFormErrors";
import { db } from "~/lib/db.server";
import { formAction } from "~/lib/form.server";
import { parseWith, readForm } from "~/lib/http.server";
import { findResetToken } from "~/lib/one-time-codes.server";
import { redirectWithToast } from "~/lib/toast.server";
import { resetPassword } from "~/models/users.server";
import { MESSAGES, PASSWORD_MAX, ResetPasswordSchema } from "~/utils/account-schemas";

export const meta: MetaFunction = () => [{ title: "Choose a New Password | Sagwan Living" }, // The token never leaves in a Referer to another site; same-site posts keep their Origin.
  { name: "referrer", content: "same-origin" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const live = token ? await findResetToken(db, token) : null;
  return { token: live ? token : null };
}

export async function action({ request }: ActionFunctionArgs) {
  return formAction(async () => {
    const form = await readForm(request);
    const input = parseWith(ResetPasswordSchema, { token: form.get("token"), password: form.get("password"), confirmPassword: form.get("confirmPassword") });
    await resetPassword(input.token, input.password, request);
    return redirectWithToast(request, "/login", { type: "success", title: "Your password has been reset. Please log in with your new password." });
  });
}

export default function ResetPasswordRoute() {
  const { token } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const errors = useFormErrors(result);
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith("/reset-password");

  if (!token || result?.formError === MESSAGES.resetInvalid) {
    return (
      <AuthLayout title="Link Expired">
        <div role="alert" className="space-y-4 text-center text-stone-700">
          <p>{MESSAGES.resetInvalid}</p>
          <Link to="/forgot-password" className="btn-primary">
            Request a New Link
          </Link>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout title="Choose a New Password" intro="After this, every device signed in to your account is signed out.">
      <Form method="post" onChange={errors.onChange} className="space-y-5">
        <FormBanner message={errors.formError} />
        <input type="hidden" name="token" value={token} />
        <FormField id="reset-password" label="New Password" required error={errors.error("password")}>
          <input id="reset-password" name="password" type="password" autoComplete="new-password" aria-required="true" maxLength={PASSWORD_MAX} className="field-input" {...fieldA11y("reset-password", errors.error("password"))} />
          <p className="mt-1 text-xs text-stone-600">{MESSAGES.passwordShort}</p>
        </FormField>
        <FormField id="reset-confirm" label="Confirm New Password" required error={errors.error("confirmPassword")}>
          <input id="reset-confirm" name="confirmPassword" type="password" autoComplete="new-password" aria-required="true" maxLength={PASSWORD_MAX} className="field-input" {...fieldA11y("reset-confirm", errors.error("confirmPassword"))} />
        </FormField>
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? "Saving..." : "Set New Password"}
        </button>
      </Form>
    </AuthLayout>
  );
}
