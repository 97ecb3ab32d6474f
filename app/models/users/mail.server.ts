// The mails an account receives, queued in the outbox (app/lib/outbox.server.ts) with the change
// that causes them: pass the change's transaction. Every value is escaped in the HTML part.
import type { Db } from "~/lib/db.server";
import { escapeHtml, queueMail } from "~/lib/mail.server";
import { CODE_TTL_MS, RESET_TTL_MS } from "~/lib/one-time-codes.server";

const SHOP = "Sagwan Living";
const minutes = (ms: number) => Math.round(ms / 60000);
/** When a mail carrying a code or link valid `ttlMs` from now is worthless: the outbox fails it unsent after that. */
const expiresIn = (ttlMs: number) => new Date(Date.now() + ttlMs);

function firstName(name: string) {
  return name.trim().split(/\s+/)[0] ?? name;
}

function paragraphs(lines: string[]) {
  return lines.map((l) => `<p>${escapeHtml(l)}</p>`).join("\n");
}

/**
 * A sign-up's code. The address is not verified yet, so the mail carries nothing a stranger typed
 * (not even the name): the shop cannot be made to mail anyone a message of someone else's.
 */
export function queueSignupCode(db: Db, to: string, code: string) {
  const lines = [
    "Hello,",
    `Your ${SHOP} verification code is ${code}.`,
    `Enter it on the sign-up page within ${minutes(CODE_TTL_MS)} minutes to finish creating your account. The code works once.`,
    "If you did not ask for an account, you can ignore this mail.",
  ];
  return queueMail(db, {
    to,
    subject: `Your ${SHOP} verification code: ${code}`,
    discardAfter: expiresIn(CODE_TTL_MS),
    text: lines.join("\n\n"),
    html: paragraphs(lines).replace(
      escapeHtml(code) + ".",
      `<strong style="font-size:1.4em;letter-spacing:0.2em">${escapeHtml(code)}</strong>.`,
    ),
  });
}

/** Queued, never sent while the request waits, so the answer takes the same time for every email. */
export function queuePasswordResetLink(db: Db, to: string, name: string, link: string) {
  const lines = [
    `Hello ${firstName(name)},`,
    `We received a request to reset the password of your ${SHOP} account. Open this link to choose a new one:`,
    link,
    `The link works once, within ${minutes(RESET_TTL_MS)} minutes. ` +
      "If you did not ask for it, ignore this mail: your password stays as it is.",
  ];
  return queueMail(db, {
    to,
    subject: `Reset your ${SHOP} password`,
    discardAfter: expiresIn(RESET_TTL_MS),
    text: lines.join("\n\n"),
    html: paragraphs(lines).replace(`<p>${escapeHtml(link)}</p>`, `<p><a href="${escapeHtml(link)}">Reset my password</a></p>`),
  });
}

export function queuePasswordChanged(db: Db, to: string, name: string) {
  const lines = [
    `Hello ${firstName(name)},`,
    `The password of your ${SHOP} account was just changed, and every other device was signed out.`,
    "If this was not you, reset your password at once with 'Forgot password' on the login page, and write to us.",
  ];
  return queueMail(db, { to, subject: `Your ${SHOP} password was changed`, text: lines.join("\n\n"), html: paragraphs(lines) });
}

/** The code that confirms a new email address, mailed to that address (not verified yet: no name, as queueSignupCode). */
export function queueEmailChangeCode(db: Db, to: string, code: string) {
  const lines = [
    "Hello,",
    `To make this the email address of your ${SHOP} account, your code is ${code}.`,
    `Enter it on your profile within ${minutes(CODE_TTL_MS)} minutes to make this your account's email. The code works once.`,
    "If you did not ask for this, you can ignore this mail: nothing changes without the code.",
  ];
  return queueMail(db, {
    to,
    subject: `Confirm your new email for ${SHOP}: ${code}`,
    discardAfter: expiresIn(CODE_TTL_MS),
    text: lines.join("\n\n"),
    html: paragraphs(lines).replace(
      escapeHtml(code) + ".",
      `<strong style="font-size:1.4em;letter-spacing:0.2em">${escapeHtml(code)}</strong>.`,
    ),
  });
}

export function queueEmailChanged(db: Db, to: string, name: string, newEmail: string) {
  const lines = [
    `Hello ${firstName(name)},`,
    `The email address of your ${SHOP} account was changed to ${newEmail}. We will write to that address from now on.`,
    "If this was not you, write to us at once.",
  ];
  return queueMail(db, { to, subject: `Your ${SHOP} email address was changed`, text: lines.join("\n\n"), html: paragraphs(lines) });
}
