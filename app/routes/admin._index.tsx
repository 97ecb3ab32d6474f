// The dashboard: four stat cards with their real change against the 30 days before, the
// Order Status Overview, Quick Stats, the charts of the last 30 or 90 days (?range=), the 5 most
// recent orders and the latest admin changes.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Link } from "~/components/Link";
import type { ComponentType, SVGProps } from "react";
import { BoxIcon, ReceiptIcon, RupeeIcon, UsersIcon } from "~/components/account-icons";
import { BackupAlert } from "~/components/BackupAlert";
import { DashboardCharts } from "~/components/DashboardCharts";
import { StatusBadge } from "~/components/StatusBadge";
import { adminOtherMethods } from "~/web/admin.server";
import { getStaffVisitor, requireStaff } from "~/web/staff.server";
import { homeFor } from "~/utils/admin-sections";
import type { RoutePermissions } from "~/utils/staff-permissions";
import { can } from "~/utils/staff-permissions";
import type { StatCard } from "~/models/orders/admin.server";
import { dashboardStats } from "~/models/orders/admin.server";
import { latestAudit } from "~/models/audit.server";
import { backupAlert } from "~/lib/backup/status.server";
import { dashboardFigures } from "~/models/dashboard/figures.server";
import { parseDashboardQuery } from "~/utils/dashboard";
import { formatDateTime, formatShortDate } from "~/utils/dates";
import { formatCount, formatPrice } from "~/utils/money";
import { ORDER_STATUSES, statusLabel } from "~/utils/order-status";
import { auditActionLabel } from "~/utils/audit-format";

export const handle = { section: "Dashboard" };

export const permissions = { loader: "dashboard.read", action: "dashboard.read" } satisfies RoutePermissions;

export async function loader({ request }: LoaderFunctionArgs) {
  // /admin is where every sign-in lands: a role without the shop's figures starts at its first section instead.
  const visitor = await getStaffVisitor(request);
  if (visitor && !can(visitor.actor.role, permissions.loader)) throw redirect(homeFor(visitor.actor.role));
  await requireStaff(request, permissions.loader);
  const { range } = parseDashboardQuery(new URL(request.url));
  const [stats, figures, audit, backup] = await Promise.all([dashboardStats(), dashboardFigures(range), latestAudit(10), backupAlert()]);
  return { stats, figures, audit, backup };
}

/** No form posts here: a post answers 403 without the permission (as every admin action), else 405. */
export const action = adminOtherMethods(["GET"], permissions.action);

const CARD_ICONS: Record<StatCard["key"], ComponentType<SVGProps<SVGSVGElement>>> = {
  revenue: RupeeIcon,
  orders: ReceiptIcon,
  products: BoxIcon,
  customers: UsersIcon,
};

/** '+15.3% from last month' — here "last month" is the 30 days before the last 30. */
export function changeText(card: Pick<StatCard, "change" | "recent">): string {
  if (card.change === null) return card.recent > 0 ? "New this month" : "No change from last month";
  return `${card.change > 0 ? "+" : ""}${card.change.toFixed(1)}% from last month`;
}

const BAR_COLOURS: Record<string, string> = {
  processing: "bg-yellow-400",
  shipped: "bg-blue-500",
  delivered: "bg-green-600",
  cancelled: "bg-red-500",
};

