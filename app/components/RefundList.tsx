// An order's refunds as its customer reads them (ADR 0024): 'Refund of ₹X: processing / refunded
// on {date} / failed, our team will contact you', each with its state as a word and a colour.
// The admin's order page shows the same list.
import type { OrderRefund } from "~/models/refunds/read.server";
import { REFUND_REASON_LABEL, REFUND_STATE_LABEL, refundSentence } from "~/utils/refunds";

const TONE: Record<string, string> = {
  processed: "bg-green-50 text-green-900 ring-green-200",
  failed: "bg-red-50 text-red-900 ring-red-200",
  pending: "bg-amber-50 text-amber-900 ring-amber-200",
};

export function RefundList({ refunds, className = "" }: { refunds: OrderRefund[]; className?: string }) {
  if (refunds.length === 0) return null;
  return (
    <ul className={`space-y-2 ${className}`} aria-label="Refunds" data-testid="refunds">
      {refunds.map((r) => (
        <li key={r.id} className={`rounded-lg p-3 text-sm ring-1 ring-inset ${TONE[r.status] ?? TONE.pending}`} data-testid="refund">
          <span className="font-semibold">{REFUND_STATE_LABEL[r.status as keyof typeof REFUND_STATE_LABEL] ?? r.status}</span>
          <span aria-hidden="true"> · </span>
          <span>{refundSentence(r)}</span>
          <span className="block text-xs opacity-80">{REFUND_REASON_LABEL[r.reason] ?? r.reason}</span>
        </li>
      ))}
    </ul>
  );
}
