// The profile's 'Cancel email change' form: the waiting change ends and the email stays.
import type { ActionFunctionArgs } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import type { ProfileCard } from "~/components/ProfileCards";
import { ConfirmEmailOutlet } from "~/components/ProfileCards";
import { pageAction } from "~/lib/form.server";
import { redirectWithToast } from "~/lib/toast.server";
import { cancelEmailChange } from "~/models/users/profile.server";
import { requireUser } from "~/web/visitor.server";

export const handle = { profileCard: "email" satisfies ProfileCard };

export async function action({ request }: ActionFunctionArgs) {
  return pageAction(
    request,
    async () => {
      const user = await requireUser(request);
      await cancelEmailChange(user.id);
      return redirectWithToast(request, "/profile", {
        type: "success",
        title: "Email change cancelled",
        description: "Your email stays as it was.",
      });
    },
    { unexpected: "An error occurred. Please try again." },
  );
}

export default function ProfileCancelEmailChange() {
  return <ConfirmEmailOutlet result={useActionData<typeof action>()} />;
}
