import { statusBadgeClass, statusLabel } from "~/utils/order-status";

/** An order's status in its colours (docs/product.md, Order statuses). */
export function StatusBadge({ status }: { status: string }) {
  return (
    <span
      data-testid="status-badge"
      className={`inline-flex items-center rounded-full px-3 py-1 text-xs font-semibold ring-1 ring-inset ${statusBadgeClass(status)}`}
    >
      {statusLabel(status)}
    </span>
  );
}
