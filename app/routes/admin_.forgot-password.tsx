// Staff 'Forgot password' (/admin/forgot-password): a reset link is mailed when the email is an
// active staff account's. The answer is the same either way, so the page never tells who works
// here; limited per email and per address as the customers' page is.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthLayout } from "~/components/AuthLayout";
import { FormBanner } from "~/components/FormBanner";
import { RuleField } from "~/components/FormField";
import { useFormErrors } from "~/hooks/useFormErrors";
import { useIsPending } from "~/hooks/useIsPending";
import { pageAction } from "~/lib/form.server";
import { parseWith } from "~/lib/http.server";
import { publicOrigin } from "~/lib/mail.server";
import { clientOf } from "~/lib/rate-limit.server";
import { requestStaffPasswordReset } from "~/models/staff/accounts.server";
import { FORGOT_PASSWORD_FIELDS } from "~/utils/account-fields";
import { EmailOnlySchema } from "~/utils/account-schemas";

export const meta: MetaFunction = () => [{ title: "Staff: Forgot Password | Sagwan Living" }, { name: "robots", content: "noindex" }];

export function loader({ request }: LoaderFunctionArgs) {
  return { sent: new URL(request.url).searchParams.get("sent") === "1" };
}

export async function action({ request }: ActionFunctionArgs) {
  return pageAction(
    request,
    async (form) => {
      const { email } = parseWith(EmailOnlySchema, { email: form.get("email") ?? "" });
      await requestStaffPasswordReset(email, publicOrigin(), clientOf(request));
      return redirect("/admin/forgot-password?sent=1");
    },
    { echo: ["email"], unexpected: "An error occurred. Please try again." },
  );
}

export default function StaffForgotPassword() {
  const { sent } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const errors = useFormErrors(result);
  const busy = useIsPending();
  const back = (
    <Link to="/?admin-access" className="font-semibold text-wood-700 hover:underline">
      Back to staff sign-in
    </Link>
  );
  if (sent) {
    return (
      <AuthLayout title="Check Your Email" footer={back}>
        <div role="status" className="space-y-3 text-center text-stone-700">
          <p>If that email belongs to a staff account, we have sent it a link to choose a new password.</p>
          <p className="text-sm text-stone-600">
            The link works once, within an hour. Nothing arrived? Check the spam folder, or{" "}
            <Link to="/admin/forgot-password" className="font-medium text-wood-700 underline">
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
      title="Staff: Forgot Your Password?"
      intro="Enter the email of your staff account and we will send you a link to choose a new password."
      footer={back}
    >
      <Form method="post" onChange={errors.onChange} className="space-y-5">
        <FormBanner message={errors.formError} />
        <RuleField
          id="staff-forgot-email"
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
