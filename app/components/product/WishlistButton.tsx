// The product page's Add to Wishlist / Saved button.
import { useFetcher, useLocation } from "@remix-run/react";
import type { FormEvent } from "react";
import { HeartIcon } from "~/components/icons";

/** Add to Wishlist / Saved: a form post to /wishlist; with JavaScript a fetcher, shown at once. */
export function WishlistButton({ itemId, saved }: { itemId: number; saved: boolean }) {
  const location = useLocation();
  const fetcher = useFetcher<{ ok: boolean; formError?: string }>({ key: `wishlist-${itemId}` });
  const pendingIntent = fetcher.formData?.get("intent");
  const error = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data.formError : null;
  const showSaved = pendingIntent ? pendingIntent === "add" : saved;
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formData = new FormData(event.currentTarget);
    formData.delete("redirectTo");
    fetcher.submit(formData, { method: "post", action: "/wishlist" });
  };
  return (
    <fetcher.Form method="post" action="/wishlist" onSubmit={onSubmit}>
      <input type="hidden" name="intent" value={showSaved ? "remove" : "add"} />
      <input type="hidden" name="itemId" value={itemId} />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <button type="submit" className="btn-secondary" aria-pressed={showSaved}>
        <HeartIcon className={`h-5 w-5 ${showSaved ? "fill-current" : ""}`} />
        {showSaved ? "Saved to Wishlist" : "Add to Wishlist"}
      </button>
      {error ? (
        <p role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </fetcher.Form>
  );
}
