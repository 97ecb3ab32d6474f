// Admin: one order — items, totals, address, payment, the event timeline, and the status
// change (through utils/order-status's rules; the customer sees it on /orders).
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/Link";
import { z } from "zod";
import { FormBanner } from "~/components/FormBanner";
import { OrderItemList, OrderTimeline, ShippingAddressCard } from "~/components/OrderParts";
import { OrderTotals } from "~/components/OrderTotals";
import { StatusBadge } from "~/components/StatusBadge";
import { adminForm, formActor } from "~/web/admin.server";
import { requireStaff } from "~/web/staff.server";
import type { RoutePermissions } from "~/utils/staff-permissions";
import { notFound, notFoundPage } from "~/lib/errors.server";
import { pageAction } from "~/lib/form.server";
import { parseWith } from "~/lib/http.server";
import { redirectWithToast } from "~/lib/toast.server";
import { changeOrderStatus } from "~/models/orders/status.server";
import { getOrderByParam } from "~/models/orders/read.server";
import { formatDateTime } from "~/utils/dates";
import { useIsPending } from "~/hooks/useIsPending";
import { useStaffCan } from "~/hooks/useStaffCan";
import { formatPrice } from "~/utils/money";
import { nextStatuses, paymentLabel, statusLabel } from "~/utils/order-status";
import { OrderStatusChangeSchema } from "~/utils/schemas";
import { MAX_CARRIER_LENGTH, MAX_TRACKING_LENGTH, ShipmentSchema } from "~/utils/shipment";
import { ShipmentDetails } from "~/components/ShipmentDetails";
import { RefundList } from "~/components/RefundList";
import { ReturnsSection } from "~/components/Returns";
import { decideReturn } from "~/models/returns/admin.server";
import { returnsForOrder } from "~/models/returns/read.server";
import { ReturnDecisionSchema } from "~/utils/return-schemas";
import { OrderHistory } from "~/components/admin/OrderHistory";
import { orderHistory } from "~/models/audit-read.server";

export const handle = { section: "Orders" };
export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Order #${data?.order.id ?? ""} | Admin | Sagwan Living` }];

/**
 * Everyone who reads orders opens the page; the status (with the shipment's carrier and tracking
 * number, recorded as it ships) and receiving a return are fulfilment's too, deciding a return is not.
 */
export const permissions = {
  loader: "orders.read",
  action: {
    status: "orders.status",
    "approve-return": "returns.decide",
    "reject-return": "returns.decide",
    "receive-return": "returns.receive",
  },
} satisfies RoutePermissions;

const ADMIN = { userId: null, isAdmin: true };

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireStaff(request, permissions.loader);
  const order = await getOrderByParam(params.orderId, ADMIN);
  // The admin frame's boundary shows 'Not Found' and 'Error: Order Not Found'.
  if (!order) throw notFoundPage("Order Not Found");
  const [returns, history] = await Promise.all([returnsForOrder(order.id), orderHistory(order.id)]);
  return { order, next: nextStatuses(order.status, "admin"), returns, history };
}

const StatusForm = OrderStatusChangeSchema.pick({ status: true }).extend({
  shipUnpaid: z.literal("on").optional(),
  ...ShipmentSchema.shape,
});

export async function action({ request, params }: ActionFunctionArgs) {
  return pageAction(
    request,
    {
      intents: {
        status: async (form) => {
          const order = await orderOf(params.orderId);
          const input = parseWith(StatusForm, {
            status: form.get("status"),
            shipUnpaid: form.get("shipUnpaid") ?? undefined,
            carrier: form.get("carrier") ?? undefined,
            trackingNumber: form.get("trackingNumber") ?? undefined,
          });
          const shipment = { carrier: input.carrier, trackingNumber: input.trackingNumber };
          await changeOrderStatus(order.id, input.status, {
            actor: "admin",
            userId: null,
            staff: formActor(request),
            shipUnpaid: input.shipUnpaid === "on",
            shipment,
          });
          return redirectWithToast(request, `/admin/orders/${order.id}`, {
            type: "success",
            title: "Status Change Successfully",
            description: `Order #${order.id} is now ${statusLabel(input.status)}.`,
          });
        },
        "approve-return": (form) => decide(request, params.orderId, form),
        "reject-return": (form) => decide(request, params.orderId, form),
        "receive-return": (form) => decide(request, params.orderId, form),
      },
    },
    {
      read: adminForm(["intent", "status", "shipUnpaid", "carrier", "trackingNumber", "returnId", "note"], permissions.action),
      echo: ["returnId"],
    },
  );
}

async function orderOf(param: string | undefined) {
  const order = await getOrderByParam(param, ADMIN);
  if (!order) throw notFound("Order Not Found");
  return order;
}

