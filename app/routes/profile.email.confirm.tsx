// The profile's 'Confirm your new email' form: the 4-digit code mailed to the new address
// makes it the account's email.
import type { ActionFunctionArgs } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import type { ProfileCard } from "~/components/ProfileCards";
import { ConfirmEmailOutlet } from "~/components/ProfileCards";
import { pageAction } from "~/lib/form.server";
import { parseWith } from "~/lib/http.server";
import { clientOf } from "~/lib/rate-limit.server";
import { redirectWithToast } from "~/lib/toast.server";
import { confirmEmailChange } from "~/models/users/profile.server";
import { ConfirmEmailSchema } from "~/utils/account-schemas";
import { requireUser } from "~/web/visitor.server";

export const handle = { profileCard: "email" satisfies ProfileCard };

export async function action({ request }: ActionFunctionArgs) {
  return pageAction(
    request,
    async (form) => {
      const { id } = await requireUser(request);
      const { code } = parseWith(ConfirmEmailSchema, { code: form.getAll("code").map(String) });
      const user = await confirmEmailChange(id, code, clientOf(request));
      return redirectWithToast(request, "/profile", {
        type: "success",
        title: "Email address changed successfully!",
        description: `We will write to ${user.email} from now on.`,
      });
    },
    { unexpected: "An error occurred. Please try again." },
  );
}

export default function ProfileConfirmEmail() {
  return <ConfirmEmailOutlet result={useActionData<typeof action>()} />;
}
