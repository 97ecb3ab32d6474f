// Newsletter subscriptions and contact messages: limited, stored, and the shop is told of a
// message by mail. The home page and /api/stuff/addSubsEmail call subscribe; the contact page
// and /api/stuff/sendMail call sendContactMessage.
import type { Db } from "~/lib/db.server";
import { db as defaultDb, nowIso } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { escapeHtml, queueMail } from "~/lib/mail.server";
import type { Client } from "~/lib/rate-limit.server";
import { LIMITS, rateLimitClient } from "~/lib/rate-limit.server";
import type { ContactInput } from "~/utils/schemas";

/**
 * Add an email to the newsletter, limited per email and per client. Idempotent: a repeated
 * email is neither an error nor a second row.
 */
export async function subscribe(email: string, client: Client, db: Db = defaultDb): Promise<{ created: boolean }> {
  await rateLimitClient(LIMITS.newsletter, client, email);
  const result = await db
    .insertInto("newsletterSubscribers")
    .values({ email, createdAt: nowIso() })
    .onConflict((oc) => oc.column("email").doNothing())
    .executeTakeFirst();
  return { created: Number(result.numInsertedOrUpdatedRows ?? 0) > 0 };
}

/**
 * Store a contact message and mail it to the shop, limited per sender's email and per client.
 * The shop's mail is queued with the stored message (the outbox retries it). Returns its id.
 */
export async function sendContactMessage(input: ContactInput, client: Client, db: Db = defaultDb): Promise<number> {
  await rateLimitClient(LIMITS.contact, client, input.email);
  return db.transaction().execute((trx) => storeAndQueue(trx, input));
}

/** The message and the shop's mail of it, in one transaction: a stored message is always mailed. */
async function storeAndQueue(db: Db, input: ContactInput): Promise<number> {
  const row = await db
    .insertInto("contactMessages")
    .values({
      name: input.name,
      email: input.email,
      phone: input.phone ?? null,
      subject: input.subject,
      message: input.message,
      createdAt: nowIso(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const lines = [
    `From: ${input.name} <${input.email}>`,
    `Phone: ${input.phone ?? "not given"}`,
    `Subject: ${input.subject}`,
    "",
    input.message,
  ];
  const html =
    `<p><strong>From:</strong> ${escapeHtml(input.name)} &lt;${escapeHtml(input.email)}&gt;<br>` +
    `<strong>Phone:</strong> ${escapeHtml(input.phone ?? "not given")}<br>` +
    `<strong>Subject:</strong> ${escapeHtml(input.subject)}</p><p>${escapeHtml(input.message).replace(/\n/g, "<br>")}</p>`;
  await queueMail(db, {
    to: env.SHOP_EMAIL,
    replyTo: input.email,
    subject: `Contact form: ${input.subject} (#${row.id})`,
    text: lines.join("\n"),
    html,
  });
  return row.id;
}
