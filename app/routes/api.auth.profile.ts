import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiHandler } from "~/lib/api.server";
import { requireMutation } from "~/lib/api-params.server";
import { requireApiUser } from "~/web/auth.server";
import { parseWith, readBody } from "~/lib/http.server";
import { updateProfile } from "~/models/users.server";
import { ProfileSchema } from "~/utils/account-schemas";

/** GET: the signed-in user (one of this shop's additions, docs/api.md: for clients checking their token). */
export const loader = ({ request }: LoaderFunctionArgs) => apiHandler(async () => ({ user: await requireApiUser(request) }));

/** PUT name, email, mobile → `{ user }`; a field left out keeps its value. */
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
    return { user: await updateProfile(user.id, input) };
  });
