// Admin: categories. Search (title, description), pages of 10, add/edit/delete dialogs.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AdminDialog, AdminTable, BehindDialog, DeleteDialog, EmptyRow, ListError, ListSearch, RowActions } from "~/components/AdminUI";
import { FormBanner } from "~/components/FormBanner";
import { ImageFields } from "~/components/ImageFields";
import { FormField, fieldA11y, fieldProps } from "~/components/FormField";
import { Pagination } from "~/components/Pagination";
import { useFormErrors } from "~/hooks/useFormErrors";
import { adminCrudAction, adminListLoader } from "~/web/admin-crud.server";
import { parseWith } from "~/lib/http.server";
import { MAX_ADMIN_BODY_BYTES } from "~/lib/request-rules";
import { withImage } from "~/lib/uploads.server";
import { createCategory, deleteCategory, updateCategory } from "~/models/catalogue/admin-categories.server";
import { getCategoryForAdmin, listCategoriesPage } from "~/models/catalogue/admin-lists.server";
import { CATEGORY_FIELDS } from "~/utils/admin-fields";
import { CategoryFormSchema, parseAdminListQuery } from "~/utils/admin-schemas";
import type { Category } from "~/utils/catalogue";
import { useIsPending } from "~/hooks/useIsPending";
import type { RoutePermissions } from "~/utils/staff-permissions";

export const handle = { section: "Categories" };

export const permissions = { loader: "catalogue.write", action: "catalogue.write" } satisfies RoutePermissions;

/** The list the page shows, read again after a write to find the page the staff go back to. */
const LIST = { filters: parseAdminListQuery, list: listCategoriesPage };

export const loader = ({ request }: LoaderFunctionArgs) =>
  adminListLoader(request, permissions.loader, { ...LIST, one: getCategoryForAdmin });

export const action = ({ request }: ActionFunctionArgs) =>
  adminCrudAction(request, {
    thing: "Category",
    permission: permissions.action,
    list: LIST,
    fields: ["title", "description", "imgPath"],
    moreFields: ["imageFile"],
    limit: MAX_ADMIN_BODY_BYTES,
    parse: (form) =>
      withImage(form, (imgPath) =>
        parseWith(CategoryFormSchema, { title: form.get("title"), description: form.get("description"), imgPath }),
      ),
    create: createCategory,
    update: updateCategory,
    remove: deleteCategory,
  });

export default function AdminCategories() {
  const { list, error, q, dialog, editing } = useLoaderData<typeof loader>();
  return (
    <div>
      <BehindDialog dialogOpen={dialog !== null}>
        <ListSearch placeholder="Search categories..." q={q} addLabel="Add Category" />
        {error !== null ? (
          <ListError message={error} />
        ) : (
          <>
            <AdminTable label="Categories" head={["Image", "Title", "Slug", "Description", "Products", ""]}>
              {list.rows.length === 0 ? (
                <EmptyRow colSpan={6}>{q ? `No categories match "${q}".` : "No categories yet."}</EmptyRow>
              ) : (
                list.rows.map((c) => (
                  <tr key={c.id} data-testid="category-row">
                    <td className="px-4 py-3">
                      <img src={c.imgPath} alt="" width={48} height={48} className="h-12 w-12 rounded-md bg-sand-100 object-cover" />
                    </td>
                    <td className="px-4 py-3 font-medium">{c.title}</td>
                    <td className="px-4 py-3 text-stone-600 max-sm:hidden">{c.slug}</td>
                    <td className="max-w-xs px-4 py-3 text-stone-700">
                      <span className="line-clamp-2">{c.description}</span>
                    </td>
                    <td data-label="Products" className="px-4 py-3">
                      {c.productCount}
                    </td>
                    <td className="px-4 py-3">
                      <RowActions id={c.id} name={c.title} />
                    </td>
                  </tr>
                ))
              )}
            </AdminTable>
            <Pagination info={list.info} label="Categories" />
          </>
        )}
      </BehindDialog>
      {dialog?.mode === "delete" && editing ? <DeleteCategory category={editing} /> : null}
      {dialog?.mode === "new" || (dialog?.mode === "edit" && editing) ? (
        <CategoryForm category={dialog.mode === "edit" ? editing : null} />
      ) : null}
    </div>
  );
}

function DeleteCategory({ category }: { category: Category }) {
  const result = useActionData<typeof action>();
  return <DeleteDialog thing="category" id={category.id} name={category.title} error={result?.formError} />;
}

function CategoryForm({ category }: { category: Category | null }) {
  const result = useActionData<typeof action>();
  const errors = useFormErrors(result);
  const busy = useIsPending({ state: "submitting" });
  const value = (name: keyof Category & string) => errors.value(name) ?? (category ? String(category[name]) : "");
  return (
    <AdminDialog title={category ? "Edit Category" : "Add Category"}>
      {(close) => (
        <Form method="post" encType="multipart/form-data" noValidate onChange={errors.onChange} className="mt-4 space-y-4">
          <FormBanner message={errors.formError} />
          {category ? <input type="hidden" name="id" value={category.id} /> : null}
          <FormField id="category-title" label="Title" required error={errors.error("title")}>
            <input
              id="category-title"
              name="title"
              defaultValue={value("title")}
              {...fieldProps(CATEGORY_FIELDS.title)}
              className="field-input"
              {...fieldA11y("category-title", errors.error("title"))}
            />
          </FormField>
          <FormField id="category-description" label="Description" required error={errors.error("description")}>
            <textarea
              id="category-description"
              name="description"
              defaultValue={value("description")}
              rows={3}
              {...fieldProps(CATEGORY_FIELDS.description)}
              className="field-input"
              {...fieldA11y("category-description", errors.error("description"))}
            />
          </FormField>
          <ImageFields
            idPrefix="category"
            value={value("imgPath")}
            urlError={errors.error("imgPath")}
            fileError={errors.error("imageFile")}
          />
          <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:justify-end">
            {close}
            <button type="submit" name="intent" value={category ? "update" : "create"} className="btn-primary" disabled={busy}>
              {busy ? "Saving..." : category ? "Save Changes" : "Add Category"}
            </button>
          </div>
        </Form>
      )}
    </AdminDialog>
  );
}