export default function Dashboard() {
  const { stats, figures, audit, backup } = useLoaderData<typeof loader>();
  const { counts } = stats;
  return (
    <div className="space-y-6">
      <BackupAlert alert={backup} />
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4" aria-label="Shop figures">
        {stats.cards.map((card) => {
          const Icon = CARD_ICONS[card.key];
          const tone = card.change === null ? "text-stone-600" : card.change >= 0 ? "text-green-700" : "text-red-700";
          return (
            <li key={card.key} className="card p-5" data-testid={`stat-${card.key}`}>
              <div className="flex items-start justify-between gap-3">
                <div>
                  <p className="text-sm text-stone-600">{card.label}</p>
                  <p className="mt-1 text-2xl font-semibold" data-testid="stat-value">
                    {card.key === "revenue" ? formatPrice(card.value) : formatCount(card.value)}
                  </p>
                </div>
                <span className="flex h-10 w-10 items-center justify-center rounded-full bg-wood-50 text-wood-700">
                  <Icon className="h-5 w-5" />
                </span>
              </div>
              <p className={`mt-3 text-sm font-medium ${tone}`} data-testid="stat-change">
                {changeText(card)}
              </p>
            </li>
          );
        })}
      </ul>

      <div className="grid gap-6 lg:grid-cols-2">
        <section className="card p-5" aria-labelledby="status-overview">
          <h2 id="status-overview" className="text-lg font-semibold">
            Order Status Overview
          </h2>
          <ul className="mt-4 space-y-3">
            {ORDER_STATUSES.map((status) => {
              const n = counts[status];
              const share = counts.total ? Math.round((n / counts.total) * 100) : 0;
              return (
                <li key={status} data-testid={`overview-${status}`}>
                  <div className="flex justify-between text-sm">
                    <span>{statusLabel(status)}</span>
                    <span className="font-medium">{n}</span>
                  </div>
                  <div className="mt-1 h-2 rounded-full bg-sand-100" aria-hidden="true">
                    <div className={`h-2 rounded-full ${BAR_COLOURS[status]}`} style={{ width: `${share}%` }} />
                  </div>
                </li>
              );
            })}
          </ul>
        </section>

        <section className="card p-5" aria-labelledby="quick-stats">
          <h2 id="quick-stats" className="text-lg font-semibold">
            Quick Stats
          </h2>
          <dl className="mt-4 grid grid-cols-2 gap-4 text-sm">
            <QuickStat label="Average order value" value={formatPrice(stats.quick.averageOrderValue)} />
            <QuickStat label="Orders awaiting shipment" value={stats.quick.awaitingShipment} />
            <QuickStat label="Products out of stock" value={stats.quick.outOfStock} />
            <QuickStat label="Featured products" value={stats.quick.featured} />
            <QuickStat label="Categories" value={stats.quick.categories} />
            <QuickStat label="Cancelled orders" value={counts.cancelled} />
          </dl>
        </section>
      </div>

      <DashboardCharts figures={figures} />

      <section className="card overflow-hidden" aria-labelledby="recent-orders">
        <div className="flex items-center justify-between p-5 pb-3">
          <h2 id="recent-orders" className="text-lg font-semibold">
            Recent Orders
          </h2>
          <Link to="/admin/orders" className="text-sm font-medium text-wood-700 underline">
            View all
          </Link>
        </div>
        <div className="overflow-x-auto">
          <table className="w-full min-w-[36rem] text-left text-sm" aria-label="Recent Orders">
            <thead className="bg-sand-50 text-xs uppercase tracking-wide text-stone-600">
              <tr>
                {["Order ID", "Customer", "Total", "Status", "Date"].map((h) => (
                  <th key={h} scope="col" className="px-5 py-3 font-semibold">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-sand-200">
              {stats.recentOrders.length === 0 ? (
                <tr>
                  <td colSpan={5} className="px-5 py-8 text-center text-stone-600">
                    No orders yet.
                  </td>
                </tr>
              ) : (
                stats.recentOrders.map((o) => (
                  <tr key={o.id}>
                    <td className="px-5 py-3 font-medium">
                      <Link to={`/admin/orders/${o.id}`} className="text-wood-700 underline">
                        #{o.id}
                      </Link>
                    </td>
                    <td className="px-5 py-3">{o.customer}</td>
                    <td className="px-5 py-3">{formatPrice(o.total)}</td>
                    <td className="px-5 py-3">
                      <StatusBadge status={o.status} />
                    </td>
                    <td className="px-5 py-3">{formatShortDate(o.createdAt)}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      </section>

      <section className="card p-5" aria-labelledby="recent-changes">
        <h2 id="recent-changes" className="text-lg font-semibold">
          Recent Changes
        </h2>
        {audit.length === 0 ? (
          <p className="mt-3 text-sm text-stone-600">No admin changes yet.</p>
        ) : (
          <ol className="mt-3 divide-y divide-sand-200 text-sm" data-testid="audit-log">
            {audit.map((entry) => (
              <li key={entry.id} className="flex flex-col gap-1 py-2 sm:flex-row sm:items-baseline sm:gap-4">
                <time dateTime={entry.createdAt} className="shrink-0 text-stone-600 sm:w-44">
                  {formatDateTime(entry.createdAt)}
                </time>
                <span className="shrink-0 font-medium sm:w-32">{auditActionLabel(entry.action)}</span>
                <span>
                  {entry.summary}
                  {entry.actor ? <span className="text-stone-600"> · {entry.actor}</span> : null}
                </span>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}

function QuickStat({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="rounded-lg bg-sand-50 p-3">
      <dt className="text-stone-600">{label}</dt>
      <dd className="mt-1 text-lg font-semibold">{value}</dd>
    </div>
  );
}
