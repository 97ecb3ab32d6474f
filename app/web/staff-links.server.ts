// The staff's mailed links (an invitation, a password reset) carry their token in the query. The
// page at that address answers at once with a redirect to the same page without it, the token moved
// into a cookie of that page alone (HttpOnly, SameSite=Lax, no longer than the link lives), and
// `Referrer-Policy: no-referrer` on that answer: the token leaves the address bar and the history
// at once, no Referer ever carries it, and the access log never writes query values anyway. The page
// itself keeps the shop's usual policy, so its form posts keep their Origin (a no-referrer page's
// posts say `Origin: null`, which the same-site check refuses).
import { createCookie, redirect } from "@remix-run/node";
import { isSecureRequest } from "~/lib/http.server";

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

/** A GET with `?token=`: the redirect that moves the token into the page's cookie; null for any other request. */
export async function moveTokenOutOfUrl(request: Request, page: LinkPage): Promise<Response | null> {
  const url = new URL(request.url);
  const token = url.searchParams.get("token");
  if (token === null) return null;
  const cookie = await cookieOf(page).serialize(token.slice(0, 200), { secure: isSecureRequest(request) });
  return redirect(page.path, {
    status: 303,
    headers: { "Set-Cookie": cookie, "Referrer-Policy": "no-referrer", "Cache-Control": "no-store" },
  });
}

/** The token the page's cookie holds, or "". */
export async function linkToken(request: Request, page: LinkPage): Promise<string> {
  const value: unknown = await cookieOf(page).parse(request.headers.get("Cookie"));
  return typeof value === "string" ? value : "";
}

/** The Set-Cookie that forgets the page's token (once the link is used). */
export function forgetLinkToken(request: Request, page: LinkPage): Promise<string> {
  return cookieOf(page).serialize("", { maxAge: 0, secure: isSecureRequest(request) });
}
