// Admin: returns. The staff's queue: returns waiting for a decision or for
// their goods, oldest first (or any state, newest first), pages of 10; each links to its order's
// page, where the staff approve, reject or receive it.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Link } from "~/components/Link";
import { AdminTable, EmptyRow, ListError, StateFilter } from "~/components/AdminUI";
import { Pagination } from "~/components/Pagination";
import { listReturnsPage } from "~/models/returns/admin.server";
import { adminOtherMethods } from "~/web/admin.server";
import { adminListLoader } from "~/web/admin-crud.server";
import { formatDateTime } from "~/utils/dates";
import { formatPrice } from "~/utils/money";
import { RETURN_LABEL, statusBadgeClass } from "~/utils/order-status";
import { ReturnQueueQuerySchema } from "~/utils/return-schemas";
import type { ReturnReason } from "~/utils/returns";
import { RETURN_FILTER_LABEL, RETURN_FILTERS, RETURN_REASONS } from "~/utils/returns";
import type { RoutePermissions } from "~/utils/staff-permissions";

export const handle = { section: "Returns" };

/** The queue is read by everyone who reads orders; deciding and receiving happen on the order's page. */
export const permissions = { loader: "orders.read", action: "orders.read" } satisfies RoutePermissions;

export const loader = ({ request }: LoaderFunctionArgs) =>
  adminListLoader(request, permissions.loader, {
    filters: (url) => ReturnQueueQuerySchema.parse({ status: url.searchParams.get("status") ?? undefined }),
    list: listReturnsPage,
  });

/** No form posts here: a post answers 403 without the permission (as every admin action), else 405. */
export const action = adminOtherMethods(["GET"], permissions.action);

export default function AdminReturns() {
  const { list, error, status } = useLoaderData<typeof loader>();
  return (
    <div>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <p className="max-w-2xl text-sm text-stone-600">
          Damaged or defective pieces reported within 48 hours of delivery. Open a return's order to approve or reject it, and to mark it
          returned when the pieces arrive (stock goes back and the refund is sent then).
        </p>
        <StateFilter options={RETURN_FILTERS} labels={RETURN_FILTER_LABEL} value={status} />
      </div>
      {error !== null ? (
        <ListError message={error} />
      ) : (
        <>
          <AdminTable label="Returns" head={["Return", "Order", "Customer", "Units", "Reason", "Refund", "State", "Asked", "Actions"]}>
            {list.rows.length === 0 ? (
              <EmptyRow colSpan={9}>{status === "open" ? "No returns are waiting." : "No returns in this state."}</EmptyRow>
            ) : (
              list.rows.map((r) => (
                <tr key={r.id} data-testid="return-row">
                  <td className="px-4 py-3 font-medium">#{r.id}</td>
                  <td className="px-4 py-3">#{r.orderId}</td>
                  <td className="px-4 py-3">{r.customer}</td>
                  <td className="px-4 py-3">{r.units}</td>
                  <td className="px-4 py-3">{RETURN_REASONS[r.reason as ReturnReason] ?? r.reason}</td>
                  <td className="px-4 py-3">{formatPrice(r.refundAmount)}</td>
                  <td className="px-4 py-3">
                    <span
                      className={`inline-flex rounded-full px-3 py-1 text-xs font-semibold ring-1 ring-inset ${statusBadgeClass(r.status)}`}
                    >
                      {RETURN_LABEL[r.status]}
                    </span>
                  </td>
                  <td className="px-4 py-3">{formatDateTime(r.createdAt)}</td>
                  <td className="px-4 py-3">
                    <Link
                      to={`/admin/orders/${r.orderId}`}
                      className="btn-ghost px-3 py-1.5 text-sm"
                      aria-label={`Open order #${r.orderId} of return #${r.id}`}
                    >
                      Open order
                    </Link>
                  </td>
                </tr>
              ))
            )}
          </AdminTable>
          <Pagination info={list.info} noun="returns" label="Returns" />
        </>
      )}
    </div>
  );
}
