// Changing who the visitor is: checking a login, signing in (the browser's session or an API
// token) and out, and the shop's admin flag on and off (Admin Access; the flag lives in the
// server-side session, never in the browser). Login goes through remix-auth's FormStrategy; the
// app owns the session (remix-auth v4 keeps none). Who the visitor is now is web/visitor.server's.
import crypto from "node:crypto";
import { redirect } from "@remix-run/node";
import { newAdminGrant } from "~/lib/admin-password.server";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import type { Db } from "~/lib/db.server";
import { db, nowIso } from "~/lib/db.server";
import { parseWith } from "~/lib/http.server";
import { bearerToken, issueToken, revokeRequestToken } from "~/lib/api-tokens.server";
import { clientIp, clientOf } from "~/lib/rate-limit.server";
import type { ShopSession, StaffPending } from "~/lib/session.server";
import { commitNewSession, commitSession, destroySession, getSession, rotateSession } from "~/lib/session.server";
import { redirectWithToast } from "~/lib/toast.server";
import { recordAudit } from "~/models/audit.server";
import { adoptGuestCart } from "~/models/cart.server";
import { assertStaffCurrent } from "~/models/staff/sign-in.server";
import type { Staff } from "~/models/staff/staff.server";
import { actorOf } from "~/models/staff/staff.server";
import type { User } from "~/models/users/users.server";
import type { VerifiedLogin } from "~/models/users/login.server";
import { assertLoginCurrent, verifyLogin } from "~/models/users/login.server";
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
    clearStaffKeys(fresh);
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

/**
 * Sign an API client out: the bearer token sent is revoked, and a browser session sent with the
 * request is ended too. The headers to answer with (the cleared cookie, when a cookie came).
 */
export async function signOutApi(request: Request): Promise<Headers> {
  const headers = new Headers();
  if (bearerToken(request)) await revokeRequestToken(request);
  if (request.headers.get("Cookie")) headers.append("Set-Cookie", await destroySession(await getSession(request), request));
  return headers;
}

/**
 * Turn the built-in owner's admin flag on for ADMIN_SESSION_MS: a fresh session id (privilege
 * change), same cart and customer sign-in; a staff sign-in in this browser ends.
 */
export async function grantAdmin(request: Request): Promise<string> {
  const fresh: ShopSession = await rotateSession(await getSession(request));
  clearStaffKeys(fresh);
  fresh.set("isAdmin", true);
  const grant = await newAdminGrant();
  if (grant) fresh.set("adminGrant", grant);
  return commitSession(fresh, request);
}

/** Every key a back-office sign-in (staff or built-in owner) or its pending code step keeps. */
function clearStaffKeys(session: ShopSession): void {
  for (const key of ["isAdmin", "adminGrant", "staffId", "staffSignedInAt", "staffPending", "staffDevice", "staffSetupSecret"] as const) {
    session.unset(key);
  }
}

/** Leave the back-office (the built-in owner's flag or a staff sign-in); a signed-in customer stays signed in. */
export async function revokeAdmin(request: Request): Promise<string> {
  const fresh = await rotateSession(await getSession(request));
  clearStaffKeys(fresh);
  return commitSession(fresh, request);
}

/** How long the step between a right staff password and its code may take. */
export const STAFF_PENDING_MS = 5 * 60 * 1000;

/**
 * A right staff password whose account needs a code: the session keeps the account and the end
 * of the step (never the password), and `setup` when the account must set up two-step first.
 * The Set-Cookie to answer with.
 */
export async function beginStaffCodeStep(request: Request, staff: Staff, passwordHash: string, setup: boolean): Promise<string> {
  const session = await getSession(request);
  session.set("staffPending", {
    staffId: staff.id,
    until: nowIso(new Date(Date.now() + STAFF_PENDING_MS)),
    setup,
    // Only a tag of the hash: the sign-in is refused at its end if the password changed meanwhile.
    passwordTag: passwordTag(passwordHash),
  });
  session.unset("staffSetupSecret");
  return commitSession(session, request);
}

function passwordTag(passwordHash: string): string {
  return crypto.createHash("sha256").update(`staff-pending:${passwordHash}`).digest("base64url").slice(0, 22);
}

/** The pending code step of this browser, while it lasts; null otherwise. */
export async function pendingStaffStep(request: Request): Promise<StaffPending | null> {
  const pending = (await getSession(request)).get("staffPending");
  if (!pending || typeof pending.staffId !== "number" || !(Date.parse(pending.until) > Date.now())) return null;
  return pending;
}

/**
 * Sign a staff member in, in one transaction: the account must still be active (and hold the
 * password the sign-in was checked against), the session gets a fresh id (no fixation) with
 * `staffId`, `staffSignedInAt` and what the account's sessions list shows (device and address);
 * the built-in owner's flag and any pending step go; staff.last_sign_in_at and an audit row
 * 'sign_in' are written. The Set-Cookie that names the new session.
 */
export async function completeStaffSignIn(
  request: Request,
  staff: Staff,
  check: { passwordHash: string } | { passwordTag: string },
  how: string,
): Promise<string> {
  const session = await getSession(request);
  const now = nowIso();
  return db.transaction().execute(async (trx) => {
    const row = await trx.selectFrom("staff").select("passwordHash").where("id", "=", staff.id).executeTakeFirst();
    const hash =
      "passwordHash" in check
        ? check.passwordHash
        : row?.passwordHash && passwordTag(row.passwordHash) === check.passwordTag
          ? row.passwordHash
          : "";
    await assertStaffCurrent(trx, staff.id, hash);
    const fresh = await rotateSession(session, trx);
    clearStaffKeys(fresh);
    fresh.set("staffId", staff.id);
    fresh.set("staffSignedInAt", now);
    fresh.set("staffDevice", { userAgent: (request.headers.get("User-Agent") ?? "").slice(0, 300), ip: clientIp(request) });
    await trx.updateTable("staff").set({ lastSignInAt: now }).where("id", "=", staff.id).execute();
    await recordAudit(trx, {
      action: "sign_in",
      entity: "staff",
      entityId: staff.id,
      summary: `${staff.name} signed in (${how})`,
      actor: actorOf(staff),
    });
    return commitNewSession(trx, fresh, request);
  });
}
