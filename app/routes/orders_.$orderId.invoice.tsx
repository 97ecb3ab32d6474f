// The GST tax invoice of an order: a printable page (the browser's Print saves it as PDF).
import { lineTitle } from "~/utils/variants";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Link } from "~/components/Link";
import { BoxIcon } from "~/components/account-icons";
import { notFoundBoundary } from "~/components/NotFoundPage";
import { AddressLines } from "~/components/OrderParts";
import { contact } from "~/content/contact";
import { requireOrderPageViewer } from "~/web/visitor.server";
import { env } from "~/lib/env.server";
import { getOrderByParam } from "~/models/orders/read.server";
import { formatLongDate } from "~/utils/dates";
import { useHydrated } from "~/hooks/useHydrated";
import { DEMO_GSTIN, HALF_GST_PERCENT, invoiceNumber, invoiceTaxes, isIntraState } from "~/utils/invoice";
import { formatPrice } from "~/utils/money";
import { paymentLabel } from "~/utils/order-status";
import { GST_PERCENT } from "~/utils/pricing";
import { notFoundPage } from "~/lib/errors.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.invoice ? `Invoice ${data.invoice.number}` : "Order Not Found"} | Sagwan Living` },
  { name: "robots", content: "noindex" },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { viewer } = await requireOrderPageViewer(request);
  const order = await getOrderByParam(params.orderId, viewer);
  if (!order) throw notFoundPage("Order Not Found");
  const intraState = isIntraState(order.shippingAddress.state, env.SHOP_STATE);
  return {
    invoice: {
      number: invoiceNumber(order.id, order.createdAt),
      date: order.createdAt,
      order,
      seller: { name: "Sagwan Living", address: contact.address, gstin: env.SHOP_GSTIN ?? DEMO_GSTIN, state: env.SHOP_STATE },
      taxes: invoiceTaxes(order.items, order.gst, intraState),
    },
  };
}

