// The staff's mailed links (an invitation, a password reset) carry their token in the query. The
// page at that address answers at once with a redirect to the same page without it, the token moved
// into a cookie of that page alone (HttpOnly, SameSite=Lax, no longer than the link lives), and
// `Referrer-Policy: no-referrer` on that answer: the token leaves the address bar and the history
// at once, no Referer ever carries it, and the access log never writes query values anyway. The page
// itself keeps the shop's usual policy, so its form posts keep their Origin (a no-referrer page's
// posts say `Origin: null`, which the same-site check refuses).
import { createCookie, redirect } from "@remix-run/node";
import { pageAction } from "~/lib/form.server";
import { isSecureRequest, parseWith } from "~/lib/http.server";
import type { Client } from "~/lib/rate-limit.server";
import { clientOf } from "~/lib/rate-limit.server";
import { redirectWithToast } from "~/lib/toast.server";
import { ResetPasswordSchema } from "~/utils/account-schemas";

export interface LinkPage {
  /** the page's path, where the cookie is sent (and nowhere else) */
  path: string;
  /** how long the cookie is kept: the link's own life */
  maxAgeSeconds: number;
}

const cookieOf = (page: LinkPage) =>
  createCookie(`staff_link_${page.path.split("/").pop()}`, {
    path: page.path,
    httpOnly: true,
    sameSite: "lax",
    maxAge: page.maxAgeSeconds,
  });

/**
 * The link page's token, for its loader: a GET with `?token=` is answered (thrown) with the redirect
 * that moves the token into the page's cookie; any other request reads the cookie ("" without one).
 */
export async function linkPageToken(request: Request, page: LinkPage): Promise<string> {
  const token = new URL(request.url).searchParams.get("token");
  if (token === null) return linkToken(request, page);
  const cookie = await cookieOf(page).serialize(token.slice(0, 200), { secure: isSecureRequest(request) });
  throw redirect(page.path, {
    status: 303,
    headers: { "Set-Cookie": cookie, "Referrer-Policy": "no-referrer", "Cache-Control": "no-store" },
  });
}

/** The token the page's cookie holds, or "". */
async function linkToken(request: Request, page: LinkPage): Promise<string> {
  const value: unknown = await cookieOf(page).parse(request.headers.get("Cookie"));
  return typeof value === "string" ? value : "";
}

/** The Set-Cookie that forgets the page's token (once the link is used). */
function forgetLinkToken(request: Request, page: LinkPage): Promise<string> {
  return cookieOf(page).serialize("", { maxAge: 0, secure: isSecureRequest(request) });
}

/**
 * A link page's post: the token and the new password twice (the customers' rules), set through
 * `setPassword`; then the person is sent to sign in (`/?admin-access`, not signed in by it) with
 * `done` as the toast, and the page's cookie is forgotten.
 */
export function linkPasswordAction(
  request: Request,
  page: LinkPage,
  setPassword: (token: string, password: string, client: Client) => Promise<void>,
  done: string,
) {
  return pageAction(request, async (form) => {
    const input = parseWith(ResetPasswordSchema, {
      token: form.get("token"),
      password: form.get("password"),
      confirmPassword: form.get("confirmPassword"),
    });
    await setPassword(input.token, input.password, clientOf(request));
    const forget = { headers: { "Set-Cookie": await forgetLinkToken(request, page) } };
    return redirectWithToast(request, "/?admin-access", { type: "success", title: done }, forget);
  });
}
