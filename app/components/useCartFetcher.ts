import { useFetcher, useFetchers } from "@remix-run/react";
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

/** The header badge: the server's count plus units still on their way (raised by the quantity at once). */
export function useOptimisticCartCount(serverCount: number): number {
  const fetchers = useFetchers();
  let count = serverCount;
  for (const f of fetchers) {
    const fd = f.formData;
    if (!fd || fd.get("intent") !== "add") continue;
    const quantity = Number(fd.get("quantity") ?? 1);
    if (Number.isInteger(quantity) && quantity > 0) count += quantity;
  }
  return count;
}