export default function InvoicePage() {
  const { invoice } = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  const { order, seller, taxes } = invoice;
  const a = order.shippingAddress;
  const cell = "px-2 py-2 text-right tabular-nums";
  return (
    <section className="bg-sand-50 print:bg-white">
      <div className="container-page max-w-4xl py-8 print:max-w-none print:p-0">
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3 print:hidden">
          <Link to={`/order-confirmation/${order.id}`} className="text-sm underline">
            ← Back to order #{order.id}
          </Link>
          {hydrated ? (
            <button type="button" className="btn-primary" onClick={() => window.print()}>
              Print or save as PDF
            </button>
          ) : (
            <p className="text-sm text-stone-600">Use your browser&apos;s Print to save this invoice as a PDF.</p>
          )}
        </div>
        <article className="card p-5 sm:p-8 print:rounded-none print:shadow-none print:ring-0" aria-labelledby="invoice-title">
          <header className="flex flex-wrap justify-between gap-4 border-b border-sand-200 pb-5">
            <div>
              <p className="font-display text-2xl font-semibold">{seller.name}</p>
              <p className="mt-1 max-w-xs text-sm text-stone-700">{seller.address}</p>
              <p className="mt-1 text-sm">
                GSTIN:{" "}
                <span className="font-mono" data-testid="seller-gstin">
                  {seller.gstin}
                </span>
              </p>
              <p className="text-sm">State: {seller.state}</p>
            </div>
            <div className="text-left sm:text-right">
              <h1 id="invoice-title" className="text-2xl font-semibold uppercase tracking-wide">
                Tax Invoice
              </h1>
              <p className="mt-2 text-sm">
                Invoice No.:{" "}
                <span className="font-semibold" data-testid="invoice-number">
                  {invoice.number}
                </span>
              </p>
              <p className="text-sm">Invoice Date: {formatLongDate(invoice.date)}</p>
              <p className="text-sm">Order: #{order.id}</p>
              <p className="text-sm">Place of Supply: {a.state}</p>
              {order.status === "cancelled" ? (
                <p className="mt-2 inline-block rounded bg-red-100 px-2 py-1 text-sm font-semibold text-red-800">Order cancelled</p>
              ) : null}
            </div>
          </header>

          <section className="grid gap-4 border-b border-sand-200 py-5 sm:grid-cols-2" aria-label="Buyer">
            <div>
              <h2 className="text-sm font-semibold uppercase tracking-wide text-stone-600">Bill to / Ship to</h2>
              <AddressLines address={a} className="mt-2 text-sm not-italic leading-6" nameClassName="font-medium">
                {a.email}
              </AddressLines>
            </div>
            <div className="text-sm sm:text-right">
              <h2 className="text-sm font-semibold uppercase tracking-wide text-stone-600">Payment</h2>
              <p className="mt-2">{paymentLabel(order)}</p>
              {order.paymentId ? <p className="font-mono text-xs">{order.paymentId}</p> : null}
            </div>
          </section>

          {/* Phones: one block per line; wider screens and paper: the table. */}
          <ol className="divide-y divide-sand-200 py-3 sm:hidden print:hidden" aria-label="Invoice lines">
            {taxes.lines.map((line, i) => (
              <li key={i} className="py-3 text-sm">
                <p className="font-medium">
                  {i + 1}. {lineTitle(line.title, line.variantLabel)}
                </p>
                {line.sku ? <p className="text-xs text-stone-500">SKU {line.sku}</p> : null}
                <dl className="mt-1 grid grid-cols-2 gap-x-3 gap-y-1 text-stone-700">
                  <dt>Qty × Rate</dt>
                  <dd className="text-right tabular-nums">
                    {line.quantity} × {formatPrice(line.price)}
                  </dd>
                  {line.discount ? (
                    <>
                      <dt>Discount</dt>
                      <dd className="text-right tabular-nums">−{formatPrice(line.discount)}</dd>
                    </>
                  ) : null}
                  <dt>Taxable Value</dt>
                  <dd className="text-right tabular-nums">{formatPrice(line.taxable)}</dd>
                  {taxes.intraState ? (
                    <>
                      <dt>CGST {HALF_GST_PERCENT}%</dt>
                      <dd className="text-right tabular-nums">{formatPrice(line.cgst)}</dd>
                      <dt>SGST {HALF_GST_PERCENT}%</dt>
                      <dd className="text-right tabular-nums">{formatPrice(line.sgst)}</dd>
                    </>
                  ) : (
                    <>
                      <dt>IGST {GST_PERCENT}%</dt>
                      <dd className="text-right tabular-nums">{formatPrice(line.igst)}</dd>
                    </>
                  )}
                  <dt className="font-medium text-ink">Amount</dt>
                  <dd className="text-right font-medium tabular-nums text-ink">{formatPrice(line.total)}</dd>
                </dl>
              </li>
            ))}
          </ol>
          <div className="-mx-2 hidden overflow-x-auto py-5 sm:block print:block">
            <table className="w-full min-w-[36rem] text-sm">
              <thead>
                <tr className="border-b border-sand-200 text-xs uppercase tracking-wide text-stone-600">
                  <th scope="col" className="px-2 py-2 text-left">
                    #
                  </th>
                  <th scope="col" className="px-2 py-2 text-left">
                    Description
                  </th>
                  <th scope="col" className={cell}>
                    Qty
                  </th>
                  <th scope="col" className={cell}>
                    Rate
                  </th>
                  {order.discount > 0 ? (
                    <th scope="col" className={cell}>
                      Discount
                    </th>
                  ) : null}
                  <th scope="col" className={cell}>
                    Taxable Value
                  </th>
                  {taxes.intraState ? (
                    <>
                      <th scope="col" className={cell}>
                        CGST {HALF_GST_PERCENT}%
                      </th>
                      <th scope="col" className={cell}>
                        SGST {HALF_GST_PERCENT}%
                      </th>
                    </>
                  ) : (
                    <th scope="col" className={cell}>
                      IGST {GST_PERCENT}%
                    </th>
                  )}
                  <th scope="col" className={cell}>
                    Amount
                  </th>
                </tr>
              </thead>
              <tbody>
                {taxes.lines.map((line, i) => (
                  <tr key={i} className="border-b border-sand-100" data-testid="invoice-line">
                    <td className="px-2 py-2">{i + 1}</td>
                    <td className="px-2 py-2">
                      {lineTitle(line.title, line.variantLabel)}
                      {line.sku ? <span className="block text-xs text-stone-500">SKU {line.sku}</span> : null}
                    </td>
                    <td className={cell}>{line.quantity}</td>
                    <td className={cell}>{formatPrice(line.price)}</td>
                    {order.discount > 0 ? <td className={cell}>{line.discount ? `−${formatPrice(line.discount)}` : "—"}</td> : null}
                    <td className={cell}>{formatPrice(line.taxable)}</td>
                    {taxes.intraState ? (
                      <>
                        <td className={cell}>{formatPrice(line.cgst)}</td>
                        <td className={cell}>{formatPrice(line.sgst)}</td>
                      </>
                    ) : (
                      <td className={cell}>{formatPrice(line.igst)}</td>
                    )}
                    <td className={cell}>{formatPrice(line.total)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>

          <dl className="ml-auto max-w-xs space-y-2 text-sm">
            {order.discount > 0 ? (
              <>
                <Row label="Value of goods" value={formatPrice(order.subtotal)} />
                <Row
                  label={`Discount${order.couponCode ? ` (${order.couponCode})` : ""}`}
                  value={`−${formatPrice(order.discount)}`}
                  testId="invoice-discount"
                />
              </>
            ) : null}
            <Row label="Taxable value" value={formatPrice(taxes.taxable)} />
            {taxes.intraState ? (
              <>
                <Row label={`CGST ${HALF_GST_PERCENT}%`} value={formatPrice(taxes.cgst)} testId="cgst" />
                <Row label={`SGST ${HALF_GST_PERCENT}%`} value={formatPrice(taxes.sgst)} testId="sgst" />
              </>
            ) : (
              <Row label={`IGST ${GST_PERCENT}%`} value={formatPrice(taxes.igst)} testId="igst" />
            )}
            <Row label="Shipping" value={order.shipping === 0 ? "Free" : formatPrice(order.shipping)} />
            <div className="flex justify-between border-t border-sand-200 pt-2 text-base font-semibold">
              <dt>Total</dt>
              <dd data-testid="invoice-total">{formatPrice(order.total)}</dd>
            </div>
          </dl>
          <p className="mt-8 border-t border-sand-200 pt-4 text-xs text-stone-600">
            Amounts in Indian rupees, rounded to the rupee. GST is charged at {GST_PERCENT}% on the value of the goods
            {order.discount > 0 ? " after the discount shown" : ""}. This is a computer-generated invoice and needs no signature.
          </p>
        </article>
      </div>
    </section>
  );
}

function Row({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="flex justify-between">
      <dt>{label}</dt>
      <dd data-testid={testId}>{value}</dd>
    </div>
  );
}

/** An order that does not exist, or is another customer's: the same 404 page. */
export const ErrorBoundary = notFoundBoundary({
  icon: <BoxIcon className="h-12 w-12 text-stone-400" />,
  title: "Order Not Found",
  to: "/orders",
  linkText: "View Your Orders",
});
