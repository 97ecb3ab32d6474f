// The hidden 'Admin Access' dialog (docs/product.md), the staff sign-in: five clicks on the home
// page's logo open it (useLogoClicks). Email and password, then the code of an account with
// two-step sign-in (docs/decisions/0033). The password alone, with the email left empty, signs in
// the shop's built-in owner (ADMIN_PASSWORD) while the shop allows it. Plain forms posting to
// /admin/login and /admin/login/code, so they work without JavaScript too (the server renders the
// dialog open at /?admin-access); with JavaScript the answers, the code step included, come back in place.
import { useFetcher, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import { ModalDialog } from "./ModalDialog";
import { useHydrated } from "~/hooks/useHydrated";
import { LockIcon } from "./account-icons";

/**
 * Whether this server lets the built-in owner in with ADMIN_PASSWORD alone, as the root loader
 * tells every page (`adminConfigured`). Read by shape, since components do not import the root module.
 */
export function useAdminConfigured(): boolean {
  return useRouteLoaderData<{ adminConfigured?: boolean }>("root")?.adminConfigured ?? false;
}

/** What /admin/login and /admin/login/code answer a script: a message, or the code step. */
export interface AdminAccessAnswer {
  message?: string;
  step?: "code";
}

/**
 * The email and password form: in the dialog, and on the page /admin/login answers a refusal
 * with. With JavaScript it posts through a fetcher; the message, or the code form, appears in place.
 */
export function AdminAccessForm({ builtinOwner, error: pageError, email }: { builtinOwner: boolean; error?: string; email?: string }) {
  const fetcher = useFetcher<AdminAccessAnswer>();
  const hydrated = useHydrated();
  const [edited, setEdited] = useState(false);
  const busy = fetcher.state !== "idle";
  const error = edited ? undefined : (fetcher.data?.message ?? pageError);
  useEffect(() => setEdited(false), [fetcher.data]);

  if (fetcher.data?.step === "code") return <StaffCodeForm />;
  const describedBy = [builtinOwner ? "admin-email-hint" : null, error ? "admin-password-error" : null].filter(Boolean).join(" ");
  return (
    <fetcher.Form method="post" action="/admin/login" className="mt-5 space-y-4">
      {/* Tells the server a script shows the answer, so it can answer in place. */}
      {hydrated ? <input type="hidden" name="respond" value="inline" /> : null}
      <div>
        <label htmlFor="admin-email" className="field-label">
          Email
        </label>
        <input
          id="admin-email"
          name="email"
          type="email"
          required={!builtinOwner}
          autoComplete="username"
          defaultValue={email}
          className="field-input"
          aria-describedby={builtinOwner ? "admin-email-hint" : undefined}
          onChange={() => setEdited(true)}
          autoFocus
        />
        {builtinOwner ? (
          <p id="admin-email-hint" className="mt-1 text-xs text-stone-500">
            Leave it empty to sign in as the shop&apos;s built-in owner with the admin password.
          </p>
        ) : null}
      </div>
      <div>
        <label htmlFor="admin-password" className="field-label">
          Password
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
          aria-describedby={describedBy || undefined}
          onChange={() => setEdited(true)}
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
      {/* Staff accounts only: the built-in owner's password is the shop's ADMIN_PASSWORD. */}
      <p className="text-center text-sm">
        <a href="/admin/forgot-password" className="text-wood-700 underline">
          Forgot your staff password?
        </a>
      </p>
    </fetcher.Form>
  );
}

/**
 * The second step: the 6-digit code from the authenticator app, or a recovery code. In the dialog
 * (with JavaScript) and on /admin/login/code (the page a plain form post lands on).
 */
export function StaffCodeForm({ error: pageError }: { error?: string }) {
  const fetcher = useFetcher<AdminAccessAnswer>();
  const [edited, setEdited] = useState(false);
  const busy = fetcher.state !== "idle";
  const error = edited ? undefined : (fetcher.data?.message ?? pageError);
  useEffect(() => setEdited(false), [fetcher.data]);
  return (
    <fetcher.Form method="post" action="/admin/login/code" className="mt-5 space-y-4">
      <div>
        <label htmlFor="admin-code" className="field-label">
          Sign-in code
        </label>
        <p id="admin-code-hint" className="mb-2 text-sm text-stone-600">
          Enter the 6-digit code from your authenticator app, or one of your recovery codes.
        </p>
        <input
          id="admin-code"
          name="code"
          type="text"
          required
          inputMode="text"
          autoComplete="one-time-code"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={64}
          className="field-input tracking-widest"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "admin-code-hint admin-code-error" : "admin-code-hint"}
          onChange={() => setEdited(true)}
          autoFocus
        />
        {error ? (
          <p id="admin-code-error" role="alert" className="field-error">
            {error}
          </p>
        ) : null}
      </div>
      <button type="submit" className="btn-primary w-full" disabled={busy}>
        {busy ? "Checking..." : "Verify"}
      </button>
    </fetcher.Form>
  );
}

/** The ten recovery codes, shown once: after setting up here, and after renewing them on /admin/account. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  return (
    <div>
      <p className="text-sm text-stone-700">
        Keep these recovery codes somewhere safe. Each one signs you in once if you lose your phone. They are shown only now.
      </p>
      <ul aria-label="Recovery codes" className="mt-3 grid grid-cols-2 gap-2 rounded-lg bg-sand-50 p-3 font-mono text-sm">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
    </div>
  );
}

/** The lock and the heading every Admin Access step shows. */
export function AdminAccessHeading({ id, level = 2 }: { id?: string; level?: 1 | 2 }) {
  const Heading = level === 1 ? "h1" : "h2";
  return (
    <div className="flex items-center gap-3">
      <span className="flex h-10 w-10 items-center justify-center rounded-full bg-wood-50 text-wood-700">
        <LockIcon className="h-5 w-5" />
      </span>
      <Heading id={id} className="text-xl font-semibold">
        Admin Access
      </Heading>
    </div>
  );
}

/** The modal itself. Without JavaScript (`onClose` absent) it is rendered open over a dimmed page. */
export function AdminAccessDialog({
  builtinOwner,
  onClose,
  closeHref = "/",
}: {
  builtinOwner: boolean;
  onClose?: () => void;
  closeHref?: string;
}) {
  return (
    <ModalDialog labelledBy="admin-access-title" onClose={onClose} width="w-[min(92vw,24rem)]">
      {(close) => (
        <>
          <AdminAccessHeading id="admin-access-title" />
          <AdminAccessForm builtinOwner={builtinOwner} />
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
