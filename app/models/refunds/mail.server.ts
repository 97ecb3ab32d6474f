// The customer's mail when a refund is processed: how much, for which order (or payment), and
// when banks usually show it. Every value is escaped in the HTML part.
import type { Db } from "~/lib/db.server";
import { escapeHtml, publicOrigin, queueMail } from "~/lib/mail.server";
import type { RefundReason } from "~/lib/db-schema";
import { formatLongDate } from "~/utils/dates";
import { formatPrice } from "~/utils/money";

const SHOP = "Sagwan Living";

export interface ProcessedRefund {
  id: number;
  amount: number;
  orderId: number | null;
  reason: RefundReason;
  /** when it was processed */
  at: string;
}

const WHY: Record<RefundReason, string> = {
  cancelled: "for your cancelled order",
  returned: "for your return",
  unplaced: "for a payment that could not become an order",
};

export function refundMail(refund: ProcessedRefund, customer: { name: string; email: string }) {
  const first = customer.name.trim().split(/\s+/)[0] ?? customer.name;
  const link = refund.orderId !== null ? `${publicOrigin()}/order-confirmation/${refund.orderId}` : `${publicOrigin()}/orders`;
  const of = refund.orderId !== null ? `order #${refund.orderId}` : "your payment";
  const sentence = `We refunded ${formatPrice(refund.amount)} ${WHY[refund.reason]} (${of}) on ${formatLongDate(refund.at)}.`;
  const banks = "Banks usually show a refund on the account or card that paid within 5-7 business days.";
  const text = [`Hello ${first},`, sentence, banks, `See your order: ${link}`].join("\n\n");
  const html = [
    `<p>Hello ${escapeHtml(first)},</p>`,
    `<p>${escapeHtml(sentence)}</p>`,
    `<p>${escapeHtml(banks)}</p>`,
    `<p><a href="${escapeHtml(link)}">See your order</a></p>`,
  ].join("\n");
  return { to: customer.email, subject: `${SHOP}: refund of ${formatPrice(refund.amount)} processed`, text, html };
}

/** Queued in the transaction that records the refund processed. */
export function queueRefundMail(db: Db, refund: ProcessedRefund, customer: { name: string; email: string }) {
  return queueMail(db, refundMail(refund, customer));
}
