// The dashboard's charts (docs/product.md, Dashboard): the period's links, then one figure each
// for revenue and orders per day, orders by status, payment methods, top products and
// categories, coupon use, returns and refunds, and the pieces low in stock. The figures come
// from app/models/dashboard/figures.server.ts; this file only draws them.
import { Link } from "./Link";
import type { Bar } from "./Charts";
import { BarList, ChartFigure, ColumnChart } from "./Charts";
import type { DashboardFigures } from "~/models/dashboard/figures.server";
import { DASHBOARD_RANGES, LOW_STOCK } from "~/utils/dashboard";
import { formatCompactCount, formatCompactPrice, formatDay, formatDayMonth } from "~/utils/chart-format";
import { formatCount, formatPrice } from "~/utils/money";
import { RETURN_LABEL, statusLabel } from "~/utils/order-status";
import { REFUND_STATE_LABEL } from "~/utils/refunds";
import { lineTitle } from "~/utils/variants";

/** The status bars in the badges' colours; each bar carries its word too. */
const STATUS_FILL: Record<string, string> = {
  processing: "fill-yellow-400",
  shipped: "fill-blue-500",
  delivered: "fill-green-600",
  cancelled: "fill-red-500",
};

const PAYMENT_LABEL: Record<string, string> = { online: "Paid online", cod: "Cash on delivery" };

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

