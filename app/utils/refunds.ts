// Refunds in words (ADR 0024), for the customer's order pages, the API's readers and the staff's
// queue: one place for what each state says. Shared by client and server.
import { z } from "zod";
import { formatLongDate } from "./dates";
import { formatPrice } from "./money";

export const REFUND_STATUSES = ["pending", "processed", "failed"] as const;
export type RefundState = (typeof REFUND_STATUSES)[number];

/** The staff's queue filters: `open` (pending and failed, what needs watching) is the default. */
export const REFUND_FILTERS = ["open", "pending", "failed", "processed", "all"] as const;
export type RefundFilter = (typeof REFUND_FILTERS)[number];

export const REFUND_FILTER_LABEL: Record<RefundFilter, string> = {
  open: "Pending and failed",
  pending: "Pending",
  failed: "Failed",
  processed: "Processed",
  all: "All refunds",
};

/** At most this many payments needing action are listed at once (oldest first); the count says how many there are. */
export const NEEDING_ACTION_LIMIT = 20;

export const RefundQueueQuerySchema = z.object({
  status: z.enum(REFUND_FILTERS).catch("open"),
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
});

export const REFUND_REASON_LABEL: Record<string, string> = {
  cancelled: "Order cancelled",
  returned: "Return",
  unplaced: "Payment not ordered",
};

/** What the customer reads of one refund: 'Refund of ₹X: processing / refunded on {date} / failed, …'. */
export function refundSentence(refund: { amount: number; status: string; processedAt: string | null }): string {
  const amount = formatPrice(refund.amount);
  if (refund.status === "processed")
    return `Refund of ${amount}: refunded${refund.processedAt ? ` on ${formatLongDate(refund.processedAt)}` : ""}`;
  if (refund.status === "failed") return `Refund of ${amount}: failed, our team will contact you`;
  return `Refund of ${amount}: processing`;
}

export const REFUND_STATE_LABEL: Record<RefundState, string> = { pending: "Processing", processed: "Refunded", failed: "Failed" };
