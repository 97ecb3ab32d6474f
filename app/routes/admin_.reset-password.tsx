// Staff password reset (/admin/reset-password?token=…, the link of the reset mail): a new
// password; the link is used up and every session of the account ends. The person is then sent
// to sign in. The token leaves the URL at once (web/staff-links.server): never in a Referer, the
// history or a log.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { DeadLink, NewPasswordForm } from "~/components/NewPasswordForm";
import { resetStaffPassword, STAFF_RESET_PATH, STAFF_RESET_TTL_MS, staffResetLinkLive } from "~/models/staff/accounts.server";
import { STAFF_MESSAGES } from "~/utils/staff-fields";
import type { LinkPage } from "~/web/staff-links.server";
import { linkPageToken, linkPasswordAction } from "~/web/staff-links.server";

export const meta: MetaFunction = () => [{ title: "Staff: Choose a New Password | Sagwan Living" }, { name: "robots", content: "noindex" }];

/** The link's token moves from the URL into this page's cookie (web/staff-links.server). */
const LINK: LinkPage = { path: STAFF_RESET_PATH, maxAgeSeconds: STAFF_RESET_TTL_MS / 1000 };

export async function loader({ request }: LoaderFunctionArgs) {
  const token = await linkPageToken(request, LINK);
  return { token: (await staffResetLinkLive(token)) ? token : null };
}

export const action = ({ request }: ActionFunctionArgs) =>
  linkPasswordAction(request, LINK, resetStaffPassword, "Your password has been reset. Sign in with your email and your new password.");

export default function StaffResetPassword() {
  const { token } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (!token || result?.formError === STAFF_MESSAGES.resetInvalid) {
    return (
      <DeadLink
        title="Link Expired"
        message={STAFF_MESSAGES.resetInvalid}
        next={{ to: "/admin/forgot-password", label: "Request a New Link" }}
      />
    );
  }
  return (
    <NewPasswordForm
      title="Staff: Choose a New Password"
      intro="After this, every device signed in to your staff account is signed out."
      token={token}
      submit="Set New Password"
      result={result}
    />
  );
}
