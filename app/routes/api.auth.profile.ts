import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiHandler } from "~/lib/api.server";
import { requireMutation } from "~/lib/api-params.server";
import { requireApiUser } from "~/web/visitor.server";
import { parseWith, readBody } from "~/lib/http.server";
import { clientOf } from "~/lib/rate-limit.server";
import { updateProfile } from "~/models/users/profile.server";
import { CurrentPasswordSchema, ProfileSchema } from "~/utils/account-schemas";

/** GET: the signed-in user (one of this shop's additions, docs/api.md: for clients checking their token). */
export const loader = ({ request }: LoaderFunctionArgs) => apiHandler(async () => ({ user: await requireApiUser(request) }));

/**
 * PUT name, email, mobile (and `currentPassword` for a new email) → `{ user }`; a field left out
 * keeps its value. A new email is not the account's yet: the answer adds `emailChange` and the
 * code mailed to it is sent back to POST /api/auth/confirm-email.
 */
export const action = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["PUT"]);
    const user = await requireApiUser(request);
    const body = await readBody(request);
    // A field left out keeps its value (an API client may send only what changes).
    const input = parseWith(ProfileSchema, {
      name: "name" in body ? body.name : user.name,
      email: "email" in body ? body.email : user.email,
      mobile: "mobile" in body ? body.mobile : (user.mobile ?? ""),
    });
    const { currentPassword } = parseWith(CurrentPasswordSchema, { currentPassword: body.currentPassword });
    const saved = await updateProfile(user.id, input, currentPassword, clientOf(request));
    return saved.emailChange ? saved : { user: saved.user };
  });
