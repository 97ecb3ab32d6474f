import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/Link";
import type { ForgotPasswordTexts } from "~/components/ForgotPasswordForm";
import { ForgotPasswordPage } from "~/components/ForgotPasswordForm";
import { forgotPasswordAction, forgotPasswordLoader } from "~/web/forgot-password.server";
import { requestPasswordReset } from "~/models/users/password.server";

export const meta: MetaFunction = () => [{ title: "Forgot Password | Sagwan Living" }];

export const loader = ({ request }: LoaderFunctionArgs) => forgotPasswordLoader(request);

export const action = ({ request }: ActionFunctionArgs) => forgotPasswordAction(request, requestPasswordReset, "/forgot-password");

const TEXTS: ForgotPasswordTexts = {
  title: "Forgot Your Password?",
  intro: "Enter the email address of your account and we will send you a link to choose a new password.",
  sent: "If an account exists for that email address, we have sent it a link to reset the password.",
  linkLife: "30 minutes",
  againTo: "/forgot-password",
  inputId: "forgot-email",
};

export default function ForgotPasswordRoute() {
  const { sent } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const back = (
    <Link to="/login" className="font-semibold text-wood-700 hover:underline">
      Back to Log In
    </Link>
  );
  return <ForgotPasswordPage sent={sent} texts={TEXTS} back={back} result={result} />;
}
