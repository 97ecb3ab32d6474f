// Pieces every admin list shares: the search bar, the table frame, the add/edit dialog
// (a modal <dialog> with JavaScript, an open panel without) and the delete confirmation.
import { Form, useLocation, useNavigate } from "@remix-run/react";
import { Link } from "./Link";
import type { ReactNode } from "react";
import { useEffect, useRef } from "react";
import { FormBanner } from "~/components/FormBanner";
import { PlusIcon, SearchIcon } from "~/components/icons";
import { useHydrated } from "~/hooks/useHydrated";
import { useIsPending } from "~/hooks/useIsPending";
import { listSearch, withParams } from "~/utils/admin-url";

const FILTER_PARAMS = ["q", "category", "status", "payment", "from", "to"];

/** The GET search form: `q` plus any filters (children); a new search starts at page 1. */
export function ListSearch({
  placeholder,
  q,
  children,
  addLabel,
}: {
  placeholder: string;
  q: string;
  children?: ReactNode;
  addLabel?: string;
}) {
  const location = useLocation();
  return (
    <div className="flex flex-col gap-3 lg:flex-row lg:items-end lg:justify-between">
      <Form method="get" role="search" className="flex flex-1 flex-col gap-2 sm:flex-row sm:items-center">
        <label className="relative flex-1 sm:max-w-sm">
          <span className="sr-only">Search</span>
          <SearchIcon className="pointer-events-none absolute left-3 top-1/2 h-5 w-5 -translate-y-1/2 text-stone-400" />
          <input type="search" name="q" defaultValue={q} placeholder={placeholder} maxLength={100} className="field-input pl-10" />
        </label>
        {children}
        <button type="submit" className="btn-secondary">
          Search
        </button>
        {FILTER_PARAMS.some((k) => new URLSearchParams(location.search).get(k)) ? (
          <Link to={location.pathname} className="btn-ghost text-sm">
            Clear
          </Link>
        ) : null}
      </Form>
      {addLabel ? (
        <Link
          to={`${location.pathname}${withParams(listSearch(location.search), { new: 1 })}`}
          preventScrollReset
          className="btn-primary shrink-0"
        >
          <PlusIcon className="h-5 w-5" /> {addLabel}
        </Link>
      ) : null}
    </div>
  );
}

/** On a phone: each row a wrapped block, the second cell (the row's name) wide, the last (its actions) at the end. */
const TABLE_BODY = [
  "divide-y divide-sand-200",
  "max-sm:[&>tr]:flex max-sm:[&>tr]:flex-wrap max-sm:[&>tr]:items-center max-sm:[&>tr]:gap-x-1 max-sm:[&>tr]:py-2",
  "max-sm:[&>tr>td]:px-3 max-sm:[&>tr>td]:py-1",
  "max-sm:[&>tr>td:nth-child(2)]:min-w-[55%] max-sm:[&>tr>td:nth-child(2)]:flex-1 max-sm:[&>tr>td:last-child]:ml-auto",
].join(" ");

/**
 * A list's table. On a phone each row becomes a wrapped block of its cells (the column names
 * stay for screen readers; a cell with `data-label` shows its name before a bare value, see
 * tailwind.css) instead of a table scrolling sideways.
 */
