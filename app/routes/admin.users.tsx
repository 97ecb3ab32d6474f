// Admin: users. Loaded from the database (docs/product.md: loading skeleton, 'Error: {message}' on
// failure, mobile 'N/A' when missing); search by name, email or mobile; add/edit/delete.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import {
  AdminDialog,
  AdminTable,
  BehindDialog,
  DeleteDialog,
  EmptyRow,
  ListError,
  ListSearch,
  ListSkeleton,
  RowActions,
} from "~/components/AdminUI";
import { FormBanner } from "~/components/FormBanner";
import { FormField, fieldA11y, fieldProps } from "~/components/FormField";
import { Pagination } from "~/components/Pagination";
import { useFormErrors } from "~/hooks/useFormErrors";
import { adminCrudAction, adminListLoader } from "~/web/admin-crud.server";
import { parseWith } from "~/lib/http.server";
import { createUserByAdmin, deleteUserByAdmin, getUserForAdmin, listUsersPage, updateUserByAdmin } from "~/models/users/admin.server";
import type { User } from "~/models/users/users.server";
import { PROFILE_FIELDS } from "~/utils/account-fields";
import { ProfileSchema } from "~/utils/account-schemas";
import { parseAdminListQuery } from "~/utils/admin-schemas";
import { formatShortDate } from "~/utils/dates";
import { useIsPending } from "~/hooks/useIsPending";
import { useStaffCan } from "~/hooks/useStaffCan";
import type { RoutePermissions } from "~/utils/staff-permissions";

export const handle = { section: "Users" };

/** Support and managers read the customers' accounts; only the owner edits or deletes them. */
export const permissions = { loader: "customers.read", action: "customers.write" } satisfies RoutePermissions;

/** The list the page shows, read again after a write to find the page the staff go back to. */
const LIST = { filters: parseAdminListQuery, list: listUsersPage };

export const loader = ({ request }: LoaderFunctionArgs) => adminListLoader(request, permissions.loader, { ...LIST, one: getUserForAdmin });

export const action = ({ request }: ActionFunctionArgs) =>
  adminCrudAction(request, {
    thing: "User",
    permission: permissions.action,
    list: LIST,
    fields: ["name", "email", "mobile"],
    parse: async (form) => parseWith(ProfileSchema, { name: form.get("name"), email: form.get("email"), mobile: form.get("mobile") }),
    create: createUserByAdmin,
    update: updateUserByAdmin,
    remove: deleteUserByAdmin,
    addedNote: "They can set a password with 'Forgot password'.",
  });

export default function AdminUsers() {
  const { list, error, q, dialog, editing } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  // Support reads the accounts; adding, editing and deleting them is the owner's.
  const canWrite = useStaffCan("customers.write");
  // docs/product.md: the users list shows a loading skeleton while it loads.
  const loading = navigation.state === "loading" && navigation.location.pathname === "/admin/users" && navigation.formData === undefined;
  return (
    <div>
      <BehindDialog dialogOpen={dialog !== null}>
        <ListSearch placeholder="Search users..." q={q} addLabel={canWrite ? "Add User" : undefined} />
        {error !== null ? (
          <ListError message={error} />
        ) : loading ? (
          <ListSkeleton />
        ) : (
          <>
            <AdminTable label="Users" head={["Name", "Email", "Mobile", "Orders", "Joined", ""]}>
              {list.rows.length === 0 ? (
                <EmptyRow colSpan={6}>{q ? `No users match "${q}".` : "No users yet."}</EmptyRow>
              ) : (
                list.rows.map((u) => (
                  <tr key={u.id} data-testid="user-row">
                    <td className="px-4 py-3 font-medium">{u.name}</td>
                    <td className="px-4 py-3">{u.email}</td>
                    <td data-label="Mobile" className="px-4 py-3">
                      {u.mobile ?? "N/A"}
                    </td>
                    <td data-label="Orders" className="px-4 py-3">
                      {u.orderCount}
                    </td>
                    <td data-label="Joined" className="px-4 py-3">
                      {formatShortDate(u.createdAt)}
                    </td>
                    <td className="px-4 py-3">{canWrite ? <RowActions id={u.id} name={u.name} /> : null}</td>
                  </tr>
                ))
              )}
            </AdminTable>
            <Pagination info={list.info} label="Users" />
          </>
        )}
      </BehindDialog>
      {dialog?.mode === "delete" && editing ? <DeleteUser user={editing} /> : null}
      {dialog?.mode === "new" || (dialog?.mode === "edit" && editing) ? <UserForm user={dialog.mode === "edit" ? editing : null} /> : null}
    </div>
  );
}

function DeleteUser({ user }: { user: User }) {
  const result = useActionData<typeof action>();
  return <DeleteDialog thing="user" id={user.id} name={`${user.name} (${user.email})`} error={result?.formError} />;
}

function UserForm({ user }: { user: User | null }) {
  const result = useActionData<typeof action>();
  const errors = useFormErrors(result);
  const busy = useIsPending({ state: "submitting" });
  const text = (name: "name" | "email" | "mobile") => errors.value(name) ?? (user ? (user[name] ?? "") : "");
  const e = errors.error;
  return (
    <AdminDialog title={user ? "Edit User" : "Add User"}>
      {(close) => (
        <Form method="post" noValidate onChange={errors.onChange} className="mt-4 space-y-4">
          <FormBanner message={errors.formError} />
          {user ? <input type="hidden" name="id" value={user.id} /> : null}
          <FormField id="user-name" label="Name" required error={e("name")}>
            <input
              id="user-name"
              name="name"
              defaultValue={text("name")}
              {...fieldProps(PROFILE_FIELDS.name)}
              autoComplete="off"
              className="field-input"
              {...fieldA11y("user-name", e("name"))}
            />
          </FormField>
          <FormField id="user-email" label="Email" required error={e("email")}>
            <input
              id="user-email"
              name="email"
              {...fieldProps(PROFILE_FIELDS.email)}
              defaultValue={text("email")}
              autoComplete="off"
              className="field-input"
              {...fieldA11y("user-email", e("email"))}
            />
          </FormField>
          <FormField id="user-mobile" label="Mobile" optional error={e("mobile")}>
            <input
              id="user-mobile"
              name="mobile"
              {...fieldProps(PROFILE_FIELDS.mobile)}
              inputMode="tel"
              defaultValue={text("mobile")}
              autoComplete="off"
              className="field-input"
              {...fieldA11y("user-mobile", e("mobile"))}
            />
          </FormField>
          {user ? null : (
            <p className="text-sm text-stone-600">
              The customer sets their own password with &apos;Forgot password&apos; on the login page.
            </p>
          )}
          <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
            {close}
            <button type="submit" name="intent" value={user ? "update" : "create"} className="btn-primary" disabled={busy}>
              {busy ? "Saving..." : user ? "Save Changes" : "Add User"}
            </button>
          </div>
        </Form>
      )}
    </AdminDialog>
  );
}
