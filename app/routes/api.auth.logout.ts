// Beyond the contract: end an API sign-in. The bearer token sent is revoked; a browser
// session sent with the request is ended too.
import type { ActionFunctionArgs } from "@remix-run/node";
import { apiHandler, jsonResponse } from "~/lib/api.server";
import { otherMethods, requireMutation } from "~/lib/api-params.server";
import { bearerToken, revokeRequestToken } from "~/lib/identity.server";
import { destroySession, getSession } from "~/lib/session.server";

export const action = ({ request }: ActionFunctionArgs) =>
  apiHandler(async () => {
    requireMutation(request, ["POST"]);
    const headers = new Headers();
    if (bearerToken(request)) await revokeRequestToken(request);
    if (request.headers.get("Cookie")) headers.append("Set-Cookie", await destroySession(await getSession(request), request));
    return jsonResponse({ success: true }, { headers });
  });
export const loader = otherMethods(["POST"]);
