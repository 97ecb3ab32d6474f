import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthLayout } from "~/components/AuthLayout";
import { FormBanner } from "~/components/FormBanner";
import { RuleField } from "~/components/FormField";
import { MailIcon } from "~/components/contact-icons";
import { useFormErrors } from "~/hooks/useFormErrors";
import { pageAction } from "~/lib/form.server";
import { parseWith } from "~/lib/http.server";
import { publicOrigin } from "~/lib/mail.server";
import { clientOf } from "~/lib/rate-limit.server";
import { requestPasswordReset } from "~/models/users/password.server";
import { FORGOT_PASSWORD_FIELDS } from "~/utils/account-fields";
import { EmailOnlySchema } from "~/utils/account-schemas";
import { useIsPending } from "~/hooks/useIsPending";

export const meta: MetaFunction = () => [{ title: "Forgot Password | Sagwan Living" }];

export function loader({ request }: LoaderFunctionArgs) {
  return { sent: new URL(request.url).searchParams.get("sent") === "1" };
}

export async function action({ request }: ActionFunctionArgs) {
  return pageAction(
    request,
    async (form) => {
      const { email } = parseWith(EmailOnlySchema, { email: form.get("email") ?? "" });
      await requestPasswordReset(email, publicOrigin(), clientOf(request));
      // The same answer whether or not the email has an account.
      return redirect("/forgot-password?sent=1");
    },
    { echo: ["email"], unexpected: "An error occurred. Please try again." },
  );
}

export default function ForgotPasswordRoute() {
  const { sent } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const errors = useFormErrors(result);
  const busy = useIsPending();
  const back = (
    <Link to="/login" className="font-semibold text-wood-700 hover:underline">
      Back to Log In
    </Link>
  );

  if (sent) {
    return (
      <AuthLayout title="Check Your Email" footer={back}>
        <div role="status" className="flex flex-col items-center gap-4 text-center text-stone-700">
          <MailIcon className="h-10 w-10 text-wood-600" />
          <p>If an account exists for that email address, we have sent it a link to reset the password.</p>
          <p className="text-sm text-stone-600">
            The link works once, within 30 minutes. Nothing arrived? Check the spam folder, or{" "}
            <Link to="/forgot-password" className="font-medium text-wood-700 underline">
              ask again
            </Link>
            .
          </p>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Forgot Your Password?"
      intro="Enter the email address of your account and we will send you a link to choose a new password."
      footer={back}
    >
      <Form method="post" onChange={errors.onChange} className="space-y-5">
        <FormBanner message={errors.formError} />
        <RuleField
          id="forgot-email"
          name="email"
          label="Email Address"
          rule={FORGOT_PASSWORD_FIELDS.email}
          requiredBy="server"
          mark={false}
          autoComplete="email"
          defaultValue={errors.value("email")}
          error={errors.error("email")}
        />
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? "Sending..." : "Send Reset Link"}
        </button>
      </Form>
    </AuthLayout>
  );
}
