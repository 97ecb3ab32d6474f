import type { ActionFunctionArgs } from "@remix-run/node";
import { apiHandler } from "~/lib/api.server";
import { otherMethods, requireMutation } from "~/lib/api-params.server";
import { parseWith, readBody } from "~/lib/http.server";
import { clientOf } from "~/lib/rate-limit.server";
import { sendContactMessage } from "~/models/messages.server";
import { ContactSchema } from "~/utils/schemas";

export const action = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["POST"]);
    const input = parseWith(ContactSchema, await readBody(request));
    await sendContactMessage(input, clientOf(request));
    return { success: true };
  });
export const loader = otherMethods(["POST"]);
