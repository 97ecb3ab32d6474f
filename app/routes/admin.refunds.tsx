// Admin: the refund queue (ADR 0012). Payments needing action (a payment marked failed without a
// refund, a paid payment whose order was refused and not placed: 'Refund now'), and refunds by
// state, pages of 10, with 'Retry refund' for a failed one and 'Send again' for one still pending.
// Every action is audited by the model verbs it calls.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/Link";
import { z } from "zod";
import { AdminTable, EmptyRow, ListError, StateFilter } from "~/components/AdminUI";
import { FormBanner } from "~/components/FormBanner";
import { Pagination } from "~/components/Pagination";
import { pageAction } from "~/lib/form.server";
import { parseWith } from "~/lib/http.server";
import { redirectWithToast } from "~/lib/toast.server";
import { adminForm, formActor } from "~/web/admin.server";
import { adminListLoader, backToListPage } from "~/web/admin-crud.server";
import { refundUnplacedPayment } from "~/models/payments/unplaced.server";
import { listRefundsPage, paymentsNeedingAction } from "~/models/refunds/admin.server";
import { resendPendingRefund, retryFailedRefund } from "~/models/refunds/admin.server";
import { formatDateTime } from "~/utils/dates";
import { useIsPending } from "~/hooks/useIsPending";
import { formatPrice } from "~/utils/money";
import { IdSchema, PaymentOrderIdSchema } from "~/utils/schemas";
import {
  NEEDING_ACTION_LIMIT,
  REFUND_FILTER_LABEL,
  REFUND_FILTERS,
  REFUND_REASON_LABEL,
  REFUND_STATE_LABEL,
  RefundQueueQuerySchema,
} from "~/utils/refunds";
import type { RoutePermissions } from "~/utils/staff-permissions";

export const handle = { section: "Refunds" };

export const permissions = {
  loader: "refunds.manage",
  action: { retry: "refunds.manage", send: "refunds.manage", "refund-payment": "refunds.manage" },
} satisfies RoutePermissions;

/** The list the page shows, read again after a write to find the page the staff go back to. */
const LIST = {
  filters: (url: URL) => ({ status: RefundQueueQuerySchema.shape.status.parse(url.searchParams.get("status") ?? undefined) }),
  list: listRefundsPage,
};

export const loader = ({ request }: LoaderFunctionArgs) =>
  adminListLoader(request, permissions.loader, { ...LIST, more: async () => ({ needing: await paymentsNeedingAction() }) });

const RefundForm = z.object({ refundId: IdSchema });
const PaymentForm = z.object({ paymentOrderId: PaymentOrderIdSchema });

/** Back to the list as it was (its filter and page), from the form's hidden fields. */
function backTo(form: FormData): string {
  const status = RefundQueueQuerySchema.shape.status.parse(form.get("status") ?? undefined);
  const page = RefundQueueQuerySchema.shape.page.parse(form.get("page") ?? undefined);
  const params = new URLSearchParams();
  if (status !== "open") params.set("status", status);
  if (page > 1) params.set("page", String(page));
  const search = params.toString();
  return `/admin/refunds${search ? `?${search}` : ""}`;
}

/** Back to the list as it was, with the toast. */
const done = async (request: Request, form: FormData, title: string) =>
  redirectWithToast(request, await backToListPage(request, LIST, backTo(form)), { type: "success", title });

export async function action({ request }: ActionFunctionArgs) {
  return pageAction(
    request,
    {
      intents: {
        retry: async (form) => {
          const { refundId } = parseWith(RefundForm, { refundId: form.get("refundId") ?? undefined });
          await retryFailedRefund(refundId, formActor(request));
          return done(request, form, `Refund #${refundId} sent again`);
        },
        send: async (form) => {
          const { refundId } = parseWith(RefundForm, { refundId: form.get("refundId") ?? undefined });
          await resendPendingRefund(refundId, formActor(request));
          return done(request, form, `Refund #${refundId} sent again`);
        },
        "refund-payment": async (form) => {
          const { paymentOrderId } = parseWith(PaymentForm, { paymentOrderId: form.get("paymentOrderId") ?? undefined });
          const id = await refundUnplacedPayment(paymentOrderId, formActor(request));
          return done(request, form, `Refund #${id} queued for ${paymentOrderId}`);
        },
      },
    },
    { read: adminForm(["intent", "refundId", "paymentOrderId", "status", "page"], permissions.action) },
  );
}

const STATE_TONE: Record<string, string> = {
  processed: "bg-green-100 text-green-800 ring-green-200",
  failed: "bg-red-100 text-red-800 ring-red-200",
  pending: "bg-yellow-100 text-yellow-800 ring-yellow-200",
};

function StateBadge({ status }: { status: string }) {
  return (
    <span
      className={`inline-flex rounded-full px-3 py-1 text-xs font-semibold ring-1 ring-inset ${STATE_TONE[status] ?? STATE_TONE.pending}`}
    >
      {REFUND_STATE_LABEL[status as keyof typeof REFUND_STATE_LABEL] ?? status}
    </span>
  );
}

