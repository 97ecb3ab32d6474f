import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthLayout } from "~/components/AuthLayout";
import { FormBanner } from "~/components/FormBanner";
import { RuleField } from "~/components/FormField";
import { useFormErrors } from "~/hooks/useFormErrors";
import { pageAction } from "~/lib/form.server";
import { parseWith } from "~/lib/http.server";
import { clientOf } from "~/lib/rate-limit.server";
import { redirectWithToast } from "~/lib/toast.server";
import { resetPassword, resetTokenIsLive } from "~/models/users/password.server";
import { MESSAGES, RESET_PASSWORD_FIELDS } from "~/utils/account-fields";
import { ResetPasswordSchema } from "~/utils/account-schemas";
import { useIsPending } from "~/hooks/useIsPending";

export const meta: MetaFunction = () => [
  { title: "Choose a New Password | Sagwan Living" },
  // The token never leaves in a Referer to another site; same-site posts keep their Origin.
  { name: "referrer", content: "same-origin" },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token: (await resetTokenIsLive(token)) ? token : null };
}

export async function action({ request }: ActionFunctionArgs) {
  return pageAction(request, async (form) => {
    const fields = { token: form.get("token"), password: form.get("password"), confirmPassword: form.get("confirmPassword") };
    const input = parseWith(ResetPasswordSchema, fields);
    await resetPassword(input.token, input.password, clientOf(request));
    const title = "Your password has been reset. Please log in with your new password.";
    return redirectWithToast(request, "/login", { type: "success", title });
  });
}

export default function ResetPasswordRoute() {
  const { token } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const errors = useFormErrors(result);
  const busy = useIsPending();

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
          {busy ? "Saving..." : "Set New Password"}
        </button>
      </Form>
    </AuthLayout>
  );
}
