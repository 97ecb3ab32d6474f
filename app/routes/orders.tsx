import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { lineTitle } from "~/utils/variants";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/Link";
import { useEffect, useState } from "react";
import { z } from "zod";
import { FormBanner } from "~/components/FormBanner";
import { BoxIcon } from "~/components/account-icons";
import { ModalDialog } from "~/components/ModalDialog";
import { Pagination } from "~/components/Pagination";
import { StatusBadge } from "~/components/StatusBadge";
import { pageAction } from "~/lib/form.server";
import { parseWith } from "~/lib/http.server";
import { redirectWithToast } from "~/lib/toast.server";
import type { Order } from "~/models/orders/read.server";
import { changeOrderStatus } from "~/models/orders/status.server";
import { listViewerOrdersPage } from "~/models/orders/list.server";
import { ORDERS_PAGE, pageOf, parseListQuery } from "~/lib/paging.server";
import { requireUser } from "~/web/visitor.server";
import { withParams } from "~/utils/admin-url";
import { useHydrated } from "~/hooks/useHydrated";
import { useIsPending } from "~/hooks/useIsPending";
import { formatLongDate } from "~/utils/dates";
import { formatPrice } from "~/utils/money";
import { checkTransition } from "~/utils/order-status";
import { IdSchema } from "~/utils/schemas";
import { ShipmentDetails } from "~/components/ShipmentDetails";
import { RefundList } from "~/components/RefundList";

export const meta: MetaFunction = () => [{ title: "Your Orders | Sagwan Living" }, { name: "robots", content: "noindex" }];

const CONFIRM = "Are you sure you want to cancel this order?";
const CancelSchema = z.object({ orderId: IdSchema });

const cancellable = (order: Pick<Order, "status">) => checkTransition(order.status, "cancelled", "customer").ok;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const search = url.searchParams;
  const paging = parseListQuery(url, ORDERS_PAGE);
  const { rows: orders, info } = pageOf(paging, await listViewerOrdersPage({ userId: user.id, isAdmin: false }, paging));
  // Without JavaScript, 'Cancel Order' opens the confirmation through ?cancel=ID (on its page).
  const asked = IdSchema.safeParse(search.get("cancel"));
  const confirming = asked.success ? (orders.find((o) => o.id === asked.data && cancellable(o))?.id ?? null) : null;
  return { orders, info, confirming };
}

/** The list's own URL: page 1 is plain /orders. */
const ordersUrl = (page: number, extra: Record<string, string | number> = {}) =>
  `/orders${withParams("", { page: page > 1 ? page : null, ...extra })}`;

export const action = ({ request }: ActionFunctionArgs) =>
  pageAction(request, {
    intents: {
      cancel: async (form) => {
        const user = await requireUser(request);
        const input = parseWith(CancelSchema, { orderId: form.get("orderId") });
        await changeOrderStatus(input.orderId, "cancelled", { actor: "customer", userId: user.id });
        // Back to the page the order was on.
        const page = IdSchema.safeParse(form.get("page"));
        return redirectWithToast(request, ordersUrl(page.success ? page.data : 1), {
          type: "success",
          title: "Status Change Successfully",
        });
      },
    },
  });