/** A return's decision (the form's intent: approve, reject with a note, or received). */
async function decide(request: Request, orderParam: string | undefined, form: FormData) {
  const order = await orderOf(orderParam);
  const decision = parseWith(ReturnDecisionSchema, {
    intent: form.get("intent"),
    returnId: form.get("returnId"),
    note: form.get("note") ?? undefined,
  });
  // A return of another order is not this page's to decide.
  if (!(await returnsForOrder(order.id)).some((r) => r.id === decision.returnId)) throw notFound("That return was not found");
  const to = decision.intent === "approve-return" ? "approved" : decision.intent === "reject-return" ? "rejected" : "returned";
  const changed = await decideReturn(decision.returnId, to, decision.intent === "reject-return" ? decision.note : null, formActor(request));
  return redirectWithToast(request, `/admin/orders/${order.id}`, {
    type: "success",
    title: `Return #${changed.id}: ${changed.statusLabel}`,
    description: to === "returned" ? `Stock restored; ${formatPrice(changed.refundAmount)} to refund.` : undefined,
  });
}

/** A shipment detail beside the status (optional; recorded only when the order is shipped), with its message. */
function ShipmentField({ name, label, maxLength, error }: { name: string; label: string; maxLength: number; error?: string }) {
  const errorId = `${name}-error`;
  return (
    <div className="sm:w-48">
      <label>
        <span className="field-label">{label}</span>
        <input
          type="text"
          name={name}
          className="field-input"
          maxLength={maxLength}
          autoComplete="off"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
      </label>
      {error ? (
        <span id={errorId} className="field-error block">
          {error}
        </span>
      ) : null}
    </div>
  );
}

export default function AdminOrder() {
  const { order, next, returns, history } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useIsPending({ state: "submitting" });
  const canChangeStatus = useStaffCan("orders.status");
  return (
    <div className="max-w-5xl">
      <Link to="/admin/orders" className="text-sm font-medium text-wood-700 underline">
        ← All orders
      </Link>
      <div className="mt-3 flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="text-2xl font-semibold">Order #{order.id}</h2>
          <p className="text-sm text-stone-600">
            Placed {formatDateTime(order.createdAt)} · {paymentLabel(order)}
            {order.paymentId ? ` · ${order.paymentId}` : ""}
          </p>
        </div>
        <StatusBadge status={order.status} />
      </div>

      <section className="card mt-5 p-5" aria-labelledby="status-heading">
        <h3 id="status-heading" className="text-lg font-semibold">
          Change status
        </h3>
        <FormBanner message={result?.values?.returnId ? undefined : result?.formError} />
        {next.length === 0 ? (
          <p className="mt-2 text-sm text-stone-600">
            This order is {statusLabel(order.status).toLowerCase()}: its status can no longer change.
          </p>
        ) : !canChangeStatus ? (
          <p className="mt-2 text-sm text-stone-600">Your role reads orders; changing their status is for fulfilment and managers.</p>
        ) : (
          <Form method="post" className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-end">
            <label className="sm:w-56">
              <span className="field-label">New status</span>
              <select name="status" className="field-input" defaultValue={next[0]}>
                {next.map((s) => (
                  <option key={s} value={s}>
                    {statusLabel(s)}
                  </option>
                ))}
              </select>
            </label>
            {next.includes("shipped") ? (
              <>
                <ShipmentField name="carrier" label="Carrier" maxLength={MAX_CARRIER_LENGTH} error={result?.fieldErrors?.carrier} />
                <ShipmentField
                  name="trackingNumber"
                  label="Tracking number"
                  maxLength={MAX_TRACKING_LENGTH}
                  error={result?.fieldErrors?.trackingNumber}
                />
              </>
            ) : null}
            {order.testPayment && next.includes("shipped") ? (
              <label className="flex items-start gap-2 text-sm sm:max-w-xs" data-testid="ship-unpaid">
                <input
                  type="checkbox"
                  name="shipUnpaid"
                  className="mt-1"
                  aria-invalid={result?.fieldErrors?.shipUnpaid ? true : undefined}
                  aria-describedby={result?.fieldErrors?.shipUnpaid ? "ship-unpaid-error" : undefined}
                />
                <span>
                  Ship although no money was received (test payment)
                  {result?.fieldErrors?.shipUnpaid ? (
                    <span id="ship-unpaid-error" className="field-error block">
                      {result.fieldErrors.shipUnpaid}
                    </span>
                  ) : null}
                </span>
              </label>
            ) : null}
            <button type="submit" name="intent" value="status" className="btn-primary" disabled={busy}>
              {busy ? "Updating..." : "Update Status"}
            </button>
          </Form>
        )}
        {order.status === "shipped" ? (
          <p className="mt-2 text-xs text-stone-600">
            Cancelling a shipped order leaves its units out of stock: add them back with a stock adjustment when they come back.
          </p>
        ) : null}
        <ShipmentDetails order={order} className="mt-3" />
        <RefundList refunds={order.refunds} className="mt-3" />
      </section>

      <div className="mt-5 grid gap-5 md:grid-cols-[1fr_320px]">
        <section aria-labelledby="items-heading" className="card p-5 sm:p-6">
          <h3 id="items-heading" className="text-lg font-semibold">
            Items
          </h3>
          <OrderItemList items={order.items} />
          <OrderTotals totals={order} className="mt-4 border-t border-sand-200 pt-4" />
        </section>
        <div className="space-y-5">
          <ShippingAddressCard address={order.shippingAddress} showEmail />
          <OrderTimeline events={order.events} viewer="admin" />
          <ReturnsSection returns={returns} viewer="admin" result={result} />
          <OrderHistory entries={history} />
        </div>
      </div>
    </div>
  );
}
