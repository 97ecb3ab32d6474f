import { useFetcher, useFetchers, useRouteLoaderData } from "@remix-run/react";
import type { FormEvent } from "react";
import type { CartActionData, RootCartData } from "~/utils/cart";
import { addInFlight, CART_ACTION, pendingCartCount } from "~/utils/cart";

/**
 * Cart forms post to /cart. Without JavaScript they carry `redirectTo` and the action answers
 * with a redirect back; with JavaScript the same form goes through a fetcher without
 * `redirectTo`, so the page stays put and the root loader (badge, toasts) revalidates.
 */
export function useCartFetcher(key?: string) {
  const fetcher = useFetcher<CartActionData>(key ? { key } : undefined);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const native = event.nativeEvent as SubmitEvent;
    const formData = new FormData(event.currentTarget, native.submitter ?? undefined);
    formData.delete("redirectTo");
    fetcher.submit(formData, { method: "post", action: CART_ACTION });
  };
  return { fetcher, onSubmit };
}

/** The header badge: the server's count with the cart posts still on their way applied at once (see pendingCartCount). */
export function useOptimisticCartCount(serverCount: number): number {
  return pendingCartCount(serverCount, useFetchers());
}

/**
 * True while a visitor who has no cart yet is adding a first item: other add buttons wait, so
 * two quick first adds cannot each create a cart (the browser would keep only one of them).
 */
export function useFirstAddInFlight(): boolean {
  const root = useRootCartData();
  const fetchers = useFetchers();
  return !root?.hasCart && addInFlight(fetchers);
}

/** The root loader's cart data (undefined while the root has none, as in its error boundary). */
export function useRootCartData(): RootCartData | undefined {
  return useRouteLoaderData<RootCartData>("root");
}
