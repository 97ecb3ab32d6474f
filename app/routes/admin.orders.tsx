// Admin: orders. Summary cards by status, search (order id, shipping name), status filter,
// the columns docs/product.md lists, pages of 10 ('Showing X to Y of Z orders'), View Details.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Link } from "~/components/Link";
import { AdminTable, EmptyRow, ListError, ListSearch } from "~/components/AdminUI";
import { Pagination } from "~/components/Pagination";
import { StatusBadge } from "~/components/StatusBadge";
import { adminOtherMethods } from "~/web/admin.server";
import { adminListLoader } from "~/web/admin-crud.server";
import { listOrdersPage, orderStatusCounts } from "~/models/orders/admin.server";
import { parseAdminListQuery } from "~/utils/admin-schemas";
import { formatShortDate } from "~/utils/dates";
import { formatPrice } from "~/utils/money";
import { ORDER_STATUSES, statusLabel } from "~/utils/order-status";
import type { RoutePermissions } from "~/utils/staff-permissions";

export const handle = { section: "Orders" };

export const permissions = { loader: "orders.read", action: "orders.read" } satisfies RoutePermissions;

export const loader = ({ request }: LoaderFunctionArgs) =>
  adminListLoader(request, permissions.loader, {
    filters: parseAdminListQuery,
    list: listOrdersPage,
    more: async () => ({ counts: await orderStatusCounts() }),
  });

/** No form posts here: a post answers 403 without the permission (as every admin action), else 405. */
export const action = adminOtherMethods(["GET"], permissions.action);

const CARDS = [
  { key: "total", label: "Total Orders", tone: "text-ink" },
  { key: "processing", label: "Processing", tone: "text-yellow-700" },
  { key: "delivered", label: "Delivered", tone: "text-green-700" },
  { key: "cancelled", label: "Cancelled", tone: "text-red-700" },
] as const;

export default function AdminOrders() {
  const { list, error, q, status, payment, from, to } = useLoaderData<typeof loader>();
  const moreFilters = payment !== "all" || from !== "" || to !== "";
  return (
    <div>
      {list ? (
        <ul className="mb-5 grid grid-cols-2 gap-3 lg:grid-cols-4" aria-label="Orders by status">
          {CARDS.map((c) => (
            <li key={c.key} className="card p-4" data-testid={`orders-${c.key}`}>
              <p className="text-sm text-stone-600">{c.label}</p>
              <p className={`mt-1 text-2xl font-semibold ${c.tone}`}>{list.counts[c.key]}</p>
            </li>
          ))}
        </ul>
      ) : null}
      <ListSearch placeholder="Search orders..." q={q}>
        <label className="sm:w-44">
          <span className="sr-only">Status</span>
          <select name="status" defaultValue={status} className="field-input">
            <option value="all">All Status</option>
            {ORDER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {statusLabel(s)}
              </option>
            ))}
          </select>
        </label>
        <details open={moreFilters} className="group sm:relative">
          <summary className="btn-ghost cursor-pointer list-none text-sm">More Filters{moreFilters ? " (on)" : ""}</summary>
          <div className="mt-2 grid gap-3 rounded-lg border border-sand-200 bg-white p-3 shadow-sm sm:absolute sm:right-0 sm:z-20 sm:w-72">
            <label className="text-sm">
              <span className="field-label">Payment</span>
              <select name="payment" defaultValue={payment} className="field-input">
                <option value="all">All Payments</option>
                <option value="cod">Cash on Delivery</option>
                <option value="online">Online</option>
              </select>
            </label>
            <label className="text-sm">
              <span className="field-label">Placed from</span>
              <input type="date" name="from" defaultValue={from} className="field-input" />
            </label>
            <label className="text-sm">
              <span className="field-label">Placed to</span>
              <input type="date" name="to" defaultValue={to} className="field-input" />
            </label>
          </div>
        </details>
      </ListSearch>
      {error !== null ? (
        <ListError message={error} />
      ) : (
        <>
          <AdminTable label="Orders" head={["Order ID", "Customer", "Items", "Total", "Status", "Date", "Actions"]}>
            {list.rows.length === 0 ? (
              <EmptyRow colSpan={7}>{q || status !== "all" || moreFilters ? "No orders match this search." : "No orders yet."}</EmptyRow>
            ) : (
              list.rows.map((o) => (
                <tr key={o.id} data-testid="order-row">
                  <td className="px-4 py-3 font-medium">#{o.id}</td>
                  <td className="px-4 py-3">{o.customer}</td>
                  <td className="px-4 py-3">{o.itemCount} items</td>
                  <td className="px-4 py-3">
                    {formatPrice(o.total)}
                    {o.testPayment ? (
                      <span
                        className="ml-2 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900"
                        data-testid="test-payment"
                      >
                        Test payment
                      </span>
                    ) : null}
                  </td>
                  <td className="px-4 py-3">
                    <StatusBadge status={o.status} />
                  </td>
                  <td className="px-4 py-3">{formatShortDate(o.createdAt)}</td>
                  <td className="px-4 py-3">
                    <Link
                      to={`/admin/orders/${o.id}`}
                      className="btn-ghost px-3 py-1.5 text-sm"
                      aria-label={`View Details of order #${o.id}`}
                    >
                      View Details
                    </Link>
                  </td>
                </tr>
              ))
            )}
          </AdminTable>
          <Pagination info={list.info} noun="orders" label="Orders" />
        </>
      )}
    </div>
  );
}
