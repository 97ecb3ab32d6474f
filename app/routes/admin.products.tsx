// Admin: products. Search (title, description) with a category filter, pages of 10,
// add/edit/delete dialogs, CSV export of the filtered list and CSV import. The edit dialog
// changes the stock by an adjustment ('+5', '-1') and carries the version it was opened at:
// an edit of a product that changed since (units sold, say) is refused.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { Link } from "~/components/Link";
import { AdminTable, BehindDialog, DeleteDialog, EmptyRow, ListError, ListSearch, RowActions } from "~/components/AdminUI";
import { Pagination } from "~/components/Pagination";
import { ProductForm } from "~/components/ProductForm";
import { ProductStock } from "~/components/variants/ProductStock";
import { parseWith } from "~/lib/http.server";
import { MAX_ADMIN_BODY_BYTES } from "~/lib/request-rules";
import { withImage } from "~/lib/uploads.server";
import { getProductForAdmin, listProductsPage } from "~/models/catalogue/admin-lists.server";
import { createProduct, deleteProduct, updateProduct } from "~/models/catalogue/admin-products.server";
import { listCategories } from "~/models/catalogue/categories.server";
import { parseAdminListQuery, ProductEditSchema, ProductFormSchema, productEditInput, productFormInput } from "~/utils/admin-schemas";
import { withParams } from "~/utils/admin-url";
import { formatPrice } from "~/utils/money";
import { adminCrudAction, adminListLoader } from "~/web/admin-crud.server";
import type { RoutePermissions } from "~/utils/staff-permissions";

export const handle = { section: "Products" };

export const permissions = { loader: "catalogue.write", action: "catalogue.write" } satisfies RoutePermissions;

/** The list the page shows, read again after a write to find the page the staff go back to. */
const LIST = { filters: parseAdminListQuery, list: listProductsPage };

export async function loader({ request }: LoaderFunctionArgs) {
  const page = await adminListLoader(request, permissions.loader, { ...LIST, one: getProductForAdmin });
  const categories = await listCategories();
  return { ...page, category: page.query.category, categories };
}

export const action = ({ request }: ActionFunctionArgs) =>
  adminCrudAction(request, {
    thing: "Product",
    permission: permissions.action,
    list: LIST,
    fields: [
      "title",
      "categoryId",
      "price",
      "imgPath",
      "description",
      "featured",
      "madeToOrder",
      "inStock",
      "stock",
      "stockDelta",
      "version",
      "stockSeen",
    ],
    moreFields: ["specKey", "specValue", "imageFile"],
    limit: MAX_ADMIN_BODY_BYTES,
    parse: (form) => withImage(form, (imgPath) => parseWith(ProductFormSchema, { ...productFormInput(form), imgPath })),
    parseUpdate: (form) => withImage(form, (imgPath) => parseWith(ProductEditSchema, { ...productEditInput(form), imgPath })),
    create: createProduct,
    update: updateProduct,
    remove: deleteProduct,
    // The specification rows, to draw them again as they were typed.
    extraValues: (form) => ({ specs: JSON.stringify([form.getAll("specKey"), form.getAll("specValue")]) }),
  });

export default function AdminProducts() {
  const { list, error, q, category, categories, dialog, editing } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const location = useLocation();
  return (
    <div>
      <BehindDialog dialogOpen={dialog !== null}>
        <ListSearch placeholder="Search products..." q={q} addLabel="Add Product">
          <label className="sm:w-48">
            <span className="sr-only">Category</span>
            <select name="category" defaultValue={String(category)} className="field-input">
              <option value="all">All Categories</option>
              {categories.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.title}
                </option>
              ))}
            </select>
          </label>
        </ListSearch>
        <div className="mt-3 flex flex-wrap gap-2 text-sm">
          <a
            href={`/admin/products/export.csv${withParams("", { q, category: category === "all" ? null : category })}`}
            className="btn-ghost px-3 py-1.5"
            download
          >
            Export CSV
          </a>
          <Link to="/admin/products/import" className="btn-ghost px-3 py-1.5">
            Import CSV
          </Link>
        </div>
        {error !== null ? (
          <ListError message={error} />
        ) : (
          <>
            <AdminTable label="Products" head={["Image", "Title", "Category", "Price", "Stock", "Featured", ""]}>
              {list.rows.length === 0 ? (
                <EmptyRow colSpan={7}>{q || category !== "all" ? "No products match this search." : "No products yet."}</EmptyRow>
              ) : (
                list.rows.map((p) => (
                  <tr key={p.id} data-testid="product-row">
                    <td className="px-4 py-3">
                      <img src={p.imgPath} alt="" width={48} height={48} className="h-12 w-12 rounded-md bg-sand-100 object-cover" />
                    </td>
                    <td className="px-4 py-3">
                      <Link to={`/product/${p.slug}`} className="font-medium hover:underline">
                        {p.title}
                      </Link>
                      <span className="hidden text-xs text-stone-500 sm:block">{p.slug}</span>
                      <span className="flex gap-3">
                        <Link
                          to={`/admin/products/${p.id}/variants`}
                          className="text-xs font-medium text-wood-700 underline"
                          aria-label={`Variants of ${p.title}`}
                        >
                          Variants
                        </Link>
                        <Link
                          to={`/admin/products/${p.id}/photos`}
                          className="text-xs font-medium text-wood-700 underline"
                          aria-label={`Photos of ${p.title}`}
                        >
                          Photos
                        </Link>
                      </span>
                    </td>
                    <td className="px-4 py-3">{p.categoryTitle}</td>
                    <td className="px-4 py-3">
                      {p.variantCount > 1 ? <span className="text-xs text-stone-500">From </span> : null}
                      {formatPrice(p.price)}
                    </td>
                    <td data-label="Stock" className="px-4 py-3">
                      <ProductStock stock={p.stock} inStock={p.inStock} variants={p.variantCount} low={p.lowVariants} />
                    </td>
                    <td data-label="Featured" className="px-4 py-3">
                      {p.featured ? "Yes" : "No"}
                    </td>
                    <td className="px-4 py-3">
                      <RowActions id={p.id} name={p.title} />
                    </td>
                  </tr>
                ))
              )}
            </AdminTable>
            <Pagination info={list.info} label="Products" />
          </>
        )}
      </BehindDialog>
      {dialog?.mode === "delete" && editing ? (
        <DeleteDialog thing="product" id={editing.id} name={editing.title} error={result?.formError} />
      ) : null}
      {dialog?.mode === "new" || (dialog?.mode === "edit" && editing) ? (
        <ProductForm key={location.search} product={dialog.mode === "edit" ? editing : null} categories={categories} result={result} />
      ) : null}
    </div>
  );
}