export function AdminTable({ label, head, children, empty }: { label: string; head: string[]; children: ReactNode; empty?: ReactNode }) {
  return (
    <div className="card mt-5 overflow-hidden">
      {/* Focusable, so a keyboard can scroll a table wider than the screen even when no cell holds a control. */}
      <div className="overflow-x-auto" tabIndex={0} role="region" aria-label={label}>
        <table className="admin-table w-full text-left text-sm sm:min-w-[40rem]" aria-label={label}>
          <thead className="bg-sand-50 text-xs uppercase tracking-wide text-stone-600 max-sm:sr-only">
            <tr>
              {head.map((h) => (
                <th key={h} scope="col" className="px-4 py-3 font-semibold">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className={TABLE_BODY}>{children}</tbody>
        </table>
      </div>
      {empty}
    </div>
  );
}

export function EmptyRow({ colSpan, children }: { colSpan: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={colSpan} className="px-4 py-10 text-center text-stone-600">
        {children}
      </td>
    </tr>
  );
}

/** 'Error: {message}' (docs/product.md) when a list could not be loaded. */
export function ListError({ message }: { message: string }) {
  return (
    <p role="alert" className="card mt-5 border-red-200 bg-red-50 p-4 text-red-800">
      Error: {message}
    </p>
  );
}

/** Rows of grey bars while a list loads (docs/product.md: the users list's loading skeleton). */
export function ListSkeleton({ rows = 6 }: { rows?: number }) {
  return (
    <div className="card mt-5 p-4" aria-busy="true" aria-label="Loading" data-testid="list-skeleton">
      <div className="space-y-3">
        {Array.from({ length: rows }, (_, i) => (
          <div key={i} className="flex animate-pulse gap-4">
            <div className="h-4 w-1/4 rounded bg-sand-200" />
            <div className="h-4 w-1/3 rounded bg-sand-200" />
            <div className="h-4 flex-1 rounded bg-sand-100" />
          </div>
        ))}
      </div>
    </div>
  );
}

const MODAL_PLACE = "fixed inset-0 z-50 m-auto max-h-[92vh]";
const MODAL_LOOK = "overflow-y-auto rounded-xl bg-white p-6 shadow-2xl backdrop:bg-black/40";

/**
 * An add/edit/delete dialog opened by the URL (?new=1, ?edit=ID, ?delete=ID). With JavaScript
 * it is a modal <dialog> and Escape closes it; without, it is a plain page (the list behind it
 * is left out: see BehindDialog) and Cancel is a link back to the list.
 */
export function AdminDialog({ title, children, wide }: { title: string; children: (close: ReactNode) => ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  const hydrated = useHydrated();
  const location = useLocation();
  const navigate = useNavigate();
  const back = `${location.pathname}${listSearch(location.search)}`;
  useEffect(() => {
    const dialog = ref.current;
    if (hydrated && dialog && !dialog.open) dialog.showModal();
  }, [hydrated]);
  const close = (
    <Link to={back} preventScrollReset className="btn-secondary">
      Cancel
    </Link>
  );
  if (!hydrated) {
    return (
      <section aria-labelledby="admin-dialog-title" className={`card mx-auto p-5 sm:p-6 ${wide ? "max-w-2xl" : "max-w-lg"}`}>
        <h2 id="admin-dialog-title" className="text-xl font-semibold">
          {title}
        </h2>
        {children(close)}
      </section>
    );
  }
  return (
    <dialog
      ref={ref}
      aria-labelledby="admin-dialog-title"
      onCancel={(e) => {
        e.preventDefault();
        navigate(back, { preventScrollReset: true });
      }}
      className={`${MODAL_PLACE} ${wide ? "w-[min(94vw,44rem)]" : "w-[min(94vw,30rem)]"} ${MODAL_LOOK}`}
    >
      <h2 id="admin-dialog-title" className="text-xl font-semibold">
        {title}
      </h2>
      {children(close)}
    </dialog>
  );
}

/** The list under an open dialog: shown behind the modal with JavaScript, left out of the plain page without. */
export function BehindDialog({ dialogOpen, children }: { dialogOpen: boolean; children: ReactNode }) {
  const hydrated = useHydrated();
  return dialogOpen && !hydrated ? null : <>{children}</>;
}

/** The delete confirmation: 'Are you sure you want to delete this {thing}?' */
export function DeleteDialog({ thing, id, name, error }: { thing: string; id: number; name: string; error?: string }) {
  const busy = useIsPending({ intent: "delete" });
  return (
    <AdminDialog title={`Delete ${thing}`}>
      {(close) => (
        <>
          <p className="mt-3 text-stone-700">Are you sure you want to delete this {thing}?</p>
          <p className="mt-1 font-medium">{name}</p>
          <div className="mt-4">
            <FormBanner message={error} />
          </div>
          <Form method="post" className="mt-4 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <input type="hidden" name="id" value={id} />
            {close}
            <button
              type="submit"
              name="intent"
              value="delete"
              className="btn-primary bg-red-700 hover:bg-red-800"
              disabled={busy}
              autoFocus
            >
              {busy ? "Deleting..." : "Delete"}
            </button>
          </Form>
        </>
      )}
    </AdminDialog>
  );
}

/** Edit and Delete links of one row (they open the dialogs through the URL). */
export function RowActions({ id, name }: { id: number; name: string }) {
  const location = useLocation();
  const base = listSearch(location.search);
  return (
    <div className="flex justify-end gap-2">
      <Link to={withParams(base, { edit: id })} preventScrollReset className="btn-ghost px-3 py-1.5 text-sm" aria-label={`Edit ${name}`}>
        Edit
      </Link>
      <Link
        to={withParams(base, { delete: id })}
        preventScrollReset
        className="btn-ghost px-3 py-1.5 text-sm text-red-700"
        aria-label={`Delete ${name}`}
      >
        Delete
      </Link>
    </div>
  );
}

/** A queue's state filter: a GET form of one select and 'Show' (works without JavaScript). */
export function StateFilter<T extends string>({ options, labels, value }: { options: readonly T[]; labels: Record<T, string>; value: T }) {
  return (
    <Form method="get" className="flex items-end gap-2">
      <label>
        <span className="sr-only">State</span>
        <select name="status" defaultValue={value} className="field-input">
          {options.map((f) => (
            <option key={f} value={f}>
              {labels[f]}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="btn-secondary">
        Show
      </button>
    </Form>
  );
}
