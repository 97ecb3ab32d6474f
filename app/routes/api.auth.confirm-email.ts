import type { ActionFunctionArgs } from "@remix-run/node";
import { apiHandler } from "~/lib/api.server";
import { otherMethods, requireMutation } from "~/lib/api-params.server";
import { parseWith, readBody } from "~/lib/http.server";
import { clientOf } from "~/lib/rate-limit.server";
import { confirmEmailChange } from "~/models/users/profile.server";
import { ConfirmEmailSchema } from "~/utils/account-schemas";
import { requireApiUser } from "~/web/visitor.server";

/** POST code → `{ user }` with the new email: confirms the change PUT /api/auth/profile asked for (docs/api.md). */
export const action = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["POST"]);
    const user = await requireApiUser(request);
    const { code } = parseWith(ConfirmEmailSchema, await readBody(request));
    return { user: await confirmEmailChange(user.id, code, clientOf(request)) };
  });
export const loader = otherMethods(["POST"]);
