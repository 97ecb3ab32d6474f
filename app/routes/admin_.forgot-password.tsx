// Staff 'Forgot password' (/admin/forgot-password): a reset link is mailed when the email is an
// active staff account's. The answer is the same either way, so the page never tells who works
// here; limited per email and per address as the customers' page is.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/Link";
import type { ForgotPasswordTexts } from "~/components/ForgotPasswordForm";
import { ForgotPasswordPage } from "~/components/ForgotPasswordForm";
import { forgotPasswordAction, forgotPasswordLoader } from "~/web/forgot-password.server";
import { requestStaffPasswordReset } from "~/models/staff/accounts.server";

export const meta: MetaFunction = () => [{ title: "Staff: Forgot Password | Sagwan Living" }, { name: "robots", content: "noindex" }];

export const loader = ({ request }: LoaderFunctionArgs) => forgotPasswordLoader(request);

export const action = ({ request }: ActionFunctionArgs) =>
  forgotPasswordAction(request, requestStaffPasswordReset, "/admin/forgot-password");

const TEXTS: ForgotPasswordTexts = {
  title: "Staff: Forgot Your Password?",
  intro: "Enter the email of your staff account and we will send you a link to choose a new password.",
  sent: "If that email belongs to a staff account, we have sent it a link to choose a new password.",
  linkLife: "an hour",
  againTo: "/admin/forgot-password",
  inputId: "staff-forgot-email",
};

export default function StaffForgotPassword() {
  const { sent } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const back = (
    <Link to="/?admin-access" className="font-semibold text-wood-700 hover:underline">
      Back to staff sign-in
    </Link>
  );
  return <ForgotPasswordPage sent={sent} texts={TEXTS} back={back} result={result} />;
}
