// Who the visitor is: the one place every page and API path asks. A request is signed in by an
// `Authorization: Bearer <token>` header (API clients, lib/api-tokens.server) or by the session
// cookie (the browser, lib/session.server). From that: the user, the guards, the shop's admin
// flag, and which cart or wishlist the request owns. Changing who the visitor is (signing in and
// out, the admin flag on and off) is web/sign-in.server's.
import { redirect } from "@remix-run/node";
import { jsonResponse } from "~/lib/api.server";
import { bearerToken, userIdFromToken } from "~/lib/api-tokens.server";
import type { Db } from "~/lib/db.server";
import { db as defaultDb } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { clientOf } from "~/lib/rate-limit.server";
import type { SessionData } from "~/lib/session.server";
import { commitSession, getSession } from "~/lib/session.server";
import type { Owner, OwnedTable } from "~/models/owned.server";
import { findOwned } from "~/models/owned.server";
import type { User } from "~/models/users/users.server";
import { getUserById } from "~/models/users/users.server";
import { ADMIN_FORBIDDEN, getStaffVisitor, staffCan } from "./staff.server";

// One lookup per request, however many modules ask.
const userIds = new WeakMap<Request, Promise<number | null>>();

/**
 * The signed-in user's id, or null. A bearer token, when sent, decides alone: a bad token
 * is a signed-out request even if a session cookie rides along.
 */
export function getUserId(request: Request, db: Db = defaultDb): Promise<number | null> {
  let found = userIds.get(request);
  if (!found) {
    const token = bearerToken(request);
    found = token !== null ? userIdFromToken(token, db) : getSession(request).then((s) => s.get("userId") ?? null);
    userIds.set(request, found);
  }
  return found;
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
 * Is a staff member (or the built-in owner) signed in on this request? The guard itself, with the
 * permission a route needs, is web/staff.server's requireStaff.
 */
export async function isAdminRequest(request: Request): Promise<boolean> {
  return (await getStaffVisitor(request)) !== null;
}

export { ADMIN_FORBIDDEN };

/**
 * Order pages: the signed-in customer (else the redirect to /login), and as models/orders/read's
 * Viewer (the shop's admin sees every order).
 */
export async function requireOrderPageViewer(request: Request): Promise<{ user: User; viewer: { userId: number; isAdmin: boolean } }> {
  const user = await requireUser(request);
  return { user, viewer: { userId: user.id, isAdmin: await staffCan(request, "orders.read") } };
}

/** API order paths: who is asking, as models/orders/read's Viewer. The shop's admin, or a customer (else 401). */
export async function requireOrderViewer(request: Request): Promise<{ userId: number | null; isAdmin: boolean }> {
  if (await staffCan(request, "orders.read")) return { userId: await getUserId(request), isAdmin: true };
  const user = await requireApiUser(request);
  return { userId: user.id, isAdmin: false };
}

// Which cart or wishlist a request owns: a signed-in customer's (session cookie or API token)
// by the user id, a guest's by the row id the session carries. The rows themselves are
// models/owned.server's; a guest's new row goes back to the browser as a Set-Cookie here.
const SESSION_KEY: Record<OwnedTable, keyof Pick<SessionData, "cartId" | "wishlistId">> = {
  carts: "cartId",
  wishlists: "wishlistId",
};

/** Who owns this request's cart or wishlist. A bad or revoked bearer token is refused (401), not made a guest. */
export async function ownerOf(request: Request, table: OwnedTable): Promise<Owner> {
  const userId = await getUserId(request);
  if (userId) return { userId };
  // Thrown as a Response, not an AppError: pages read the cart too (root's badge, the product
  // page's wishlist button), and a page loader's AppError would be Remix's 500.
  if (bearerToken(request) !== null) throw jsonResponse({ message: "Please log in to continue" }, { status: 401 });
  const session = await getSession(request);
  return { userId: null, guestRowId: session.get(SESSION_KEY[table]) ?? null, client: clientOf(request) };
}

/** The id of this request's live cart, if any. */
export async function currentCartId(request: Request): Promise<string | null> {
  return findOwned("carts", await ownerOf(request, "carts"));
}

/** The id of this request's live wishlist, if any. */
export async function currentWishlistId(request: Request): Promise<string | null> {
  return findOwned("wishlists", await ownerOf(request, "wishlists"));
}

/**
 * Run a model verb for the owner of the request's cart or wishlist. The verb answers the row it
 * used; when that is a guest's new row, `headers` carries the Set-Cookie that makes the session
 * remember it (else it is empty).
 */
export async function asOwner<T extends { rowId: string }>(
  request: Request,
  table: OwnedTable,
  verb: (owner: Owner) => Promise<T>,
): Promise<T & { headers: Headers }> {
  const owner = await ownerOf(request, table);
  const result = await verb(owner);
  const headers = new Headers();
  if (owner.userId === null && result.rowId !== owner.guestRowId) {
    const session = await getSession(request);
    session.set(SESSION_KEY[table], result.rowId);
    headers.append("Set-Cookie", await commitSession(session, request));
  }
  return { ...result, headers };
}
