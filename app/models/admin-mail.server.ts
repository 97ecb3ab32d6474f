// The staff's view of the mail outbox (/admin/mail): how many mails wait, and the mails that failed
// for good (a refused address, or too many tries), with the reason; 'Send again' puts one back in
// the queue, audited. The outbox itself is app/lib/outbox.server.ts.
import type { Db } from "~/lib/db.server";
import { db as defaultDb } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { failedMails, outboxCounts, retryFailedMail } from "~/lib/outbox.server";
import { recordAudit } from "./audit.server";

export const MAIL_NOT_FAILED = "That mail is no longer failed: it was sent again already.";

export async function mailOutboxPage(db: Db = defaultDb) {
  const [counts, failed] = await Promise.all([outboxCounts(db), failedMails(db)]);
  return { counts, failed };
}

/** A failed mail back in the queue (its tries counted afresh), with its audit row, in one transaction; 409 when it is not failed. */
export async function sendFailedMailAgain(id: number, db: Db = defaultDb): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (!(await retryFailedMail(trx, id))) throw new AppError(409, MAIL_NOT_FAILED);
    await recordAudit(trx, { action: "status", entity: "mail", entityId: id, summary: `Mail #${id}: failed → sent again` });
  });
}
