import { useFetcher, useFetchers, useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "~/root";
import type { FormEvent } from "react";

export interface CartActionData {
  ok: boolean;
  formError?: string;
  fieldErrors?: Record<string, string>;
}

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
    fetcher.submit(formData, { method: "post", action: "/cart" });
  };
  return { fetcher, onSubmit };
}

/**
 * The header badge: the server's count with the cart changes still on their way applied at once
 * (adds raise it by their quantity, updates by the difference, removals lower it, clear empties it).
 * Cart forms carry the line's current quantity as `previous` so the difference is known here.
 */
export function useOptimisticCartCount(serverCount: number): number {
  const fetchers = useFetchers();
  let count = serverCount;
  for (const f of fetchers) {
    const fd = f.formData;
    if (!fd) continue;
    const quantity = Number(fd.get("quantity") ?? 1);
    const previous = Number(fd.get("previous") ?? 0);
    switch (fd.get("intent")) {
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

/**
 * True while a visitor who has no cart yet is adding a first item: other add buttons wait, so
 * two quick first adds cannot each create a cart (the browser would keep only one of them).
 */
export function useFirstAddInFlight(): boolean {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const fetchers = useFetchers();
  return !root?.hasCart && fetchers.some((f) => f.formData?.get("intent") === "add");
}