/** A one-button form of the queue: its intent, what it acts on, and the list's place to come back to. */
function QueueButton({
  intent,
  name,
  value,
  label,
  status,
  page,
}: {
  intent: string;
  name: string;
  value: string;
  label: string;
  status: string;
  page: number;
}) {
  const busy = useIsPending({ state: "submitting", intent });
  return (
    <Form method="post" className="inline">
      <input type="hidden" name={name} value={value} />
      <input type="hidden" name="status" value={status} />
      <input type="hidden" name="page" value={page} />
      <button
        type="submit"
        name="intent"
        value={intent}
        className="btn-secondary px-3 py-1.5 text-sm"
        disabled={busy}
        aria-label={`${label}: ${value}`}
      >
        {busy ? "Sending..." : label}
      </button>
    </Form>
  );
}

export default function AdminRefunds() {
  const { list, error, status } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (error !== null) return <ListError message={error} />;
  const page = list.info.page;
  return (
    <div className="space-y-6">
      <FormBanner message={result && "formError" in result ? result.formError : undefined} />
      <section aria-labelledby="needing-heading">
        <h2 id="needing-heading" className="text-lg font-semibold">
          Payments needing action ({list.needing.total})
        </h2>
        <p className="mt-1 text-sm text-stone-600">
          Paid, but no order: a payment marked failed without a refund, or one whose order was refused (the customer may still place it; it
          is refunded by itself after a day).
          {list.needing.total > NEEDING_ACTION_LIMIT ? ` The ${NEEDING_ACTION_LIMIT} oldest are shown.` : ""}
        </p>
        <div className="mt-3">
          <AdminTable label="Payments needing action" head={["Payment", "Customer", "Amount", "State", "Why", "Since", "Actions"]}>
            {list.needing.rows.length === 0 ? (
              <EmptyRow colSpan={7}>No payments need action.</EmptyRow>
            ) : (
              list.needing.rows.map((p) => (
                <tr key={p.paymentOrderId} data-testid="payment-needing-action">
                  <td className="px-4 py-3 font-mono text-xs">
                    {p.paymentOrderId}
                    {p.paymentId ? <span className="block text-stone-600">{p.paymentId}</span> : null}
                  </td>
                  <td className="px-4 py-3">{p.customer ?? "—"}</td>
                  <td className="px-4 py-3">{formatPrice(p.amount)}</td>
                  <td className="px-4 py-3">{p.status === "failed" ? "Refund owed" : "Paid, order refused"}</td>
                  <td className="px-4 py-3 text-sm">{p.failure ?? "—"}</td>
                  <td className="px-4 py-3">{formatDateTime(p.updatedAt)}</td>
                  <td className="px-4 py-3">
                    {p.paymentId ? (
                      <QueueButton
                        intent="refund-payment"
                        name="paymentOrderId"
                        value={p.paymentOrderId}
                        label="Refund now"
                        status={status}
                        page={page}
                      />
                    ) : (
                      <span className="text-sm text-stone-600">No payment recorded: check the Razorpay Dashboard</span>
                    )}
                  </td>
                </tr>
              ))
            )}
          </AdminTable>
        </div>
      </section>

      <section aria-labelledby="refunds-heading">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="refunds-heading" className="text-lg font-semibold">
            Refunds
          </h2>
          <StateFilter options={REFUND_FILTERS} labels={REFUND_FILTER_LABEL} value={status} />
        </div>
        <div className="mt-3">
          <AdminTable label="Refunds" head={["Refund", "For", "Customer", "Amount", "State", "Gateway", "Updated", "Actions"]}>
            {list.rows.length === 0 ? (
              <EmptyRow colSpan={8}>{status === "open" ? "No refunds pending or failed." : "No refunds in this state."}</EmptyRow>
            ) : (
              list.rows.map((r) => (
                <tr key={r.id} data-testid="refund-row">
                  <td className="px-4 py-3 font-medium">#{r.id}</td>
                  <td className="px-4 py-3 text-sm">
                    {r.orderId !== null ? (
                      <Link to={`/admin/orders/${r.orderId}`} className="text-wood-700 underline">
                        Order #{r.orderId}
                      </Link>
                    ) : (
                      <span className="font-mono text-xs">{r.paymentOrderId}</span>
                    )}
                    <span className="block text-stone-600">{REFUND_REASON_LABEL[r.reason] ?? r.reason}</span>
                  </td>
                  <td className="px-4 py-3">{r.customer ?? "—"}</td>
                  <td className="px-4 py-3">{formatPrice(r.amount)}</td>
                  <td className="px-4 py-3">
                    <StateBadge status={r.status} />
                    {r.failureReason ? <span className="mt-1 block text-xs text-stone-700">{r.failureReason}</span> : null}
                  </td>
                  <td className="px-4 py-3 font-mono text-xs">
                    {r.paymentId}
                    <span className="block">{r.gatewayRefundId ?? "—"}</span>
                    <span className="block font-sans text-stone-600">
                      {r.attempts} {r.attempts === 1 ? "try" : "tries"}
                    </span>
                  </td>
                  <td className="px-4 py-3">{formatDateTime(r.updatedAt)}</td>
                  <td className="px-4 py-3">
                    {r.status === "failed" ? (
                      <QueueButton intent="retry" name="refundId" value={String(r.id)} label="Retry refund" status={status} page={page} />
                    ) : r.status === "pending" && !r.gatewayRefundId ? (
                      <QueueButton intent="send" name="refundId" value={String(r.id)} label="Send again" status={status} page={page} />
                    ) : null}
                  </td>
                </tr>
              ))
            )}
          </AdminTable>
          <Pagination info={list.info} noun="refunds" label="Refunds" />
        </div>
      </section>
    </div>
  );
}
