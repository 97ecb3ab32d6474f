// Every outgoing mail goes through the outbox (app/lib/outbox.server.ts): queueMail writes it in the
// transaction of the change that causes it, and the worker sends it, by SMTP when SMTP_URL is set,
// otherwise as one JSON file per mail in MAIL_DIR ({ to, subject, text, html?, sentAt }), as
// docs/api.md says.
import { db } from "./db.server";
import { env } from "./env.server";
import { settleOutbox } from "./outbox.server";

export type { Mail } from "./outbox.server";
export { queueMail } from "./outbox.server";

/** Escape a value for an HTML mail body. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
}

/**
 * Wait until every mail queued so far is sent (or has failed): this process sends what is due,
 * and waits for what other workers hold. Tests call it before reading MAIL_DIR.
 */
export async function settleMail(): Promise<void> {
  await settleOutbox(db);
}

/**
 * The address links in mails point at: PUBLIC_URL, else this server on localhost. Never the
 * request's Host header: a forged one would send a reset link to someone else's site.
 */
export function publicOrigin(): string {
  if (env.PUBLIC_URL) return env.PUBLIC_URL.replace(/\/+$/, "");
  return `http://localhost:${env.PORT}`;
}
