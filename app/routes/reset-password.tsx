import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { DeadLink, NewPasswordForm } from "~/components/NewPasswordForm";
import { pageAction } from "~/lib/form.server";
import { parseWith } from "~/lib/http.server";
import { clientOf } from "~/lib/rate-limit.server";
import { redirectWithToast } from "~/lib/toast.server";
import { resetPassword, resetTokenIsLive } from "~/models/users/password.server";
import { MESSAGES } from "~/utils/account-fields";
import { ResetPasswordSchema } from "~/utils/account-schemas";

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
  if (!token || result?.formError === MESSAGES.resetInvalid) {
    return <DeadLink title="Link Expired" message={MESSAGES.resetInvalid} next={{ to: "/forgot-password", label: "Request a New Link" }} />;
  }
  return (
    <NewPasswordForm
      title="Choose a New Password"
      intro="After this, every device signed in to your account is signed out."
      token={token}
      submit="Set New Password"
      result={result}
    />
  );
}
