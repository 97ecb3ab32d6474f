// The mail outbox (issue 15, item 2): every mail is a row of mail_outbox written in the transaction
// of the change that causes it (queueMail), and a worker sends it afterwards. The worker claims due
// rows under a lease (PostgreSQL: FOR UPDATE SKIP LOCKED, so workers on several servers take
// disjoint rows; SQLite: one UPDATE … RETURNING, its single writer decides), sends each, and marks
// it sent. A send that fails for now is retried with exponential backoff; a permanent refusal (an
// SMTP 5xx, a rejected recipient) or MAX_ATTEMPTS ends it as failed, for the staff to see
// (/admin/mail). A worker that dies mid-send leaves its claim to run out: another takes the row over
// after CLAIM_MS, and the transport makes that resend harmless (a file named after the row, created
// exclusively; an SMTP Message-ID derived from the row). The same worker runs housekeeping once
// across every server, under the "housekeeping" lease (app/lib/housekeeping.server.ts).
import crypto from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Selectable } from "kysely";
import { PostgresAdapter } from "kysely";
import nodemailer from "nodemailer";
import type { MailOutboxTable } from "./db-schema";
import type { Db } from "./db.server";
import { nowIso } from "./db.server";
import { env } from "./env.server";
import { errorMessage } from "./log.server";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
}

export type OutboxRow = Selectable<MailOutboxTable>;

/** How long a claim holds a row: longer than any send may take (the SMTP timeouts below). */
export const CLAIM_MS = 2 * 60 * 1000;
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
  const now = nowIso();
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
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  nudgeMailWorker();
  return row.id;
}

// ---- Sending ----------------------------------------------------------------------------

let transport: nodemailer.Transporter | null = null;

function smtp(): nodemailer.Transporter {
  // Timeouts well inside CLAIM_MS: a send never outlives its claim.
  transport ??= nodemailer.createTransport({
    url: env.SMTP_URL,
    connectionTimeout: 20_000,
    greetingTimeout: 20_000,
    socketTimeout: 40_000,
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

/**
 * Sends one outbox row: SMTP when SMTP_URL is set, else a JSON file in MAIL_DIR ({ to, subject,
 * text, html?, sentAt }, docs/api.md). The file is written whole under a name no reader takes, then
 * linked to the row's own name, which fails when it exists: a row sent before a crash is never
 * written twice (and a process killed mid-write leaves a stray .tmp file, never a half mail).
 */
export async function deliver(row: OutboxRow): Promise<void> {
  const mail = { to: row.recipient, subject: row.subject, text: row.text, ...(row.html ? { html: row.html } : {}) };
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

/** A refusal no retry can change: an SMTP 5xx answer, or recipients the server rejected. */
export function isPermanentFailure(error: unknown): boolean {
  const e = error as { responseCode?: unknown; code?: unknown } | null;
  if (typeof e?.responseCode === "number" && e.responseCode >= 500 && e.responseCode < 600) return true;
  return e?.code === "EENVELOPE";
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

/**
 * Claims up to `limit` due rows for `worker` until `now + CLAIM_MS`: pending rows whose time has
 * come, and rows another worker claimed whose claim ran out (it died mid-send). Each claim counts as
 * a try. PostgreSQL skips rows another worker is claiming at that moment; SQLite's one writer runs
 * one claim at a time.
 */
export async function claimDue(db: Db, worker: string, limit = BATCH, now = new Date()): Promise<OutboxRow[]> {
  const at = nowIso(now);
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

/** Marks a claimed row sent; its body is emptied (codes and links have no business in the database once mailed). */
async function markSent(db: Db, row: OutboxRow, worker: string): Promise<void> {
  await db
    .updateTable("mailOutbox")
    .set({ status: "sent", sentAt: nowIso(), text: "", html: null, claimedBy: null, claimedUntil: null, lastError: null })
    .where("id", "=", row.id)
    .where("claimedBy", "=", worker)
    .execute();
}

async function markFailedTry(db: Db, row: OutboxRow, worker: string, error: unknown, now = new Date()): Promise<"failed" | "retry"> {
  const final = isPermanentFailure(error) || row.attempts >= MAX_ATTEMPTS;
  await db
    .updateTable("mailOutbox")
    .set({
      status: final ? "failed" : "pending",
      nextAttemptAt: nowIso(new Date(now.getTime() + (final ? 0 : backoffMs(row.attempts)))),
      claimedBy: null,
      claimedUntil: null,
      lastError: failureText(error),
    })
    .where("id", "=", row.id)
    .where("claimedBy", "=", worker)
    .execute();
  return final ? "failed" : "retry";
}

export interface DrainResult {
  sent: number;
  retry: number;
  failed: number;
}

/**
 * Claims and sends due rows until none is left (what one pass of the worker does). `send` is the
 * transport (tests give one that fails).
 */
export async function drainOutbox(db: Db, worker = WORKER_ID, send: (row: OutboxRow) => Promise<void> = deliver): Promise<DrainResult> {
  const result: DrainResult = { sent: 0, retry: 0, failed: 0 };
  for (;;) {
    const rows = await claimDue(db, worker);
    if (rows.length === 0) return result;
    for (const row of rows) {
      try {
        await send(row);
      } catch (error) {
        const outcome = await markFailedTry(db, row, worker, error);
        result[outcome] += 1;
        console.error(`mail #${row.id} ${outcome === "failed" ? "failed for good" : "failed, will retry"}:`, failureText(error));
        continue;
      }
      await markSent(db, row, worker);
      result.sent += 1;
    }
  }
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
    const at = nowIso();
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

export function failedMails(db: Db, limit = 100) {
  return db
    .selectFrom("mailOutbox")
    .select(["id", "recipient", "subject", "attempts", "lastError", "createdAt", "nextAttemptAt"])
    .where("status", "=", "failed")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}

/** A failed mail back in the queue, tries counted afresh; false when it is not failed (sent again already). */
export async function retryFailedMail(db: Db, id: number): Promise<boolean> {
  const result = await db
    .updateTable("mailOutbox")
    .set({ status: "pending", attempts: 0, nextAttemptAt: nowIso(), claimedBy: null, claimedUntil: null })
    .where("id", "=", id)
    .where("status", "=", "failed")
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  nudgeMailWorker();
  return true;
}

/** Sent mails (their bodies already emptied) kept a day for the record; failed ones a month. Housekeeping calls it. */
export async function purgeOutbox(db: Db, now = new Date()): Promise<number> {
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
  /** finishes the pass under way and stops */
  stop(): Promise<void>;
}

/** After a nudge the worker looks every FAST_POLL_MS for this long, so a mail goes out right after its commit. */
const FAST_POLL_MS = 50;
const FAST_FOR_MS = 2000;

const globalForWorker = globalThis as unknown as { __shopMailWorker?: MailWorker | null };

/** Tells this process's worker, if it runs, that a mail was queued. */
export function nudgeMailWorker(): void {
  const worker = globalForWorker.__shopMailWorker;
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
  if (globalForWorker.__shopMailWorker) return globalForWorker.__shopMailWorker;
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
        await drainOutbox(db, id);
      } catch (error) {
        console.error("mail worker:", failureText(error));
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
      if (globalForWorker.__shopMailWorker === worker) globalForWorker.__shopMailWorker = null;
    },
  };
  globalForWorker.__shopMailWorker = worker;
  return worker;
}

/** This process's running worker, if any. */
export function runningMailWorker(): MailWorker | null {
  return globalForWorker.__shopMailWorker ?? null;
}