export default function OrdersPage() {
  const { orders, info, confirming } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const hydrated = useHydrated();
  const [asking, setAsking] = useState<number | null>(null);
  // The dialog closes by itself once the order is cancelled (or the cancellation failed).
  useEffect(() => setAsking(null), [result]);
  const wanted = hydrated ? asking : confirming;
  const open = orders.some((o) => o.id === wanted && cancellable(o)) ? wanted : null;

  if (orders.length === 0) {
    return (
      <section className="container-page flex flex-col items-center py-20 text-center">
        <BoxIcon className="h-12 w-12 text-stone-400" />
        <h1 className="mt-4 text-3xl font-semibold">No Orders Yet</h1>
        <p className="mt-3 text-stone-600">You haven&apos;t placed any orders yet.</p>
        <Link to="/categories" className="btn-primary mt-8">
          Start Shopping
        </Link>
      </section>
    );
  }

  return (
    <section className="bg-sand-50">
      <div className="container-page max-w-4xl py-10 sm:py-14">
        <h1 className="text-3xl font-semibold sm:text-4xl">Your Orders</h1>
        <div className="mt-6">
          <FormBanner message={result && "formError" in result ? result.formError : undefined} />
        </div>
        <ul className="space-y-5" aria-label="Orders">
          {orders.map((order) => (
            <li key={order.id} className="card p-5 sm:p-6" data-testid="order-card">
              <div className="flex flex-wrap items-start justify-between gap-3">
                <div>
                  <h2 className="text-lg font-semibold">Order #{order.id}</h2>
                  <p className="text-sm text-stone-600">Placed on {formatLongDate(order.createdAt)}</p>
                </div>
                <StatusBadge status={order.status} />
              </div>
              <ul className="mt-4 divide-y divide-sand-200 border-y border-sand-200">
                {order.items.map((item, i) => (
                  <li key={i} className="flex items-center gap-3 py-3 text-sm">
                    <img
                      src={item.imgPath}
                      alt=""
                      width={48}
                      height={48}
                      className="h-12 w-12 shrink-0 rounded-md bg-sand-100 object-cover"
                    />
                    <span className="min-w-0 flex-1">
                      {lineTitle(item.title, item.variantLabel)} <span className="text-stone-600">× {item.quantity}</span>
                    </span>
                    <span className="font-medium">{formatPrice(item.price * item.quantity)}</span>
                  </li>
                ))}
              </ul>
              <ShipmentDetails order={order} className="mt-3" />
              <RefundList refunds={order.refunds} className="mt-3" />
              <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
                <p className="font-semibold">
                  Total: <span data-testid="order-total">{formatPrice(order.total)}</span>
                </p>
                <div className="flex flex-wrap gap-2">
                  <Link to={`/order-confirmation/${order.id}`} className="btn-secondary">
                    View Details
                  </Link>
                  {cancellable(order) ? (
                    <Link
                      to={ordersUrl(info.page, { cancel: order.id })}
                      preventScrollReset
                      className="btn-ghost text-red-700"
                      onClick={(e) => {
                        e.preventDefault();
                        setAsking(order.id);
                      }}
                    >
                      Cancel Order
                    </Link>
                  ) : null}
                </div>
              </div>
            </li>
          ))}
        </ul>
        <Pagination info={info} noun="orders" label="Orders" />
      </div>
      {open !== null ? <CancelDialog orderId={open} page={info.page} onClose={hydrated ? () => setAsking(null) : undefined} /> : null}
    </section>
  );
}

/**
 * The confirmation: a modal <dialog> with JavaScript; without it the same dialog is rendered
 * open by the server (?cancel=ID), and 'Keep Order' is a link back.
 */
function CancelDialog({ orderId, page, onClose }: { orderId: number; page: number; onClose?: () => void }) {
  const busy = useIsPending({ formAction: "/orders", intent: "cancel" });
  return (
    <ModalDialog labelledBy="cancel-title" onClose={onClose} width="w-[min(92vw,28rem)]">
      {(close) => (
        <>
          <h2 id="cancel-title" className="text-xl font-semibold">
            Cancel Order #{orderId}
          </h2>
          <p className="mt-3 text-stone-700">{CONFIRM}</p>
          <Form method="post" action="/orders" className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <input type="hidden" name="orderId" value={orderId} />
            <input type="hidden" name="page" value={page} />
            {onClose ? (
              <button type="button" className="btn-secondary" onClick={close}>
                Keep Order
              </button>
            ) : (
              <Link to={ordersUrl(page)} className="btn-secondary">
                Keep Order
              </Link>
            )}
            <button
              type="submit"
              name="intent"
              value="cancel"
              className="btn-primary bg-red-700 hover:bg-red-800"
              disabled={busy}
              autoFocus
            >
              {busy ? "Cancelling..." : "Yes, Cancel Order"}
            </button>
          </Form>
        </>
      )}
    </ModalDialog>
  );
}
