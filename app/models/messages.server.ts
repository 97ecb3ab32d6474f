// Newsletter subscriptions and contact messages: stored, and the shop is told by mail.
import type { Db } from "~/lib/db.server";
import { db as defaultDb, nowIso } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { escapeHtml, sendMail } from "~/lib/mail.server";
import type { ContactInput } from "~/utils/schemas";

/** Idempotent: a repeated email is neither an error nor a second row. */
export async function subscribeToNewsletter(email: string, db: Db = defaultDb): Promise<{ created: boolean }> {
  const result = await db
    .insertInto("newsletterSubscribers")
    .values({ email, createdAt: nowIso() })
    .onConflict((oc) => oc.column("email").doNothing())
    .executeTakeFirst();
  return { created: Number(result.numInsertedOrUpdatedRows ?? 0) > 0 };
}

export async function saveContactMessage(input: ContactInput, db: Db = defaultDb): Promise<number> {
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
  const html = `<p><strong>From:</strong> ${escapeHtml(input.name)} &lt;${escapeHtml(input.email)}&gt;<br>` +
    `<strong>Phone:</strong> ${escapeHtml(input.phone ?? "not given")}<br>` +
    `<strong>Subject:</strong> ${escapeHtml(input.subject)}</p><p>${escapeHtml(input.message).replace(/\n/g, "<br>")}</p>`;
  try {
    await sendMail({
      to: env.SHOP_EMAIL,
      replyTo: input.email,
      subject: `Contact form: ${input.subject} (#${row.id})`,
      text: lines.join("\n"),
      html,
    });
  } catch (error) {
    // The message is stored; staff can read it even if the mail could not go out.
    console.error("contact mail failed", error instanceof Error ? error.message : error);
  }
  return row.id;
}
