// The customer's mail when the shop decides on their return or receives its goods, queued in the
// outbox in the transaction of the change. Every value is escaped in the HTML part.
import type { Db } from "~/lib/db.server";
import { escapeHtml, publicOrigin, queueMail } from "~/lib/mail.server";
import { formatPrice } from "~/utils/money";
import type { OrderReturn } from "./read.server";

const SHOP = "Sagwan Living";

/** What the customer reads when the shop decides on their return or receives its goods. */
export function returnMail(ret: OrderReturn, customer: { name: string; email: string }) {
  const link = `${publicOrigin()}/order-confirmation/${ret.orderId}`;
  const first = customer.name.trim().split(/\s+/)[0] ?? customer.name;
  const lines = ret.lines.map((l) => `${l.title} × ${l.quantity}`);
  const what: Record<string, string> = {
    approved: `Your return #${ret.id} for order #${ret.orderId} is approved. Our delivery partner will contact you to collect the pieces.`,
    rejected: `Your return #${ret.id} for order #${ret.orderId} was not approved.`,
    returned:
      `We received the pieces of your return #${ret.id} for order #${ret.orderId}. ` +
      `Your refund of ${formatPrice(ret.refundAmount)} is on its way.`,
  };
  const sentence = what[ret.status] ?? `Your return #${ret.id} is now: ${ret.statusLabel}.`;
  const note = ret.status === "rejected" && ret.staffNote ? `Our note: ${ret.staffNote}` : null;
  const text = [`Hello ${first},`, sentence, ...(note ? [note] : []), lines.join("\n"), `See your order: ${link}`].join("\n\n");
  const html = [
    `<p>Hello ${escapeHtml(first)},</p>`,
    `<p>${escapeHtml(sentence)}</p>`,
    ...(note ? [`<p>${escapeHtml(note)}</p>`] : []),
    `<p>${lines.map(escapeHtml).join("<br>")}</p>`,
    `<p><a href="${escapeHtml(link)}">See your order</a></p>`,
  ].join("\n");
  return { to: customer.email, subject: `${SHOP}: return #${ret.id} for order #${ret.orderId}: ${ret.statusLabel}`, text, html };
}

/** Queued in the return's change's transaction. */
export function queueReturnMail(db: Db, ret: OrderReturn, customer: { name: string; email: string }) {
  return queueMail(db, returnMail(ret, customer));
}
