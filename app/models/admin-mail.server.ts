// The staff's view of the mail outbox (/admin/mail): how many mails wait, and the mails that failed
// for good (a refused address, or too many tries), with the reason; 'Send again' puts one back in
// the queue, audited, and 'Send all failed again' every one that can be (after the SMTP settings were
// fixed, say). A mail carrying a code or a reset link cannot: its body was cleared when it failed.
// The outbox itself is app/lib/outbox.server.ts.
import type { Db } from "~/lib/db.server";
import { db as defaultDb } from "~/lib/db.server";
import { AppError } from "~/lib/errors.server";
import { failedMails, outboxCounts, retryAllFailedMails, retryFailedMail } from "~/lib/outbox.server";
import { recordAudit } from "./audit.server";
import type { Actor } from "./staff/staff.server";

export const MAIL_NOT_FAILED = "That mail is no longer failed: it was sent again already.";
export const MAIL_NOT_RESENDABLE = "That mail carried a code or a link that has expired: it cannot be sent again.";

export async function getMailOutbox(db: Db = defaultDb) {
  const [counts, rows] = await Promise.all([outboxCounts(db), failedMails(db)]);
  const failed = rows.map(({ discardAfter, ...mail }) => ({ ...mail, canSendAgain: discardAfter === null }));
  return { counts, failed, resendable: failed.filter((m) => m.canSendAgain).length };
}

/** A failed mail back in the queue (its tries counted afresh), with its audit row, in one transaction; 409 when it is not failed. */
export async function sendFailedMailAgain(id: number, actor: Actor, db: Db = defaultDb): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (!(await retryFailedMail(trx, id))) {
      const row = await trx.selectFrom("mailOutbox").select(["status", "discardAfter"]).where("id", "=", id).executeTakeFirst();
      throw new AppError(409, row?.status === "failed" && row.discardAfter !== null ? MAIL_NOT_RESENDABLE : MAIL_NOT_FAILED);
    }
    await recordAudit(trx, { action: "status", entity: "mail", entityId: id, summary: `Mail #${id}: failed → sent again`, actor });
  });
}

/** Every failed mail that can be sent again back in the queue, with one audit row, in one transaction; how many. */
export async function sendAllFailedMailsAgain(actor: Actor, db: Db = defaultDb): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const count = await retryAllFailedMails(trx);
    if (count > 0)
      await recordAudit(trx, { action: "status", entity: "mail", summary: `${count} failed mails: failed → sent again`, actor });
    return count;
  });
}
