// Every outgoing mail goes through here: SMTP when SMTP_URL is set, otherwise one JSON
// file per mail in MAIL_DIR ({ to, subject, text, html?, sentAt }), as docs/api.md says.
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import { env } from "./env.server";
import { errorMessage } from "./log.server";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
}

let transport: nodemailer.Transporter | null = null;

export async function sendMail(mail: Mail): Promise<void> {
  const sentAt = new Date().toISOString();
  if (env.SMTP_URL) {
    transport ??= nodemailer.createTransport(env.SMTP_URL);
    await transport.sendMail({ from: env.MAIL_FROM, ...mail });
    return;
  }
  await fs.mkdir(env.MAIL_DIR, { recursive: true });
  const name = `${sentAt.replace(/[:.]/g, "-")}-${crypto.randomBytes(4).toString("hex")}.json`;
  const record: Record<string, string> = { to: mail.to, subject: mail.subject, text: mail.text };
  if (mail.html) record.html = mail.html;
  record.sentAt = sentAt;
  // Written whole under a name no reader takes (not *.json), then renamed: a process killed
  // mid-write leaves a stray .tmp file, never a half mail in the outbox.
  const draft = path.join(env.MAIL_DIR, `.${name}.tmp`);
  await fs.writeFile(draft, JSON.stringify(record, null, 2), { mode: 0o600 });
  await fs.rename(draft, path.join(env.MAIL_DIR, name));
}

/** Escape a value for an HTML mail body. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
}

const inFlight = new Set<Promise<void>>();

/**
 * Send without making the request wait: for answers that must take the same time whether or
 * not a mail goes out (password reset, code resend) and for notices after a change is made.
 * A failure is logged, never shown.
 */
export function sendInBackground(send: () => Promise<void>): void {
  const job = send()
    .catch((error: unknown) => console.error("mail failed:", errorMessage(error)))
    .finally(() => inFlight.delete(job));
  inFlight.add(job);
}

/** Wait for background mails (tests, and a clean shutdown). */
export async function settleMail(): Promise<void> {
  await Promise.all([...inFlight]);
}

/**
 * The address links in mails point at: PUBLIC_URL, else this server on localhost. Never the
 * request's Host header: a forged one would send a reset link to someone else's site.
 */
export function publicOrigin(): string {
  if (env.PUBLIC_URL) return env.PUBLIC_URL.replace(/\/+$/, "");
  return `http://localhost:${env.PORT}`;
}
