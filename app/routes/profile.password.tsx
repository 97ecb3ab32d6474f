// The profile's 'Change Password' form: the current password and the new one twice. The
// change signs out every other device; this browser gets a new session id.
import type { ActionFunctionArgs } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import type { ProfileCard } from "~/components/ProfileCards";
import { AccountSecurity } from "~/components/ProfileCards";
import { pageAction } from "~/lib/form.server";
import { parseWith } from "~/lib/http.server";
import { commitSession, getSession, rotateSession } from "~/lib/session.server";
import { redirectWithToast } from "~/lib/toast.server";
import { changePassword } from "~/models/users/password.server";
import { ChangePasswordSchema } from "~/utils/account-schemas";
import { requireUser } from "~/web/visitor.server";

export const handle = { profileCard: "password" satisfies ProfileCard };

export async function action({ request }: ActionFunctionArgs) {
  return pageAction(
    request,
    async (form) => {
      const user = await requireUser(request);
      const input = parseWith(ChangePasswordSchema, {
        currentPassword: form.get("currentPassword"),
        newPassword: form.get("newPassword"),
        confirmPassword: form.get("confirmPassword"),
      });
      const session = await getSession(request);
      await changePassword(user.id, input, session.id);
      // A new session id after the change; every other device is already signed out.
      const fresh = await rotateSession(session);
      const headers = new Headers({ "Set-Cookie": await commitSession(fresh, request) });
      return redirectWithToast(request, "/profile", { type: "success", title: "Password changed successfully" }, { headers });
    },
    { unexpected: "An error occurred. Please try again." },
  );
}

/** /profile with this form open: after a refusal, with its messages. */
export default function ProfilePassword() {
  return <AccountSecurity open result={useActionData<typeof action>()} />;
}
