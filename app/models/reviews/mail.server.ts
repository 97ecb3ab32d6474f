// The review mails, through the same path as the order status mails (queued in the outbox in the
// change's transaction; a failed send is retried and never undoes it): the invitation to review
// the pieces of an order that was just delivered, and the notice to a review's author that the
// staff hid it (with the reason) or showed it again. Every value is escaped in the HTML part.
import type { Db } from "~/lib/db.server";
import { escapeHtml, publicOrigin, queueMail } from "~/lib/mail.server";
import { reviewablePieces } from "./read.server";

const SHOP = "Sagwan Living";

const firstName = (name: string) => name.trim().split(/\s+/)[0] || name;

export interface InvitePiece {
  title: string;
  slug: string;
}

/** 'How is your new …?': one link per piece of the delivered order that the customer has not reviewed yet. */
export function reviewInviteMail(orderId: number, pieces: InvitePiece[], customer: { name: string; email: string }) {
  const origin = publicOrigin();
  const link = (p: InvitePiece) => `${origin}/product/${encodeURIComponent(p.slug)}/review`;
  const first = firstName(customer.name);
  const intro = `Your order #${orderId} was delivered. How do you like it? A few words and a rating help other buyers choose.`;
  const text = [
    `Hello ${first},`,
    intro,
    pieces.map((p) => `${p.title}: ${link(p)}`).join("\n"),
    "Only customers who received a piece can review it, so every review on our shop is marked 'Verified purchase'.",
  ].join("\n\n");
  const html = [
    `<p>Hello ${escapeHtml(first)},</p>`,
    `<p>${escapeHtml(intro)}</p>`,
    `<ul>${pieces.map((p) => `<li><a href="${escapeHtml(link(p))}">Review ${escapeHtml(p.title)}</a></li>`).join("")}</ul>`,
    "<p>Only customers who received a piece can review it, so every review on our shop is marked 'Verified purchase'.</p>",
  ].join("\n");
  return { to: customer.email, subject: `${SHOP}: how do you like your order #${orderId}?`, text, html };
}

/** Queued with the order's move to delivered (a delivered order never moves again: one invitation per order). */
export async function queueReviewInvite(db: Db, orderId: number, pieces: InvitePiece[], customer: { name: string; email: string }) {
  if (pieces.length === 0) return;
  await queueMail(db, reviewInviteMail(orderId, pieces, customer));
}

export interface ModeratedReview {
  id: number;
  title: string;
  product: string;
  slug: string;
  hidden: boolean;
  reason: string | null;
}

/** What a review's author reads when the staff hide it (and why) or show it again. */
export function reviewModeratedMail(review: ModeratedReview, customer: { name: string; email: string }) {
  const link = `${publicOrigin()}/product/${encodeURIComponent(review.slug)}/review`;
  const first = firstName(customer.name);
  const sentence = review.hidden
    ? `Your review “${review.title}” of ${review.product} is no longer shown on our shop.`
    : `Your review “${review.title}” of ${review.product} is shown on our shop again.`;
  const reason = review.hidden && review.reason ? `Our reason: ${review.reason}` : null;
  const after = review.hidden ? "You can edit your review here; it stays hidden until our team shows it again:" : "See or edit it here:";
  const text = [`Hello ${first},`, sentence, ...(reason ? [reason] : []), `${after} ${link}`].join("\n\n");
  const html = [
    `<p>Hello ${escapeHtml(first)},</p>`,
    `<p>${escapeHtml(sentence)}</p>`,
    ...(reason ? [`<p>${escapeHtml(reason)}</p>`] : []),
    `<p>${escapeHtml(after)} <a href="${escapeHtml(link)}">your review</a></p>`,
  ].join("\n");
  const subject = `${SHOP}: your review of ${review.product} ${review.hidden ? "is hidden" : "is shown again"}`;
  return { to: customer.email, subject, text, html };
}

export function queueReviewModeratedMail(db: Db, review: ModeratedReview, customer: { name: string; email: string }) {
  return queueMail(db, reviewModeratedMail(review, customer));
}

/**
 * The invitation to review an order's pieces, queued in the transaction that makes the order
 * delivered (a delivered order never moves again, so once per order). Lists the pieces still in
 * the catalogue that the customer has not reviewed yet; none: no mail.
 */
export async function inviteReviews(order: { id: number; userId: number; status: string }, trx: Db): Promise<void> {
  const pieces = (await reviewablePieces(order, trx)).filter((p) => !p.reviewed);
  if (pieces.length === 0) return;
  const customer = await trx.selectFrom("users").select(["name", "email"]).where("id", "=", order.userId).executeTakeFirst();
  if (customer) await queueReviewInvite(trx, order.id, pieces, customer);
}
