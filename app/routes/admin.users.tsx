// Admin: users. Loaded from the database (spec: loading skeleton, 'Error: {message}' on
// failure, mobile 'N/A' when missing); search by name, email or mobile; add/edit/delete.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AdminDialog, AdminTable, BehindDialog, DeleteDialog, EmptyRow, ListError, ListSearch, ListSkeleton, RowActions } from "~/components/AdminUI";
import { FormBanner } from "~/components/AuthLayout";
import { FormField, fieldA11y } from "~/components/FormField";
import { Pagination } from "~/components/Pagination";
import { useFormErrors } from "~/components/useFormErrors";
import { backToList, dialogFromUrl, loadList, readAdminForm, requireAdmin } from "~/lib/admin.server";
import { formAction, formValues } from "~/lib/form.server";
import { parseWith } from "~/lib/http.server";
import { redirectWithToast } from "~/lib/toast.server";
import { createUserByAdmin, deleteUserByAdmin, getUserForAdmin, listUsersPage, updateUserByAdmin } from "~/models/admin-users.server";
import type { User } from "~/models/users.server";
import { ProfileSchema } from "~/utils/account-schemas";
import { parseAdminListQuery } from "~/utils/admin-schemas";
import { formatShortDate } from "~/utils/dates";
import { IdSchema, MAX_LENGTH } from "~/utils/schemas";

export const handle = { section: "Users" };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const query = parseAdminListQuery(url);
  const dialog = dialogFromUrl(url);
  const [result, editing] = await Promise.all([
    loadList(() => listUsersPage(query)),
    dialog && dialog.mode !== "new" ? getUserForAdmin(dialog.id) : null,
  ]);
  return { ...result, q: query.q, dialog: dialog?.mode === "new" || editing ? dialog : null, editing };
}

const FIELDS = ["name", "email", "mobile"];

export async function action({ request }: ActionFunctionArgs) {
  let form: FormData | undefined;
  return formAction(
    async () => {
      form = await readAdminForm(request);
      const intent = form.get("intent");
      const back = backToList(request);
      if (intent === "delete") {
        await deleteUserByAdmin(parseWith(IdSchema, form.get("id")));
        return redirectWithToast(request, back, { type: "success", title: "User deleted" });
      }
      const input = parseWith(ProfileSchema, { name: form.get("name"), email: form.get("email"), mobile: form.get("mobile") });
      if (intent === "update") {
        await updateUserByAdmin(parseWith(IdSchema, form.get("id")), input);
        return redirectWithToast(request, back, { type: "success", title: "User updated" });
      }
      await createUserByAdmin(input);
      return redirectWithToast(request, back, { type: "success", title: "User added", description: "They can set a password with 'Forgot password'." });
    },
    () => (form ? formValues(form, FIELDS) : {}),
  );
}

export default function AdminUsers() {
  const { list, error, q, dialog, editing } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  // Spec: the users list shows a loading skeleton while it loads.
  const loading = navigation.state === "loading" && navigation.location.pathname === "/admin/users" && navigation.formData === undefined;
  return (
    <div>
      <BehindDialog dialogOpen={dialog !== null}>
        <ListSearch placeholder="Search users..." q={q} addLabel="Add User" />
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
                    <td className="px-4 py-3">{u.mobile ?? "N/A"}</td>
                    <td className="px-4 py-3">{u.orderCount}</td>
                    <td className="px-4 py-3">{formatShortDate(u.createdAt)}</td>
                    <td className="px-4 py-3"><RowActions id={u.id} name={u.name} /></td>
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
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  const text = (name: "name" | "email" | "mobile") => errors.value(name) ?? (user ? (user[name] ?? "") : "");
  const e = errors.error;
  return (
    <AdminDialog title={user ? "Edit User" : "Add User"}>
      {(close) => (
        <Form method="post" noValidate onChange={errors.onChange} className="mt-4 space-y-4">
          <FormBanner message={errors.formError} />
          {user ? <input type="hidden" name="id" value={user.id} /> : null}
          <FormField id="user-name" label="Name" required error={e("name")}>
            <input id="user-name" name="name" defaultValue={text("name")} maxLength={MAX_LENGTH.name} autoComplete="off" required className="field-input" {...fieldA11y("user-name", e("name"))} />
          </FormField>
          <FormField id="user-email" label="Email" required error={e("email")}>
            <input id="user-email" name="email" type="email" defaultValue={text("email")} maxLength={MAX_LENGTH.email} autoComplete="off" required className="field-input" {...fieldA11y("user-email", e("email"))} />
          </FormField>
          <FormField id="user-mobile" label="Mobile" optional error={e("mobile")}>
            <input id="user-mobile" name="mobile" type="tel" inputMode="tel" defaultValue={text("mobile")} maxLength={MAX_LENGTH.phone} autoComplete="off" className="field-input" {...fieldA11y("user-mobile", e("mobile"))} />
          </FormField>
          {user ? null : <p className="text-sm text-stone-600">The customer sets their own password with &apos;Forgot password&apos; on the login page.</p>}
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
