// Reads the mail outbox folder (MAIL_DIR) the app writes when no SMTP server is set.
import fs from "node:fs/promises";
import path from "node:path";

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  sentAt: string;
}

/**
 * Under Vitest with the app in the test's process, no worker runs (MAIL_WORKER=0,
 * tests/support/vitest-setup.ts): what the app queued is sent first, as the worker would. Elsewhere
 * (Playwright, and the cluster's tests, which run under Vitest but talk to servers) the servers'
 * workers send it, and the callers poll.
 */
async function sendQueued(): Promise<void> {
  if (!process.env.VITEST || process.env.MAIL_WORKER !== "0") return;
  const { settleMail } = await import("~/lib/mail.server");
  await settleMail();
}

/** Every mail sent to `to`, oldest first. */
export async function mailsTo(to: string, dir = process.env.MAIL_DIR ?? "./data/mail"): Promise<OutboxMail[]> {
  await sendQueued();
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    return [];
  }
  const mails: OutboxMail[] = [];
  for (const name of names.filter((n) => n.endsWith(".json"))) {
    const mail = JSON.parse(await fs.readFile(path.join(dir, name), "utf8")) as OutboxMail;
    if (mail.to.toLowerCase() === to.toLowerCase()) mails.push(mail);
  }
  return mails.sort((a, b) => a.sentAt.localeCompare(b.sentAt));
}

/** The 4-digit code of the newest sign-up mail to `to`. */
export async function latestCode(to: string, dir?: string): Promise<string> {
  const mails = (await mailsTo(to, dir)).filter((m) => /verification code/i.test(m.subject));
  const match = /code is (\d{4})\b/.exec(mails.at(-1)?.text ?? "");
  if (!match) throw new Error(`no verification code mailed to ${to}`);
  return match[1]!;
}

/** The link of the newest password-reset mail to `to`. */
export async function latestResetLink(to: string, dir?: string): Promise<string> {
  const mails = (await mailsTo(to, dir)).filter((m) => /reset your/i.test(m.subject));
  const match = /(https?:\/\/\S+\/reset-password\?token=\S+)/.exec(mails.at(-1)?.text ?? "");
  if (!match) throw new Error(`no reset link mailed to ${to}`);
  return match[1]!;
}

/** The 4-digit code of the newest 'confirm your new email' mail to `to` (a profile's email change). */
export async function latestEmailChangeCode(to: string, dir?: string): Promise<string> {
  const mails = (await mailsTo(to, dir)).filter((m) => /confirm your new email/i.test(m.subject));
  const match = /code is (\d{4})\b/.exec(mails.at(-1)?.text ?? "");
  if (!match) throw new Error(`no email-change code mailed to ${to}`);
  return match[1]!;
}
