import type { ActionFunctionArgs } from "@remix-run/node";
import { apiHandler } from "~/lib/api.server";
import { otherMethods, requireMutation } from "~/lib/api-params.server";
import { parseWith, readBody } from "~/lib/http.server";
import { clientOf } from "~/lib/rate-limit.server";
import { subscribe } from "~/models/messages.server";
import { NewsletterSchema } from "~/utils/schemas";

export const action = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["POST"]);
    const { email } = parseWith(NewsletterSchema, await readBody(request));
    await subscribe(email, clientOf(request));
    return { success: true };
  });
export const loader = otherMethods(["POST"]);
