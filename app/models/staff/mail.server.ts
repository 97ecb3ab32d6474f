// The mails a staff member receives (an invitation, a password reset link, word that the password
// changed), queued in the outbox (app/lib/outbox.server.ts) in the transaction of the change that
// causes them. Every value is escaped in the HTML part.
import type { Db } from "~/lib/db.server";
import { escapeHtml, queueMail } from "~/lib/mail.server";
import type { Role } from "~/utils/staff-permissions";
import { ROLE_LABELS } from "~/utils/staff-permissions";

const SHOP = "Sagwan Living";

function firstName(name: string) {
  return name.trim().split(/\s+/)[0] ?? name;
}

function paragraphs(lines: string[]) {
  return lines.map((l) => `<p>${escapeHtml(l)}</p>`).join("\n");
}

/** The lines as HTML, the link's own paragraph made a link with `label`. */
function withLink(lines: string[], link: string, label: string) {
  return paragraphs(lines).replace(`<p>${escapeHtml(link)}</p>`, `<p><a href="${escapeHtml(link)}">${escapeHtml(label)}</a></p>`);
}

const hours = (ms: number) => Math.round(ms / 3_600_000);

/** An invitation to the back-office: the link sets the person's password (single use, `ttlMs`). */
export function queueStaffInvitation(
  db: Db,
  to: { name: string; email: string; role: Role },
  link: string,
  ttlMs: number,
  expiresAt: Date,
) {
  const lines = [
    `Hello ${firstName(to.name)},`,
    `You have been invited to work on the ${SHOP} back-office as ${ROLE_LABELS[to.role]}. Open this link to choose your password:`,
    link,
    `The link works once, within ${hours(ttlMs)} hours. After that, sign in with your email and the password you chose. ` +
      "If you did not expect this invitation, ignore this mail.",
  ];
  return queueMail(db, {
    to: to.email,
    subject: `Your invitation to the ${SHOP} back-office`,
    discardAfter: expiresAt,
    text: lines.join("\n\n"),
    html: withLink(lines, link, "Choose my password"),
  });
}

/** A staff password reset link (single use, `ttlMs`). */
export function queueStaffResetLink(db: Db, to: { name: string; email: string }, link: string, ttlMs: number, expiresAt: Date) {
  const lines = [
    `Hello ${firstName(to.name)},`,
    `We received a request to reset the password of your ${SHOP} back-office account. Open this link to choose a new one:`,
    link,
    `The link works once, within ${hours(ttlMs)} hour${hours(ttlMs) === 1 ? "" : "s"}. ` +
      "If you did not ask for it, ignore this mail: your password stays as it is.",
  ];
  return queueMail(db, {
    to: to.email,
    subject: `Reset your ${SHOP} back-office password`,
    discardAfter: expiresAt,
    text: lines.join("\n\n"),
    html: withLink(lines, link, "Reset my password"),
  });
}

export function queueStaffPasswordChanged(db: Db, to: { name: string; email: string }) {
  const lines = [
    `Hello ${firstName(to.name)},`,
    `The password of your ${SHOP} back-office account was just reset, and every device signed in to it was signed out.`,
    "If this was not you, tell the shop's owner at once.",
  ];
  return queueMail(db, {
    to: to.email,
    subject: `Your ${SHOP} back-office password was changed`,
    text: lines.join("\n\n"),
    html: paragraphs(lines),
  });
}
