import type { ActionFunctionArgs } from "@remix-run/node";
import { apiHandler } from "~/lib/api.server";
import { otherMethods, requireMutation } from "~/lib/api-params.server";
import { parseWith, readBody } from "~/lib/http.server";
import { LIMITS, rateLimitRequest } from "~/lib/rate-limit.server";
import { subscribeToNewsletter } from "~/models/messages.server";
import { NewsletterSchema } from "~/utils/schemas";

export const action = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["POST"]);
    const { email } = parseWith(NewsletterSchema, await readBody(request));
    await rateLimitRequest(LIMITS.newsletter, request, email);
    await subscribeToNewsletter(email);
    return { success: true };
  });
export const loader = otherMethods(["POST"]);
