// Signing in and out, and the guards every page and API path uses. Login goes through
// remix-auth's FormStrategy; the app owns the session (remix-auth v4 keeps none).
import { redirect } from "@remix-run/node";
import { adminGrantValid } from "~/lib/admin-password.server";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import type { Db } from "~/lib/db.server";
import { db } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { parseWith } from "~/lib/http.server";
import { bearerToken, getUserId, issueToken } from "~/lib/identity.server";
import { clientOf } from "~/lib/rate-limit.server";
import type { ShopSession } from "~/lib/session.server";
import { commitNewSession, commitSession, destroySession, getSession, rotateSession } from "~/lib/session.server";
import { redirectWithToast } from "~/lib/toast.server";
import { adoptGuestCart } from "~/models/cart.server";
import type { User } from "~/models/users/users.server";
import type { VerifiedLogin } from "~/models/users/login.server";
import { assertLoginCurrent, verifyLogin } from "~/models/users/login.server";
import { getUserById } from "~/models/users/users.server";
import { adoptGuestWishlist } from "~/models/wishlist.server";
import { LoginSchema } from "~/utils/account-schemas";
import type { ToastInput } from "~/utils/toast";

export const authenticator = new Authenticator<VerifiedLogin>();
authenticator.use(
  new FormStrategy(async ({ form, request }) => verifyLogin(parseWith(LoginSchema, Object.fromEntries(form)), clientOf(request))),
  "form",
);

/**
 * Check credentials through the authenticator. Pages pass their (already size-checked) form,
 * API routes their JSON body: both become the one form the strategy reads. The request's
 * headers go with it, so the strategy's clientOf sees the same client address.
 */
export function authenticateCredentials(request: Request, fields: Record<string, unknown>): Promise<VerifiedLogin> {
  const body = new URLSearchParams();
  for (const key of ["email", "password"]) {
    const value = fields[key];
    if (typeof value === "string") body.set(key, value);
  }
  const headers = new Headers(request.headers);
  headers.set("Content-Type", "application/x-www-form-urlencoded");
  headers.delete("Content-Length");
  return authenticator.authenticate("form", new Request(request.url, { method: "POST", headers, body }));
}

/** The signed-in user, or null. */
export async function getUser(request: Request): Promise<User | null> {
  const userId = await getUserId(request);
  return userId ? getUserById(userId) : null;
}

/** Pages: the signed-in user, or a redirect to /login that comes back here afterwards. */
export async function requireUser(request: Request): Promise<User> {
  const user = await getUser(request);
  if (user) return user;
  const url = new URL(request.url);
  throw redirect(`/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
}

/** API paths and actions: the signed-in user, or 401. */
export async function requireApiUser(request: Request): Promise<User> {
  const user = await getUser(request);
  if (!user) throw new AppError(401, "Please log in to continue");
  return user;
}

/**
 * Does this request carry the shop's admin flag? Only a browser session can (the admin signs
 * in through the Admin Access dialog); a bearer-token call never does. The flag holds for
 * ADMIN_SESSION_MS and only while ADMIN_PASSWORD is the one it was given with.
 */
export async function isAdminRequest(request: Request): Promise<boolean> {
  if (bearerToken(request) !== null) return false;
  const session = await getSession(request);
  return session.get("isAdmin") === true && (await adminGrantValid(session.get("adminGrant")));
}

/** Order pages: the signed-in customer (else the redirect to /login), and as models/orders/read's Viewer (the shop's admin sees every order). */
export async function requireOrderPageViewer(request: Request): Promise<{ user: User; viewer: { userId: number; isAdmin: boolean } }> {
  const user = await requireUser(request);
  return { user, viewer: { userId: user.id, isAdmin: await isAdminRequest(request) } };
}

/** API order paths: who is asking, as models/orders/read's Viewer. The shop's admin, or a customer (else 401). */
export async function requireOrderViewer(request: Request): Promise<{ userId: number | null; isAdmin: boolean }> {
  if (await isAdminRequest(request)) return { userId: await getUserId(request), isAdmin: true };
  const user = await requireApiUser(request);
  return { userId: user.id, isAdmin: false };
}

/**
 * Sign the browser in, in one transaction: the guest's cart and wishlist join the account's, the
 * session gets a fresh id (no fixation), and its row is written only while the account still has
 * the password the login was checked against (`passwordHash`, see assertLoginCurrent). The
 * answer redirects with a toast.
 */
export async function signIn(
  request: Request,
  user: User,
  passwordHash: string | null,
  options: { redirectTo: string; toast: ToastInput; remember?: boolean },
): Promise<Response> {
  const session = await getSession(request);
  const cookie = await db.transaction().execute(async (trx) => {
    await joinGuestRows(trx, session, user.id);
    // After the cart rows, as an order and a customer's deletion take them: then the user row.
    await assertLoginCurrent(trx, user.id, passwordHash);
    const fresh = await rotateSession(session, trx);
    fresh.unset("cartId");
    fresh.unset("wishlistId");
    fresh.unset("pendingSignup");
    // Whoever signs in is not the staff member who opened Admin Access in this browser.
    fresh.unset("isAdmin");
    fresh.unset("adminGrant");
    fresh.set("userId", user.id);
    fresh.set("remember", options.remember ?? true);
    return commitNewSession(trx, fresh, request);
  });
  return redirectWithToast(request, options.redirectTo, options.toast, { headers: new Headers({ "Set-Cookie": cookie }) });
}

/** Inside the sign-in's transaction: the guest's cart and wishlist (the session's) join the account's. */
async function joinGuestRows(trx: Db, session: ShopSession, userId: number): Promise<void> {
  await adoptGuestCart(trx, session.get("cartId"), userId);
  await adoptGuestWishlist(trx, session.get("wishlistId"), userId);
}

/**
 * An API sign-in (login or code verification answering a token), in one transaction: a guest
 * cart and wishlist the client built with the session cookie join the account, and the token is
 * issued only while the account still has the password the login was checked against
 * (`passwordHash`, see assertLoginCurrent). The token, and the Set-Cookie to send back (the
 * session no longer points at the guest's rows), or null when there was nothing to join.
 */
export async function signInForToken(
  request: Request,
  userId: number,
  passwordHash: string | null,
): Promise<{ token: string; cookie: string | null }> {
  const session = request.headers.get("Cookie") ? await getSession(request) : null;
  const token = await db.transaction().execute(async (trx) => {
    if (session) await joinGuestRows(trx, session, userId);
    await assertLoginCurrent(trx, userId, passwordHash);
    return issueToken(userId, trx);
  });
  if (!session || (!session.has("cartId") && !session.has("wishlistId"))) return { token, cookie: null };
  session.unset("cartId");
  session.unset("wishlistId");
  return { token, cookie: await commitSession(session, request) };
}

/** Sign the browser out: the session row is deleted and the cookie cleared. */
export async function signOut(request: Request, redirectTo: string, toast?: ToastInput): Promise<Response> {
  const session = await getSession(request);
  const headers = new Headers({ "Set-Cookie": await destroySession(session, request) });
  if (toast) return redirectWithToast(request, redirectTo, toast, { headers });
  return redirect(redirectTo, { headers });
}
