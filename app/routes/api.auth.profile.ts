import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiHandler } from "~/lib/api.server";
import { requireMutation } from "~/lib/api-params.server";
import { requireApiUser } from "~/lib/auth.server";
import { parseWith, readBody } from "~/lib/http.server";
import { updateProfile } from "~/models/users.server";
import { ProfileSchema } from "~/utils/account-schemas";

/** GET: the signed-in user (beyond the contract, for clients checking their token). */
export const loader = ({ request }: LoaderFunctionArgs) => apiHandler(async () => ({ user: await requireApiUser(request) }));

/** PUT name, email, mobile → `{ user }`. */
export const action = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["PUT"]);
    const user = await requireApiUser(request);
    const input = parseWith(ProfileSchema, await readBody(request));
    return { user: await updateProfile(user.id, input) };
  });
