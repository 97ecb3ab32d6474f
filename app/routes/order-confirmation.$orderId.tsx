import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/Link";
import { BoxIcon } from "~/components/account-icons";
import { MailIcon } from "~/components/contact-icons";
import { TruckIcon } from "~/components/service-icons";
import { notFoundBoundary } from "~/components/NotFoundPage";
import { OrderItemList, OrderTimeline, ShippingAddressCard } from "~/components/OrderParts";
import { OrderTotals } from "~/components/OrderTotals";
import { ShipmentDetails } from "~/components/ShipmentDetails";
import { RefundList } from "~/components/RefundList";
import { ReturnsSection } from "~/components/Returns";
import { ReviewsOrderLinks } from "~/components/ReviewsOrderLinks";
import { StatusBadge } from "~/components/StatusBadge";
import { pageAction } from "~/lib/form.server";
import { parseWith } from "~/lib/http.server";
import { redirectWithToast } from "~/lib/toast.server";
import { requestReturn } from "~/models/returns/request.server";
import { returnableFor, returnsForOrder } from "~/models/returns/read.server";
import { reviewablePieces } from "~/models/reviews/read.server";
import { ReturnRequestSchema, returnRequestFromForm } from "~/utils/return-schemas";
import { requireOrderPageViewer } from "~/web/visitor.server";
import { getOrderByParam } from "~/models/orders/read.server";
import { formatLongDate } from "~/utils/dates";
import { paymentLabel } from "~/utils/order-status";
import { notFoundPage } from "~/lib/errors.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.order ? `Order #${data.order.id}` : "Order Not Found"} | Sagwan Living` },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { user, viewer } = await requireOrderPageViewer(request);
  const order = await getOrderByParam(params.orderId, viewer);
  if (!order) throw notFoundPage("Order Not Found");
  const [returns, returnable, reviewable] = await Promise.all([
    returnsForOrder(order.id),
    // Only the order's own customer asks for a return (staff see the page too).
    order.userId === user.id ? returnableFor(order) : undefined,
    order.userId === user.id ? reviewablePieces(order) : [],
  ]);
  return { order, email: user.email, returns, returnable, reviewable };
}

/** 'Request a return': the order's customer, within the window (models/returns/ checks it all). */
export const action = ({ request, params }: ActionFunctionArgs) =>
  pageAction(
    request,
    {
      intents: {
        "request-return": async (form) => {
          const { user, viewer } = await requireOrderPageViewer(request);
          const order = await getOrderByParam(params.orderId, { ...viewer, isAdmin: false });
          if (!order) throw notFoundPage("Order Not Found");
          const input = parseWith(ReturnRequestSchema, returnRequestFromForm(form));
          const created = await requestReturn(user.id, order.id, input);
          return redirectWithToast(request, `/order-confirmation/${order.id}`, {
            type: "success",
            title: "Return requested",
            description: `We will look at return #${created.id} within one business day.`,
          });
        },
      },
    },
    {
      echoExtra: (form) =>
        Object.fromEntries(
          [...form].filter(([k, v]) => /^(qty-\d+|reason|details)$/.test(k) && typeof v === "string") as [string, string][],
        ),
    },
  );

export default function OrderConfirmation() {
  const { order, email, returns, returnable, reviewable } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const a = order.shippingAddress;
  return (
    <section className="bg-sand-50">
      <div className="container-page max-w-4xl py-10 sm:py-14">
        <div className="text-center">
          <span className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-green-100 text-green-700" aria-hidden="true">
            <svg viewBox="0 0 24 24" className="h-9 w-9" fill="none" stroke="currentColor" strokeWidth="2.5">
              <path d="M5 12.5l4.5 4.5L19 7.5" strokeLinecap="round" strokeLinejoin="round" />
            </svg>
          </span>
          <h1 className="mt-4 text-3xl font-semibold sm:text-4xl">Order Confirmed!</h1>
          <p className="mt-2 text-stone-600">Thank you for shopping with Sagwan Living.</p>
        </div>

        <div className="card mt-8 grid grid-cols-2 gap-5 p-5 sm:grid-cols-4 sm:p-6">
          <Fact label="Order ID" value={`#${order.id}`} testId="order-id" />
          <Fact label="Order Date" value={formatLongDate(order.createdAt)} />
          <div>
            <p className="text-sm text-stone-600">Status</p>
            <div className="mt-1">
              <StatusBadge status={order.status} />
            </div>
          </div>
          <Fact label="Estimated Delivery" value={formatLongDate(order.estimatedDelivery)} />
        </div>

        <div className="mt-6 grid gap-6 md:grid-cols-[1fr_320px]">
          <section aria-labelledby="items-heading" className="card p-5 sm:p-6">
            <h2 id="items-heading" className="text-xl font-semibold">
              Order Items
            </h2>
            <OrderItemList items={order.items} />
            <OrderTotals totals={order} className="mt-4 border-t border-sand-200 pt-4" />
            <p className="mt-4 text-sm text-stone-600">Payment: {paymentLabel(order)}</p>
            <RefundList refunds={order.refunds} className="mt-3" />
          </section>

          <div className="space-y-6">
            <ShippingAddressCard address={a} />
            <section aria-labelledby="delivery-heading" className="card p-5 sm:p-6">
              <h2 id="delivery-heading" className="text-lg font-semibold">
                Delivery Method
              </h2>
              <p className="mt-3 flex items-center gap-2 font-medium">
                <TruckIcon className="h-5 w-5 text-wood-700" /> Standard Delivery
              </p>
              <p className="text-sm text-stone-600">
                Delivered within {order.deliveryDays.min}-{order.deliveryDays.max} business days
              </p>
              <ShipmentDetails order={order} className="mt-3" />
            </section>
            <OrderTimeline events={order.events} viewer="customer" />
            <ReturnsSection returns={returns} returnable={returnable} viewer="customer" result={result} />
            <ReviewsOrderLinks pieces={reviewable} />
          </div>
        </div>

        <p className="mt-6 flex items-start gap-2 rounded-lg bg-white p-4 text-sm text-stone-700 ring-1 ring-sand-200">
          <MailIcon className="mt-0.5 h-5 w-5 shrink-0 text-wood-700" />
          <span>A confirmation email has been sent to your registered email address ({email}).</span>
        </p>
        <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:justify-center">
          <Link to="/orders" className="btn-primary">
            View All Orders
          </Link>
          <Link to={`/orders/${order.id}/invoice`} className="btn-secondary">
            View Invoice
          </Link>
          <Link to="/categories" className="btn-ghost">
            Continue Shopping
          </Link>
        </div>
      </div>
    </section>
  );
}

function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div>
      <p className="text-sm text-stone-600">{label}</p>
      <p className="mt-1 font-semibold" data-testid={testId}>
        {value}
      </p>
    </div>
  );
}

/** An order that does not exist, or is another customer's: the same 404 page. */
export const ErrorBoundary = notFoundBoundary({
  icon: <BoxIcon className="h-12 w-12 text-stone-400" />,
  title: "Order Not Found",
  message: "We couldn't find this order in your account.",
  to: "/orders",
  linkText: "View Your Orders",
});
