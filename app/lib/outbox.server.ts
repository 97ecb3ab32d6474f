// The mail outbox (ADR 0020): every mail is a row of mail_outbox written in the transaction
// of the change that causes it (queueMail), and a worker sends it afterwards. The worker claims due
// rows under a lease (PostgreSQL: FOR UPDATE SKIP LOCKED, so workers on several servers take
// disjoint rows; SQLite: one UPDATE … RETURNING, its single writer decides), sends each, and marks
// it sent. Before each send it renews its claim on that row (and skips the row when another worker
// has taken it over), and each send has SEND_LIMIT_MS, well under CLAIM_MS. A send that fails for
// now (a connection, a login, a refusal of the sender or of the message) is retried with exponential
// backoff; only a refused recipient, or MAX_ATTEMPTS, ends it as failed, for the staff to see
// (/admin/mail). A mail with a "discard after" time (a code's or a reset link's expiry) is failed
// unsent, its body cleared, once that time has passed. Claims, backoff and leases are timed by the
// database's clock on PostgreSQL (dbNow), so one server's wrong clock does not move them.
// Delivery is at least once, not exactly once: a worker that dies after the mail server took a mail
// but before marking it sent leaves its claim to run out, and another worker sends it again after
// CLAIM_MS. The file transport makes that resend harmless (a file named after the row, created
// exclusively); over SMTP the receiver gets it twice, with the same Message-ID (derived from the
// row), so a mail client can tell the repeat. The same worker runs housekeeping once across every
// server, under the "housekeeping" lease (app/lib/housekeeping.server.ts).
import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Selectable } from "kysely";
import { PostgresAdapter } from "kysely";
import nodemailer from "nodemailer";
import type { MailOutboxTable } from "./db-schema";
import type { Db } from "./db.server";
import { dbNow, dbNowValue, nowIso } from "./db.server";
import { env } from "./env.server";
import { errorMessage, log } from "./log.server";
import { countMailFailure } from "./metrics.server";
import { remember } from "./remember.server";
import { currentRequestId } from "./request-context.server";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  /** when the mail is worthless (the code or link it carries expires): not sent after it, body cleared */
  discardAfter?: Date;
}

export type OutboxRow = Selectable<MailOutboxTable>;

/** How long a claim holds a row; renewed before each send, and much longer than SEND_LIMIT_MS. */
export const CLAIM_MS = 2 * 60 * 1000;
/** The most one send may take before it counts as a failure for now (its row goes back to wait). */
export const SEND_LIMIT_MS = 60 * 1000;
/** Why a mail whose code or link expired before it went out was failed. */
export const EXPIRED_UNSENT = "expired before it could be sent";
/** Tries before a mail that keeps failing for now is given up as failed. */
export const MAX_ATTEMPTS = 8;
/** The first retry's wait; each later one waits twice as long, up to BACKOFF_MAX_MS. */
export const BACKOFF_BASE_MS = 30 * 1000;
export const BACKOFF_MAX_MS = 60 * 60 * 1000;
const BATCH = 10;

/** This process's name in claims and leases: host, pid and a random part (a restarted pid is another worker). */
export const WORKER_ID = `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString("hex")}`;

