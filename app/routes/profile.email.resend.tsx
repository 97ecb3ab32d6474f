// The profile's 'Resend code' form: a new code for the waiting email change (the old one stops working).
import type { ActionFunctionArgs } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import type { ProfileCard } from "~/components/ProfileCards";
import { ConfirmEmailOutlet } from "~/components/ProfileCards";
import { pageAction } from "~/lib/form.server";
import { clientOf } from "~/lib/rate-limit.server";
import { redirectWithToast } from "~/lib/toast.server";
import { resendEmailChangeCode } from "~/models/users/profile.server";
import { requireUser } from "~/web/visitor.server";

export const handle = { profileCard: "email" satisfies ProfileCard };

export async function action({ request }: ActionFunctionArgs) {
  return pageAction(
    request,
    async () => {
      const user = await requireUser(request);
      const { pendingEmail } = await resendEmailChangeCode(user.id, clientOf(request));
      return redirectWithToast(request, "/profile", { type: "success", title: `A new code has been sent to ${pendingEmail}` });
    },
    { unexpected: "An error occurred. Please try again." },
  );
}

export default function ProfileResendEmailCode() {
  return <ConfirmEmailOutlet result={useActionData<typeof action>()} />;
}
