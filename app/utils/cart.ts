// The cart's form protocol, shared by the cart action and every page that posts to it: where
// cart forms post, the intents they carry, what the action answers, and the pending changes
// the pages show before the server answers (only posts to /cart count).
import type { FormFailure } from "./forms";
import { MAX_QUANTITY, MIN_QUANTITY } from "./pricing";

/** Where every cart form posts. */
export const CART_ACTION = "/cart";

/** What a cart form asks for, in its `intent` field. */
export const CART_INTENTS = ["add", "update", "remove", "clear"] as const;
export type CartIntent = (typeof CART_INTENTS)[number];

/** The cart action's answer to a fetcher: done, or the refused form. */
export type CartActionData = { ok: true } | FormFailure;

/** What the root loader tells every page about the visitor's cart. */
export interface RootCartData {
  /** whether the visitor has a cart row yet (a first add creates it) */
  hasCart: boolean;
  /** units in the cart: the header badge */
  cartCount: number;
}

/** A fetcher as far as the cart cares: where it posts, and what. */
export interface PendingPost {
  formAction?: string;
  formData?: FormData;
}

const pathOf = (action: string) => action.split("?")[0]!.replace(/\/+$/, "") || "/";

/** A cart post on its way: a fetcher posting to /cart (a wishlist post carries an intent too, and is not one). */
export function isCartPost(post: PendingPost): post is PendingPost & { formData: FormData } {
  return post.formData !== undefined && post.formAction !== undefined && pathOf(post.formAction) === CART_ACTION;
}

const intentOf = (post: PendingPost & { formData: FormData }) => post.formData.get("intent");

/**
 * The header badge: the server's count with the cart changes still on their way applied at once
 * (adds raise it by their quantity, updates by the difference, removals lower it, clear empties it).
 * Cart forms carry the line's current quantity as `previous` so the difference is known here.
 */
export function pendingCartCount(serverCount: number, posts: readonly PendingPost[]): number {
  let count = serverCount;
  for (const post of posts) {
    if (!isCartPost(post)) continue;
    const quantity = Number(post.formData.get("quantity") ?? 1);
    const previous = Number(post.formData.get("previous") ?? 0);
    switch (intentOf(post)) {
      case "add":
        if (Number.isInteger(quantity) && quantity > 0) count += quantity;
        break;
      case "update":
        if (Number.isInteger(quantity) && Number.isInteger(previous)) count += quantity - previous;
        break;
      case "remove":
        if (Number.isInteger(previous)) count -= previous;
        break;
      case "clear":
        return 0;
    }
  }
  return Math.max(0, count);
}

/** Cart lines as the visitor should see them right now: pending updates, removals and a clear applied. */
export function pendingLines<L extends { id: number; quantity: number }>(lines: L[], posts: readonly PendingPost[]): L[] {
  let clearing = false;
  const pending = new Map<number, number | "removed">();
  for (const post of posts) {
    if (!isCartPost(post)) continue;
    const intent = intentOf(post);
    if (intent === "clear") clearing = true;
    const id = Number(post.formData.get("id"));
    if (intent === "remove") pending.set(id, "removed");
    if (intent === "update") {
      const q = Number(post.formData.get("quantity"));
      if (Number.isInteger(q) && q >= MIN_QUANTITY && q <= MAX_QUANTITY) pending.set(id, q);
    }
  }
  if (clearing) return [];
  return lines
    .filter((l) => pending.get(l.id) !== "removed")
    .map((l) => {
      const q = pending.get(l.id);
      return typeof q === "number" ? { ...l, quantity: q } : l;
    });
}

/** Is an add to the cart on its way? */
export function addInFlight(posts: readonly PendingPost[]): boolean {
  return posts.some((post) => isCartPost(post) && intentOf(post) === "add");
}