/** Writes a mail to the outbox, in the caller's transaction when it passes one; the worker sends it once that commits. */
export async function queueMail(db: Db, mail: Mail): Promise<number> {
  // Due by the database's clock (the one the worker judges by), whatever this server's says.
  const now = dbNowValue(db);
  const row = await db
    .insertInto("mailOutbox")
    .values({
      recipient: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? null,
      replyTo: mail.replyTo ?? null,
      nextAttemptAt: now,
      createdAt: now,
      discardAfter: mail.discardAfter ? nowIso(mail.discardAfter) : null,
      // The request that queued it, for its log lines and the mail's X-Request-Id header.
      requestId: currentRequestId(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  nudgeMailWorker();
  return row.id;
}

// ---- Sending ----------------------------------------------------------------------------

let transport: nodemailer.Transporter | null = null;
let transportUrl: string | undefined;

function smtp(): nodemailer.Transporter {
  if (transportUrl !== env.SMTP_URL) {
    transport?.close();
    transport = null;
    transportUrl = env.SMTP_URL;
  }
  // Timeouts inside SEND_LIMIT_MS (sendWithin cuts a send that still drags on), which is well inside
  // CLAIM_MS, renewed before each send: a send outlives its claim only when the worker hangs.
  transport ??= nodemailer.createTransport({
    url: env.SMTP_URL,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  });
  return transport;
}

/** The Message-ID of a row: the same for every try, so a resend after a crash is recognisably the same message. */
export function messageIdOf(row: Pick<OutboxRow, "id" | "createdAt">): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(env.MAIL_FROM)?.[1] ?? "sagwanliving.in";
  return `<outbox-${row.id}-${Date.parse(row.createdAt)}@${domain}>`;
}

/** The MAIL_DIR file of a row: its queue time first (names sort by time), then its id (the same name on every try). */
export function mailFileName(row: Pick<OutboxRow, "id" | "createdAt">): string {
  return `${row.createdAt.replace(/[:.]/g, "-")}-${String(row.id).padStart(10, "0")}.json`;
}

/** The header a mail queued while serving a request carries that request's id in (the row's request_id). */
export const MAIL_REQUEST_HEADER = "X-Request-Id";

/**
 * Sends one outbox row: SMTP when SMTP_URL is set, else a JSON file in MAIL_DIR ({ to, subject,
 * text, html?, headers?, sentAt }, docs/api.md). The file is written whole under a name no reader takes, then
 * linked to the row's own name, which fails when it exists: a row sent before a crash is never
 * written twice (and a process killed mid-write leaves a stray .tmp file, never a half mail).
 */
export async function deliver(row: OutboxRow): Promise<void> {
  const mail = {
    to: row.recipient,
    subject: row.subject,
    text: row.text,
    ...(row.html ? { html: row.html } : {}),
    ...(row.requestId ? { headers: { [MAIL_REQUEST_HEADER]: row.requestId } } : {}),
  };
  if (env.SMTP_URL) {
    await smtp().sendMail({ from: env.MAIL_FROM, ...mail, ...(row.replyTo ? { replyTo: row.replyTo } : {}), messageId: messageIdOf(row) });
    return;
  }
  await fs.mkdir(env.MAIL_DIR, { recursive: true });
  const record = { ...mail, sentAt: nowIso() };
  const name = mailFileName(row);
  const draft = path.join(env.MAIL_DIR, `.${name}.${crypto.randomBytes(4).toString("hex")}.tmp`);
  await fs.writeFile(draft, JSON.stringify(record, null, 2), { mode: 0o600 });
  try {
    await fs.link(draft, path.join(env.MAIL_DIR, name));
  } catch (error) {
    // Already there: this row was sent by a try that died before it could mark it sent.
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  } finally {
    await fs.rm(draft, { force: true });
  }
}

/**
 * A refusal no retry can change, of this one mail: the mail server refused its recipient (a 5xx
 * answer to RCPT TO; nodemailer's EENVELOPE with the rejected recipients), or nodemailer refused
 * its envelope before sending (no or a malformed address: EENVELOPE with no command). Everything
 * else is for now: a wrong SMTP password (EAUTH, 535), a 5xx at the greeting, to STARTTLS, MAIL FROM
 * or DATA, a lost connection. Those are the shop's or its relay's fault, and counting them permanent
 * would fail every queued mail at its first try.
 */
export function isPermanentFailure(error: unknown): boolean {
  const e = error as { responseCode?: unknown; code?: unknown; command?: unknown } | null;
  if (!e) return false;
  const command = typeof e.command === "string" ? e.command.toUpperCase() : null;
  const onRecipient = command?.startsWith("RCPT TO") ?? false;
  if (onRecipient && typeof e.responseCode === "number" && e.responseCode >= 500 && e.responseCode < 600) return true;
  return e.code === "EENVELOPE" && (command === null || onRecipient);
}

/** A failure that is the shop's setup or its relay's (not one mail's): worth a loud log line. */
function isServerTrouble(error: unknown): boolean {
  const e = error as { responseCode?: unknown; code?: unknown } | null;
  return e?.code === "EAUTH" || e?.code === "ETLS" || (typeof e?.responseCode === "number" && e.responseCode >= 500);
}

/** The send, cut off after `limitMs` as a failure for now (the row waits and is tried again). */
async function sendWithin(send: () => Promise<void>, limitMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the send took longer than ${limitMs} ms`)), limitMs);
  });
  try {
    await Promise.race([send(), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** What a failure records: its message, email addresses masked and any credentials of a URL cut, at most 500 characters. */
export function failureText(error: unknown): string {
  return errorMessage(error)
    .replace(/\/\/[^/@\s]*@/g, "//[credentials]@")
    .slice(0, 500);
}

/** The wait before try number `attempts + 1`. */
export function backoffMs(attempts: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
}

// ---- Claiming ---------------------------------------------------------------------------

/** The clock claims, backoff and leases go by: the database's on PostgreSQL (every server shares it), else this process's. */
export async function outboxNow(db: Db): Promise<Date> {
  return new Date(await dbNow(db));
}

/**
 * Fails, unsent, the rows no worker should claim again: those whose code or link expired
 * (discard_after passed; body cleared), and those whose claim ran out MAX_ATTEMPTS times (a mail
 * whose send kills its worker would otherwise be taken over forever).
 */
async function failUnclaimable(db: Db, at: string): Promise<void> {
  await db
    .updateTable("mailOutbox")
    .set({ status: "failed", text: "", html: null, claimedBy: null, claimedUntil: null, lastError: EXPIRED_UNSENT })
    .where((eb) => eb.or([eb("status", "=", "pending"), eb.and([eb("status", "=", "sending"), eb("claimedUntil", "<", at)])]))
    .where("discardAfter", "<=", at)
    .execute();
  await db
    .updateTable("mailOutbox")
    .set((eb) => ({
      status: "failed",
      claimedBy: null,
      claimedUntil: null,
      lastError: `its worker stopped mid-send ${MAX_ATTEMPTS} times; not tried again by itself`,
      // A mail with an expiry is not kept to be sent again (see retryFailedMail): its body goes.
      text: eb.case().when("discardAfter", "is not", null).then("").else(eb.ref("text")).end(),
      html: eb.case().when("discardAfter", "is not", null).then(null).else(eb.ref("html")).end(),
    }))
    .where("status", "=", "sending")
    .where("claimedUntil", "<", at)
    .where("attempts", ">=", MAX_ATTEMPTS)
    .execute();
}

/**
 * Claims up to `limit` due rows for `worker` until `now + CLAIM_MS`: pending rows whose time has
 * come, and rows another worker claimed whose claim ran out (it died mid-send). Each claim counts as
 * a try. PostgreSQL skips rows another worker is claiming at that moment; SQLite's one writer runs
 * one claim at a time. `now` is the database's clock unless a test passes one.
 */
export async function claimDue(db: Db, worker: string, limit = BATCH, now?: Date): Promise<OutboxRow[]> {
  now ??= await outboxNow(db);
  const at = nowIso(now);
  await failUnclaimable(db, at);
  const until = nowIso(new Date(now.getTime() + CLAIM_MS));
  const due = db
    .selectFrom("mailOutbox")
    .select("id")
    .where((eb) =>
      eb.or([
        eb.and([eb("status", "=", "pending"), eb("nextAttemptAt", "<=", at)]),
        eb.and([eb("status", "=", "sending"), eb("claimedUntil", "<", at)]),
      ]),
    )
    .orderBy("id")
    .limit(limit);
  const isPg = db.getExecutor().adapter instanceof PostgresAdapter;
  const rows = await db
    .updateTable("mailOutbox")
    .set((eb) => ({ status: "sending", claimedBy: worker, claimedUntil: until, attempts: eb("attempts", "+", 1) }))
    .where("id", "in", isPg ? due.forUpdate().skipLocked() : due)
    .returningAll()
    .execute();
  return rows.sort((a, b) => a.id - b.id);
}

/**
 * Renews `worker`'s claim on a row right before its send, until now + CLAIM_MS. False when the
 * worker no longer holds it (its claim ran out and another worker took the row): then it must not
 * send. A row whose code or link has expired is failed here, unsent (also false).
 */
export async function renewClaim(db: Db, row: OutboxRow, worker: string, now?: Date): Promise<boolean> {
  now ??= await outboxNow(db);
  const at = nowIso(now);
  if (row.discardAfter && row.discardAfter <= at) {
    await db
      .updateTable("mailOutbox")
      .set({ status: "failed", text: "", html: null, claimedBy: null, claimedUntil: null, lastError: EXPIRED_UNSENT })
      .where("id", "=", row.id)
      .where("claimedBy", "=", worker)
      .where("status", "=", "sending")
      .execute();
    return false;
  }
  const result = await db
    .updateTable("mailOutbox")
    .set({ claimedUntil: nowIso(new Date(now.getTime() + CLAIM_MS)) })
    .where("id", "=", row.id)
    .where("claimedBy", "=", worker)
    .where("status", "=", "sending")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Marks a claimed row sent; its body is emptied (codes and links have no business in the database once mailed). */
async function markSent(db: Db, row: OutboxRow, worker: string): Promise<void> {
  const result = await db
    .updateTable("mailOutbox")
    .set({ status: "sent", sentAt: dbNowValue(db), text: "", html: null, claimedBy: null, claimedUntil: null, lastError: null })
    .where("id", "=", row.id)
    .where("claimedBy", "=", worker)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) {
    // Another worker took the row over while this one sent it: it may go out twice (at least once, never lost).
    log.error(`mail #${row.id} was sent, but this worker no longer held its claim: another may send it again`);
  }
}

async function markFailedTry(db: Db, row: OutboxRow, worker: string, error: unknown): Promise<"failed" | "retry"> {
  const final = isPermanentFailure(error) || row.attempts >= MAX_ATTEMPTS;
  const now = await outboxNow(db);
  // A failed mail with an expiry is not kept to be sent again (see retryFailedMail): its body goes.
  const clear = final && row.discardAfter !== null ? { text: "", html: null } : {};
  await db
    .updateTable("mailOutbox")
    .set({
      status: final ? "failed" : "pending",
      nextAttemptAt: nowIso(new Date(now.getTime() + (final ? 0 : backoffMs(row.attempts)))),
      claimedBy: null,
      claimedUntil: null,
      lastError: failureText(error),
      ...clear,
    })
    .where("id", "=", row.id)
    .where("claimedBy", "=", worker)
    .execute();
  return final ? "failed" : "retry";
}

/** Rows claimed but not tried (the worker is stopping) back to waiting, for any worker; their claim's try uncounted. */
async function handBack(db: Db, rows: OutboxRow[], worker: string): Promise<void> {
  if (rows.length === 0) return;
  await db
    .updateTable("mailOutbox")
    .set((eb) => ({ status: "pending", claimedBy: null, claimedUntil: null, attempts: eb("attempts", "-", 1) }))
    .where(
      "id",
      "in",
      rows.map((r) => r.id),
    )
    .where("claimedBy", "=", worker)
    .where("status", "=", "sending")
    .execute();
}

export interface DrainResult {
  sent: number;
  retry: number;
  failed: number;
}

export interface DrainOptions {
  /** true once the worker is stopping: no further send starts, and unsent claimed rows are handed back */
  stopped?: () => boolean;
  /** the most one send may take (SEND_LIMIT_MS; tests make it short) */
  sendLimitMs?: number;
}

/**
 * Claims and sends due rows until none is left (what one pass of the worker does). `send` is the
 * transport (tests give one that fails or hangs).
 */
export async function drainOutbox(
  db: Db,
  worker = WORKER_ID,
  send: (row: OutboxRow) => Promise<void> = deliver,
  { stopped = () => false, sendLimitMs = SEND_LIMIT_MS }: DrainOptions = {},
): Promise<DrainResult> {
  const result: DrainResult = { sent: 0, retry: 0, failed: 0 };
  while (!stopped()) {
    const rows = await claimDue(db, worker);
    if (rows.length === 0) return result;
    for (const [index, row] of rows.entries()) {
      if (stopped()) {
        await handBack(db, rows.slice(index), worker);
        return result;
      }
      // The claim is renewed for this row's send: a batch of slow sends never outlives its claims.
      if (!(await renewClaim(db, row, worker))) continue;
      try {
        await sendWithin(() => send(row), sendLimitMs);
      } catch (error) {
        const outcome = await markFailedTry(db, row, worker, error);
        result[outcome] += 1;
        countMailFailure(outcome);
        const what = outcome === "failed" ? "failed for good" : "failed, will retry";
        if (isServerTrouble(error) && outcome === "retry") {
          log.error(`mail #${row.id} ${what}: the mail server refused the shop (check SMTP_URL and the relay): ${failureText(error)}`);
        } else log.error(`mail #${row.id} ${what}: ${failureText(error)}`);
        continue;
      }
      await markSent(db, row, worker);
      result.sent += 1;
    }
  }
  return result;
}

/**
 * Waits until every row queued so far that is due is sent or failed: this process sends what it can
 * claim, and waits for rows other workers hold. For tests, which read MAIL_DIR after a change.
 */
export async function settleOutbox(db: Db, timeoutMs = 20_000): Promise<void> {
  const top = await db
    .selectFrom("mailOutbox")
    .select((eb) => eb.fn.max("id").as("top"))
    .executeTakeFirst();
  const last = Number(top?.top ?? 0);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await drainOutbox(db);
    const at = await dbNow(db);
    const waiting = await db
      .selectFrom("mailOutbox")
      .select("id")
      .where("id", "<=", last)
      .where((eb) => eb.or([eb("status", "=", "sending"), eb.and([eb("status", "=", "pending"), eb("nextAttemptAt", "<=", at)])]))
      .limit(1)
      .executeTakeFirst();
    if (!waiting) return;
    if (Date.now() > deadline) throw new Error(`the mail outbox did not settle within ${timeoutMs} ms (mail #${waiting.id})`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// ---- What the staff see (/admin/mail) ---------------------------------------------------

export async function outboxCounts(db: Db): Promise<Record<"pending" | "sending" | "failed", number>> {
  const rows = await db
    .selectFrom("mailOutbox")
    .select(["status", (eb) => eb.fn.countAll<number>().as("n")])
    .where("status", "in", ["pending", "sending", "failed"])
    .groupBy("status")
    .execute();
  const counts = { pending: 0, sending: 0, failed: 0 };
  for (const row of rows) counts[row.status as keyof typeof counts] = Number(row.n);
  return counts;
}

/** The failed mails, newest first; one with a "discard after" time (a code, a reset link) cannot be sent again. */
export function failedMails(db: Db, limit = 100) {
  return db
    .selectFrom("mailOutbox")
    .select(["id", "recipient", "subject", "attempts", "lastError", "createdAt", "nextAttemptAt", "discardAfter"])
    .where("status", "=", "failed")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

/**
 * A failed mail back in the queue, tries counted afresh; false when it is not failed (sent again
 * already) or carries a code or link (a "discard after" time: its body is gone, and a late code
 * would be dead anyway).
 */
export async function retryFailedMail(db: Db, id: number): Promise<boolean> {
  return (await retryFailed(db, id)) > 0;
}

/** Every failed mail that can be (see retryFailedMail) back in the queue; how many. */
export async function retryAllFailedMails(db: Db): Promise<number> {
  return retryFailed(db, null);
}

async function retryFailed(db: Db, id: number | null): Promise<number> {
  let query = db
    .updateTable("mailOutbox")
    .set({ status: "pending", attempts: 0, nextAttemptAt: dbNowValue(db), claimedBy: null, claimedUntil: null })
    .where("status", "=", "failed")
    .where("discardAfter", "is", null);
  if (id !== null) query = query.where("id", "=", id);
  const changed = Number((await query.executeTakeFirst()).numUpdatedRows);
  if (changed > 0) nudgeMailWorker();
  return changed;
}

/** Sent mails (their bodies already emptied) kept a day for the record; failed ones a month. Housekeeping calls it. */
export async function purgeOutbox(db: Db, now?: Date): Promise<number> {
  now ??= await outboxNow(db);
  const day = nowIso(new Date(now.getTime() - 24 * 60 * 60 * 1000));
  const month = nowIso(new Date(now.getTime() - 30 * 24 * 60 * 60 * 1000));
  const result = await db
    .deleteFrom("mailOutbox")
    .where((eb) =>
      eb.or([
        eb.and([eb("status", "=", "sent"), eb("sentAt", "<", day)]),
        eb.and([eb("status", "=", "failed"), eb("createdAt", "<", month)]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

// ---- The worker ---------------------------------------------------------------------------

export interface MailWorker {
  id: string;
  /** another pass soon: a mail was just queued (its transaction may still be committing) */
  nudge(): void;
  /** finishes the send under way, hands the rest of its claimed rows back, and stops */
  stop(): Promise<void>;
}

/** After a nudge the worker looks every FAST_POLL_MS for this long, so a mail goes out right after its commit. */
const FAST_POLL_MS = 50;
const FAST_FOR_MS = 2000;

/** This process's running worker (one per process). */
const mailWorker = remember("mailWorker", () => ({ current: null as MailWorker | null }));

/** Tells this process's worker, if it runs, that a mail was queued. */
export function nudgeMailWorker(): void {
  const worker = mailWorker.current;
  if (worker) setImmediate(() => worker.nudge());
}

export interface WorkerOptions {
  /** how often an idle worker looks for rows queued by other servers or left by a crash */
  pollMs?: number;
  /** work run at most every `everyMs` before a pass (housekeeping); its failures are logged */
  periodic?: { everyMs: number; run: () => Promise<unknown> };
  id?: string;
}

/** Starts this process's worker (one per process; a second call answers the first). */
export function startMailWorker(db: Db, options: WorkerOptions = {}): MailWorker {
  if (mailWorker.current) return mailWorker.current;
  const id = options.id ?? WORKER_ID;
  const pollMs = options.pollMs ?? 1000;
  let stopped = false;
  let fastUntil = 0;
  let nextPeriodic = 0;
  let wake: (() => void) | null = null;

  const loop = (async () => {
    while (!stopped) {
      try {
        if (options.periodic && Date.now() >= nextPeriodic) {
          nextPeriodic = Date.now() + options.periodic.everyMs;
          await options.periodic.run();
        }
        await drainOutbox(db, id, deliver, { stopped: () => stopped });
      } catch (error) {
        log.error(`mail worker: ${failureText(error)}`);
      }
      if (stopped) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Date.now() < fastUntil ? FAST_POLL_MS : pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = null;
    }
  })();

  const worker: MailWorker = {
    id,
    nudge() {
      fastUntil = Date.now() + FAST_FOR_MS;
      wake?.();
    },
    async stop() {
      stopped = true;
      wake?.();
      await loop;
      if (mailWorker.current === worker) mailWorker.current = null;
    },
  };
  mailWorker.current = worker;
  return worker;
}

/** This process's running worker, if any. */
export function runningMailWorker(): MailWorker | null {
  return mailWorker.current ?? null;
}
