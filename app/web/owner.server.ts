// Which cart or wishlist a request owns: a signed-in customer's (session cookie or API token)
// by the user id, a guest's by the row id the session carries. The rows themselves are
// models/owned.server's; a guest's new row goes back to the browser as a Set-Cookie here.
import { jsonResponse } from "~/lib/api.server";
import { bearerToken, getUserId } from "~/lib/identity.server";
import { clientOf } from "~/lib/rate-limit.server";
import type { SessionData } from "~/lib/session.server";
import { commitSession, getSession } from "~/lib/session.server";
import type { Owner, OwnedTable } from "~/models/owned.server";
import { findOwned } from "~/models/owned.server";

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
