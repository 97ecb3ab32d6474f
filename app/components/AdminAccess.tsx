// The hidden 'Admin Access' dialog (docs/product.md): five clicks on the home page's logo open
// it (useLogoClicks). It is a plain form posting to /admin/login, so it works without JavaScript too (the
// server renders it open at /?admin-access); with JavaScript the answer comes back in place.
import { useFetcher, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { ModalDialog } from "./ModalDialog";
import { useHydrated } from "~/hooks/useHydrated";
import { LockIcon } from "./account-icons";

export const NOT_CONFIGURED = "Admin access is not configured on this server. Set ADMIN_PASSWORD to turn it on.";

/**
 * Whether admin access is on for this server, as the root loader tells every page
 * (`adminConfigured`). Read by shape, since components do not import the root module.
 */
export function useAdminConfigured(): boolean {
  return useRouteLoaderData<{ adminConfigured?: boolean }>("root")?.adminConfigured ?? false;
}

/**
 * The form itself: in the dialog, and on the page /admin/login answers a wrong password with.
 * With JavaScript it posts through a fetcher and 'Invalid password' appears in place.
 */
export function AdminAccessForm({ configured, error: pageError }: { configured: boolean; error?: string }) {
  const fetcher = useFetcher<{ message?: string }>();
  const hydrated = useHydrated();
  const [edited, setEdited] = useState(false);
  const busy = fetcher.state !== "idle";
  const error = edited ? undefined : (fetcher.data?.message ?? pageError);
  useEffect(() => setEdited(false), [fetcher.data]);

  if (!configured)
    return (
      <p role="alert" className="mt-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
        {NOT_CONFIGURED}
      </p>
    );
  return (
    <fetcher.Form method="post" action="/admin/login" className="mt-5 space-y-4">
      {/* Tells the server a script shows the answer, so it can answer in place. */}
      {hydrated ? <input type="hidden" name="respond" value="inline" /> : null}
      <div>
        <label htmlFor="admin-password" className="sr-only">
          Admin password
        </label>
        <input
          id="admin-password"
          name="password"
          type="password"
          required
          autoComplete="current-password"
          placeholder="Enter admin password"
          className="field-input"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "admin-password-error" : undefined}
          onChange={() => setEdited(true)}
          autoFocus
        />
        {error ? (
          <p id="admin-password-error" role="alert" className="field-error">
            {error}
          </p>
        ) : null}
      </div>
      <button type="submit" className="btn-primary w-full" disabled={busy}>
        {busy ? "Checking..." : "Login"}
      </button>
    </fetcher.Form>
  );
}

/** The modal itself. Without JavaScript (`onClose` absent) it is rendered open over a dimmed page. */
export function AdminAccessDialog({
  configured,
  onClose,
  closeHref = "/",
}: {
  configured: boolean;
  onClose?: () => void;
  closeHref?: string;
}) {
  return (
    <ModalDialog labelledBy="admin-access-title" onClose={onClose} width="w-[min(92vw,24rem)]">
      {(close) => (
        <>
          <div className="flex items-center gap-3">
            <span className="flex h-10 w-10 items-center justify-center rounded-full bg-wood-50 text-wood-700">
              <LockIcon className="h-5 w-5" />
            </span>
            <h2 id="admin-access-title" className="text-xl font-semibold">
              Admin Access
            </h2>
          </div>
          <AdminAccessForm configured={configured} />
          <div className="mt-3 text-center">
            {onClose ? (
              <button type="button" className="btn-ghost text-sm" onClick={close}>
                Cancel
              </button>
            ) : (
              <a href={closeHref} className="btn-ghost text-sm">
                Cancel
              </a>
            )}
          </div>
        </>
      )}
    </ModalDialog>
  );
}
