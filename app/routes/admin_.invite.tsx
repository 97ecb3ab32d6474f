// The staff invitation page (/admin/invite?token=…, the link of the invitation mail): outside the
// admin frame, for someone not signed in yet. GET shows the password form for a link that still
// works and a clear message for one that does not (unknown, used, expired, or the account
// disabled). Accepting sets the password and sends the person to sign in; it does not sign them in.
// The token leaves the URL at once (web/staff-links.server): never in a Referer, the history or a log.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { DeadLink, NewPasswordForm } from "~/components/NewPasswordForm";
import { acceptInvitation, INVITE_PATH, INVITE_TTL_MS, invitationState } from "~/models/staff/accounts.server";
import { STAFF_MESSAGES } from "~/utils/staff-fields";
import type { LinkPage } from "~/web/staff-links.server";
import { linkPageToken, linkPasswordAction } from "~/web/staff-links.server";

export const meta: MetaFunction = () => [{ title: "Accept Your Invitation | Sagwan Living" }, { name: "robots", content: "noindex" }];

/** The link's token moves from the URL into this page's cookie (web/staff-links.server). */
const LINK: LinkPage = { path: INVITE_PATH, maxAgeSeconds: INVITE_TTL_MS / 1000 };

export async function loader({ request }: LoaderFunctionArgs) {
  const token = await linkPageToken(request, LINK);
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

export const action = ({ request }: ActionFunctionArgs) =>
  linkPasswordAction(request, LINK, acceptInvitation, "Your password is set. Sign in with your email and your new password.");

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
    <NewPasswordForm
      title="Welcome to the Team"
      intro={`${name}, choose the password you will sign in with as ${email}.`}
      token={token}
      submit="Set My Password"
      result={result}
    />
  );
}
