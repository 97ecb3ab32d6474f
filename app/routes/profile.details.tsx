// The profile's 'Personal Information' form: name, email and mobile. A new email also takes
// the current password and waits for the code mailed to it (profile.email.confirm).
import type { ActionFunctionArgs } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import type { ProfileCard } from "~/components/ProfileCards";
import { PersonalInformation, useProfileContext } from "~/components/ProfileCards";
import { isAppError } from "~/lib/errors.server";
import { pageAction } from "~/lib/form.server";
import { parseWith, readForm } from "~/lib/http.server";
import { clientOf } from "~/lib/rate-limit.server";
import { redirectWithToast } from "~/lib/toast.server";
import { updateProfile } from "~/models/users/profile.server";
import { CurrentPasswordSchema, ProfileSchema } from "~/utils/account-schemas";
import { requireUser } from "~/web/visitor.server";

export const handle = { profileCard: "details" satisfies ProfileCard };

const PROFILE_FAILED = "Failed to update profile. Please try again.";

export async function action({ request }: ActionFunctionArgs) {
  return pageAction(request, (form) => asProfileFailure(() => saveProfile(request, form)), {
    // A body that cannot be read fails as a refused save does.
    read: (r, limit) => asProfileFailure(() => readForm(r, limit)),
    // What the form shows again after a refusal (the password never).
    echo: ["name", "email", "mobile"],
    unexpected: PROFILE_FAILED,
  });
}

/** docs/product.md: a refused profile save says PROFILE_FAILED, and the field messages say why. */
async function asProfileFailure<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isAppError(error) && (error.status === 400 || error.status === 409)) throw error.withMessage(PROFILE_FAILED);
    throw error;
  }
}

async function saveProfile(request: Request, form: FormData) {
  const user = await requireUser(request);
  const input = parseWith(ProfileSchema, { name: form.get("name"), email: form.get("email"), mobile: form.get("mobile") });
  const { currentPassword } = parseWith(CurrentPasswordSchema, { currentPassword: form.get("currentPassword") });
  const { emailChange } = await updateProfile(user.id, input, currentPassword, clientOf(request));
  // A new email waits for its code: the page shows the 'Confirm your new email' card.
  const description = emailChange ? `Your email changes once you enter the code we sent to ${emailChange.pendingEmail}.` : undefined;
  return redirectWithToast(request, "/profile", { type: "success", title: "Profile updated successfully!", description });
}

/** /profile with this form open: after a refusal, with its messages and what was typed. */
export default function ProfileDetails() {
  const { user } = useProfileContext();
  return <PersonalInformation user={user} editing result={useActionData<typeof action>()} />;
}
