// One row of the owner's staff list (/admin/staff): the account's state, its role (a form to
// change it), two-step sign-in and last sign-in, and its actions, each a plain form with its intent.
import { Form } from "@remix-run/react";
import type { StaffListRow } from "~/models/staff/accounts.server";
import { formatDateTime } from "~/utils/dates";
import { ROLE_LABELS, ROLES, TWO_STEP_ROLES } from "~/utils/staff-permissions";

const SMALL_BUTTON = "btn-secondary whitespace-nowrap px-3 py-1.5 text-sm";

function StatusBadge({ row, now }: { row: StaffListRow; now: string }) {
  if (!row.active) return <span className="rounded-full bg-stone-200 px-2 py-0.5 text-xs font-semibold text-stone-800">Disabled</span>;
  if (row.invitation === "pending") {
    return (
      <>
        <span className="whitespace-nowrap rounded-full bg-blue-100 px-2 py-0.5 text-xs font-semibold text-blue-800">
          Invitation pending
        </span>
        {row.invitationExpiresAt && row.invitationExpiresAt > now ? (
          <span className="mt-1 block text-xs text-stone-600">until {formatDateTime(row.invitationExpiresAt)}</span>
        ) : null}
      </>
    );
  }
  if (row.invitation === "expired")
    return (
      <span className="whitespace-nowrap rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
        Invitation expired
      </span>
    );
  return <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-800">Active</span>;
}

function twoStepText(row: StaffListRow, forAll: boolean): string {
  const set = row.twoStepEnabled ? "On" : "Off";
  if (TWO_STEP_ROLES.includes(row.role)) return `${set}; required for ${ROLE_LABELS[row.role].toLowerCase()}s`;
  if (row.twoStepRequired) return `${set}; required for this account`;
  if (forAll) return `${set}; required for all staff`;
  return `${set}; optional`;
}

function RoleForm({ row }: { row: StaffListRow }) {
  const id = `role-${row.id}`;
  return (
    <Form method="post" className="flex items-center gap-2">
      <input type="hidden" name="id" value={row.id} />
      <label htmlFor={id} className="sr-only">
        Role of {row.name}
      </label>
      <select id={id} name="role" defaultValue={row.role} className="field-input w-auto min-w-[8.5rem] py-1.5 text-sm">
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {ROLE_LABELS[r]}
          </option>
        ))}
      </select>
      <button type="submit" name="intent" value="role" className={SMALL_BUTTON} aria-label={`Change the role of ${row.name}`}>
        Change role
      </button>
    </Form>
  );
}

/** One row action: a form of the account's id, an optional `on`, and the button naming its intent. */
function RowButton({
  row,
  intent,
  on,
  label,
  danger,
}: {
  row: StaffListRow;
  intent: string;
  on?: "on" | "off";
  label: string;
  danger?: boolean;
}) {
  return (
    <Form method="post">
      <input type="hidden" name="id" value={row.id} />
      {on ? <input type="hidden" name="on" value={on} /> : null}
      <button
        type="submit"
        name="intent"
        value={intent}
        className={`${SMALL_BUTTON} ${danger ? "text-red-700" : ""}`}
        aria-label={`${label}: ${row.name}`}
      >
        {label}
      </button>
    </Form>
  );
}

export function StaffRow({
  row,
  forAll,
  me,
  now,
  error,
}: {
  row: StaffListRow;
  forAll: boolean;
  me: number | null;
  now: string;
  error?: string;
}) {
  return (
    <tr data-testid="staff-row" className="align-top">
      <td data-label="Status" className="px-4 py-3">
        <StatusBadge row={row} now={now} />
      </td>
      <td className="px-4 py-3">
        <span className="font-medium">{row.name}</span>
        {row.id === me ? <span className="ml-1 text-xs text-stone-600">(you)</span> : null}
        <span className="block break-words text-sm text-stone-600">{row.email}</span>
        {error ? (
          <p role="alert" className="field-error">
            {error}
          </p>
        ) : null}
      </td>
      <td data-label="Role" className="px-4 py-3">
        <span className="sr-only" data-testid="staff-role">
          {ROLE_LABELS[row.role]}
        </span>
        <RoleForm row={row} />
      </td>
      <td data-label="Two-step sign-in" className="px-4 py-3 text-sm" data-testid="staff-two-step">
        {twoStepText(row, forAll)}
      </td>
      <td data-label="Last sign-in" className="whitespace-nowrap px-4 py-3 text-sm">
        {row.lastSignInAt ? formatDateTime(row.lastSignInAt) : "Never"}
      </td>
      <td className="px-4 py-3">
        <div className="flex flex-wrap justify-end gap-2">
          {row.active ? (
            <RowButton row={row} intent="disable" label="Disable" danger />
          ) : (
            <RowButton row={row} intent="enable" label="Enable" />
          )}
          {TWO_STEP_ROLES.includes(row.role) ? null : row.twoStepRequired ? (
            <RowButton row={row} intent="two-step" on="off" label="Stop requiring two-step" />
          ) : (
            <RowButton row={row} intent="two-step" on="on" label="Require two-step" />
          )}
          {row.twoStepEnabled && row.id !== me ? <RowButton row={row} intent="reset-two-step" label="Reset two-step" danger /> : null}
          {row.active && row.invitation !== "accepted" ? <RowButton row={row} intent="resend" label="Send invitation again" /> : null}
        </div>
      </td>
    </tr>
  );
}
