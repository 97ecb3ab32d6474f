// The staff invitation page (/admin/invite?token=…, the link of the invitation mail): outside the
// admin frame, for someone not signed in yet. GET shows the password form for a link that still
// works and a clear message for one that does not (unknown, used, expired, or the account
// disabled). Accepting sets the password and sends the person to sign in; it does not sign them in.
// The token stays out of the access log (query values are never written) and out of any Referer.
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { DeadLink, StaffPasswordForm } from "~/components/staff/StaffPasswordForm";
import { pageAction } from "~/lib/form.server";
import { parseWith } from "~/lib/http.server";
import { clientOf } from "~/lib/rate-limit.server";
import { redirectWithToast } from "~/lib/toast.server";
import { acceptInvitation, invitationState } from "~/models/staff/accounts.server";
import { ResetPasswordSchema } from "~/utils/account-schemas";
import { STAFF_MESSAGES } from "~/utils/staff-fields";

export const meta: MetaFunction = () => [
  { title: "Accept Your Invitation | Sagwan Living" },
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "no-referrer" },
];

export const headers: HeadersFunction = () => ({ "Referrer-Policy": "no-referrer", "Cache-Control": "no-store" });

export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const state = await invitationState(token);
  return state.ok
    ? { token, name: state.name, email: state.email, dead: null }
    : { token: null, name: null, email: null, dead: state.message };
}

/** The refusals that mean the link itself no longer works: the page shows them instead of the form. */
const DEAD_LINK: readonly string[] = [
  STAFF_MESSAGES.inviteUnknown,
  STAFF_MESSAGES.inviteUsed,
  STAFF_MESSAGES.inviteExpired,
  STAFF_MESSAGES.accountDisabled,
];

export async function action({ request }: ActionFunctionArgs) {
  return pageAction(request, async (form) => {
    const input = parseWith(ResetPasswordSchema, {
      token: form.get("token"),
      password: form.get("password"),
      confirmPassword: form.get("confirmPassword"),
    });
    await acceptInvitation(input.token, input.password, clientOf(request));
    return redirectWithToast(request, "/?admin-access", {
      type: "success",
      title: "Your password is set. Sign in with your email and your new password.",
    });
  });
}

export default function AcceptInvitation() {
  const { token, name, email, dead } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const message = dead ?? (result?.formError && DEAD_LINK.includes(result.formError) ? result.formError : null);
  if (!token || message) {
    return (
      <DeadLink
        title="Invitation Not Valid"
        message={message ?? STAFF_MESSAGES.inviteUnknown}
        next={{ to: "/", label: "Back to the shop" }}
      />
    );
  }
  return (
    <StaffPasswordForm
      title="Welcome to the Team"
      intro={`${name}, choose the password you will sign in with as ${email}.`}
      token={token}
      submit="Set My Password"
      result={result}
    />
  );
}