export function DashboardCharts({ figures: f }: { figures: DashboardFigures }) {
  const period = `the last ${f.range} days`;
  const span = `${formatDay(f.from)} to ${formatDay(f.to)}`;
  const busiest = f.days.reduce((best, d) => (d.revenue > best.revenue ? d : best), f.days[0]!);
  const noOrders = f.totals.orders === 0 ? `No orders in ${period}.` : null;
  const dayRows = [...f.days].reverse();
  const ranking = (rows: DashboardFigures["topProducts"], unit: [string, string]): Bar[] =>
    rows.map((r) => ({ key: r.key, label: r.label, value: r.value, valueText: `${formatPrice(r.value)} · ${plural(r.count, ...unit)}` }));
  const returnsCount = f.returns.reduce((n, r) => n + r.count, 0);
  const refundsCount = f.refunds.reduce((n, r) => n + r.count, 0);
  const refunded = f.refunds.find((r) => r.status === "processed")?.amount ?? 0;
  const best = `${formatDay(busiest.day)} with ${formatPrice(busiest.revenue)}`;
  const revenueWords = `${formatPrice(f.totals.revenue)} in all; the best day was ${best}.`;
  const mostOrders = Math.max(...f.days.map((d) => d.orders));
  const ordersWords = `${plural(f.totals.orders, "order", "orders")} in all, ${formatCount(mostOrders)} on the busiest day.`;
  const asked = `${plural(returnsCount, "return", "returns")} and ${plural(refundsCount, "refund", "refunds")}`;
  const returnsWords = `${asked} asked for in ${period}; ${formatPrice(refunded)} refunded`;

  return (
    <section aria-labelledby="sales-figures" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id="sales-figures" className="text-lg font-semibold">
            Sales in {period}
          </h2>
          <p className="text-sm text-stone-600">{span}, India time</p>
        </div>
        <nav aria-label="Period" className="flex rounded-lg border border-sand-200 bg-white p-1 text-sm">
          {DASHBOARD_RANGES.map((r) => (
            <Link
              key={r}
              to={`?range=${r}`}
              preventScrollReset
              aria-current={r === f.range ? "page" : undefined}
              className={`inline-flex min-h-11 items-center rounded-md px-3 font-medium ${
                r === f.range ? "bg-wood-600 text-white" : "text-wood-700 hover:bg-wood-50"
              }`}
            >
              Last {r} days
            </Link>
          ))}
        </nav>
      </div>

      <div className="grid items-start gap-4 lg:grid-cols-2">
        <ChartFigure
          id="revenue-per-day"
          heading="Revenue per day"
          summary={`${formatPrice(f.totals.revenue)} in ${period} (cancelled orders not counted)`}
          empty={noOrders}
          table={{
            caption: `Revenue per day, ${span}`,
            headers: ["Day", "Revenue", "Orders"],
            rows: dayRows.map((d) => [formatDay(d.day), formatPrice(d.revenue), formatCount(d.orders)]),
          }}
        >
          <ColumnChart
            id="revenue-chart"
            title={`Revenue per day, ${period}`}
            description={revenueWords}
            columns={f.days.map((d) => ({ key: d.day, label: formatDayMonth(d.day), value: d.revenue }))}
            format={formatPrice}
            axisFormat={formatCompactPrice}
          />
        </ChartFigure>

        <ChartFigure
          id="orders-per-day"
          heading="Orders per day"
          summary={`${plural(f.totals.orders, "order", "orders")} in ${period}, cancelled ones included`}
          empty={noOrders}
          table={{
            caption: `Orders per day, ${span}`,
            headers: ["Day", "Orders"],
            rows: dayRows.map((d) => [formatDay(d.day), formatCount(d.orders)]),
          }}
        >
          <ColumnChart
            id="orders-chart"
            title={`Orders per day, ${period}`}
            description={ordersWords}
            columns={f.days.map((d) => ({ key: d.day, label: formatDayMonth(d.day), value: d.orders }))}
            format={(v) => plural(v, "order", "orders")}
            axisFormat={formatCompactCount}
            whole
            className="fill-wood-300"
          />
        </ChartFigure>

        <ChartFigure
          id="orders-by-status"
          heading="Orders by status"
          summary={`Where the orders of ${period} stand now`}
          empty={noOrders}
          table={{
            caption: `Orders by status, ${period}`,
            headers: ["Status", "Orders"],
            rows: f.byStatus.map((s) => [statusLabel(s.status), formatCount(s.orders)]),
          }}
        >
          <BarList
            id="status-chart"
            title={`Orders by status, ${period}`}
            description={f.byStatus.map((s) => `${statusLabel(s.status)}: ${formatCount(s.orders)}`).join("; ")}
            bars={f.byStatus.map((s) => ({
              key: s.status,
              label: statusLabel(s.status),
              value: s.orders,
              valueText: formatCount(s.orders),
              className: STATUS_FILL[s.status],
            }))}
          />
        </ChartFigure>

        <ChartFigure
          id="payment-methods"
          heading="Payment methods"
          summary={`How the orders of ${period} were paid, with their revenue`}
          empty={noOrders}
          table={{
            caption: `Payment methods, ${period}`,
            headers: ["Method", "Orders", "Revenue"],
            rows: f.payments.map((p) => [PAYMENT_LABEL[p.method], formatCount(p.orders), formatPrice(p.revenue)]),
          }}
        >
          <BarList
            id="payment-chart"
            title={`Payment methods, ${period}`}
            description={f.payments
              .map((p) => `${PAYMENT_LABEL[p.method]}: ${plural(p.orders, "order", "orders")}, ${formatPrice(p.revenue)}`)
              .join("; ")}
            bars={f.payments.map((p) => ({
              key: p.method,
              label: PAYMENT_LABEL[p.method]!,
              value: p.orders,
              valueText: `${plural(p.orders, "order", "orders")} · ${formatPrice(p.revenue)}`,
              className: p.method === "online" ? "fill-wood-500" : "fill-stone-400",
            }))}
          />
        </ChartFigure>

        <ChartFigure
          id="top-products"
          heading="Top products by revenue"
          summary="Each line's price after its discount, before GST and shipping"
          empty={f.topProducts.length === 0 ? `No products sold in ${period}.` : null}
          table={{
            caption: `Top products by revenue, ${period}`,
            headers: ["Product", "Revenue", "Units"],
            rows: f.topProducts.map((p) => [p.label, formatPrice(p.value), formatCount(p.count)]),
          }}
        >
          <BarList
            id="products-chart"
            title={`Top ${f.topProducts.length} products by revenue, ${period}`}
            description={f.topProducts.map((p) => `${p.label}: ${formatPrice(p.value)}`).join("; ")}
            bars={ranking(f.topProducts, ["unit", "units"])}
          />
        </ChartFigure>

        <ChartFigure
          id="top-categories"
          heading="Categories by revenue"
          summary="The same lines, by the category of each product"
          empty={f.topCategories.length === 0 ? `No products sold in ${period}.` : null}
          table={{
            caption: `Categories by revenue, ${period}`,
            headers: ["Category", "Revenue", "Units"],
            rows: f.topCategories.map((c) => [c.label, formatPrice(c.value), formatCount(c.count)]),
          }}
        >
          <BarList
            id="categories-chart"
            title={`Categories by revenue, ${period}`}
            description={f.topCategories.map((c) => `${c.label}: ${formatPrice(c.value)}`).join("; ")}
            bars={ranking(f.topCategories, ["unit", "units"])}
          />
        </ChartFigure>

        <ChartFigure
          id="coupon-use"
          heading="Coupon use"
          summary={`Discount given by each code in ${period} (cancelled orders give theirs back)`}
          empty={f.coupons.length === 0 ? `No coupon used in ${period}.` : null}
          table={{
            caption: `Coupon use, ${period}`,
            headers: ["Code", "Discount", "Orders"],
            rows: f.coupons.map((c) => [c.label, formatPrice(c.value), formatCount(c.count)]),
          }}
        >
          <BarList
            id="coupons-chart"
            title={`Coupon use, ${period}`}
            description={f.coupons.map((c) => `${c.label}: ${plural(c.count, "order", "orders")}, ${formatPrice(c.value)} off`).join("; ")}
            bars={ranking(f.coupons, ["order", "orders"])}
          />
        </ChartFigure>

        <ChartFigure
          id="returns-refunds"
          heading="Returns and refunds"
          summary={returnsWords}
          empty={returnsCount + refundsCount === 0 ? `No returns or refunds in ${period}.` : null}
          table={{
            caption: `Returns and refunds, ${period}`,
            headers: ["State", "Count", "Amount"],
            rows: [
              ...f.returns.map((r) => [RETURN_LABEL[r.status], formatCount(r.count), formatPrice(r.amount)]),
              ...f.refunds.map((r) => [`Refund: ${REFUND_STATE_LABEL[r.status]}`, formatCount(r.count), formatPrice(r.amount)]),
            ],
          }}
        >
          <BarList
            id="returns-chart"
            title={`Returns and refunds, ${period}`}
            description={[
              ...f.returns.map((r) => `${RETURN_LABEL[r.status]}: ${formatCount(r.count)}`),
              ...f.refunds.map(
                (r) => `Refund ${REFUND_STATE_LABEL[r.status].toLowerCase()}: ${formatCount(r.count)}, ${formatPrice(r.amount)}`,
              ),
            ].join("; ")}
            bars={[
              ...f.returns.map((r) => ({
                key: `return-${r.status}`,
                label: RETURN_LABEL[r.status],
                value: r.count,
                valueText: `${formatCount(r.count)} · ${formatPrice(r.amount)}`,
                className: "fill-stone-400",
              })),
              ...f.refunds.map((r) => ({
                key: `refund-${r.status}`,
                label: `Refund: ${REFUND_STATE_LABEL[r.status]}`,
                value: r.count,
                valueText: `${formatCount(r.count)} · ${formatPrice(r.amount)}`,
                className: r.status === "failed" ? "fill-red-500" : "fill-wood-500",
              })),
            ]}
          />
        </ChartFigure>

        <ChartFigure
          id="low-stock"
          heading="Low stock"
          summary={
            `${plural(f.lowStock.total, "piece or variant on sale has", "pieces and variants on sale have")} ` +
            `${LOW_STOCK} units or fewer (made-to-order pieces aside)`
          }
          empty={f.lowStock.total === 0 ? "Every piece and variant on sale has more than a few units in stock." : null}
          table={{
            caption: "Pieces and variants low in stock, fewest first",
            headers: ["Piece", "Units in stock"],
            rows: f.lowStock.pieces.map((p) => [
              <Link key={p.variantId} to={`/admin/products/${p.id}/variants`} className="text-wood-700 underline">
                {lineTitle(p.title, p.label)}
              </Link>,
              formatCount(p.stock),
            ]),
          }}
        >
          <BarList
            id="stock-chart"
            title={`The ${f.lowStock.pieces.length} pieces and variants lowest in stock`}
            description={f.lowStock.pieces.map((p) => `${lineTitle(p.title, p.label)}: ${plural(p.stock, "unit", "units")}`).join("; ")}
            bars={f.lowStock.pieces.map((p) => ({
              key: String(p.variantId),
              label: lineTitle(p.title, p.label),
              // An empty shelf draws a full red bar: the bar is how short the piece is of the mark.
              value: LOW_STOCK + 1 - p.stock,
              valueText: p.stock === 0 ? "Out of stock" : plural(p.stock, "unit left", "units left"),
              className: p.stock === 0 ? "fill-red-500" : "fill-yellow-400",
            }))}
          />
        </ChartFigure>
      </div>
    </section>
  );
}
