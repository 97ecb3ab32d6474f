// The mail outbox (ADR 0020), on SQLite and PostgreSQL: a mail is written in the transaction
// of the change that causes it (rolled back with it, kept when the process dies before sending); a
// later worker sends it once; workers racing claim disjoint rows and send nothing twice; a claim
// whose worker died is taken over after its lease and the file transport writes nothing twice;
// failures back off, a permanent one (or too many tries) ends failed and the staff see it and send
// it again (/admin/mail); the housekeeping lease runs purgeExpired once when two contenders race;
// the in-process worker sends a mail right after its commit; migration 0023's down and up.
import fs from "node:fs";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import type { Db } from "~/lib/db.server";
import { createDb, db, nowIso } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { HOUSEKEEPING_LEASE, housekeepIfDue, takeLease } from "~/lib/housekeeping.server";
import { queueMail, settleMail } from "~/lib/mail.server";
import type { OutboxRow } from "~/lib/outbox.server";
import { backoffMs, claimDue, deliver, drainOutbox, MAX_ATTEMPTS, startMailWorker } from "~/lib/outbox.server";
import { UNKNOWN_CLIENT } from "~/lib/rate-limit.server";
import { requestPasswordReset } from "~/models/users/password.server";
import { saveUserDetails } from "~/models/users/profile.server";
import { AppError } from "~/lib/errors.server";
import * as adminMail from "~/routes/admin.mail";
import { grantAdmin } from "~/web/sign-in.server";
import * as m0023 from "../../migrations/2026-11-26-0023-mail-outbox";
import * as m0025 from "../../migrations/2026-11-26-0025-mail-discard-after";
import * as m0028 from "../../migrations/2026-11-29-0028-mail-request-id";
import { mailsTo } from "../support/outbox";
import { formRequest, getRequest, mergeCookies } from "../support/requests";
import { call } from "../support/route-calls";

let serial = 0;
const address = (what: string) => `outbox-${what}-${++serial}@example.com`;

/** The MAIL_DIR files for `to`, read without sending anything first (mailsTo would drain the outbox). */
function filesTo(to: string): string[] {
  if (!fs.existsSync(env.MAIL_DIR)) return [];
  return fs
    .readdirSync(env.MAIL_DIR)
    .filter((n) => n.endsWith(".json"))
    .filter((n) => (JSON.parse(fs.readFileSync(`${env.MAIL_DIR}/${n}`, "utf8")) as { to: string }).to === to);
}

const rowsTo = (to: string) => db.selectFrom("mailOutbox").selectAll().where("recipient", "=", to).orderBy("id").execute();

async function user(email: string) {
  const now = nowIso();
  return db
    .insertInto("users")
    .values({ name: "Asha Verma", email, mobile: null, passwordHash: null, emailVerifiedAt: now, createdAt: now, updatedAt: now })
    .returning("id")
    .executeTakeFirstOrThrow();
}

/** Makes every row to `to` due now (time passing, without waiting for it). */
async function makeDue(to: string) {
  const past = nowIso(new Date(Date.now() - 1000));
  await db.updateTable("mailOutbox").set({ nextAttemptAt: past }).where("recipient", "=", to).execute();
}

beforeAll(async () => {
  await ready;
});

beforeEach(async () => {
  await settleMail();
});

describe("a mail is written in its change's transaction", () => {
  it("a rolled-back change leaves no mail: the email change whose audit fails mails nobody", async () => {
    const old = address("rollback-old");
    const { id } = await user(old);
    const audit = async () => {
      throw new Error("the audit row could not be written");
    };
    await expect(
      saveUserDetails(id, { name: "Asha Verma", email: address("rollback-new"), mobile: null }, { missing: new AppError(404, "x"), audit }),
    ).rejects.toThrow("audit row");
    expect(await rowsTo(old)).toEqual([]);
    await expect(
      db.transaction().execute(async (trx) => {
        await queueMail(trx, { to: old, subject: "Never", text: "never" });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await rowsTo(old)).toEqual([]);
    expect(await mailsTo(old)).toEqual([]);
  });

  it("a committed change keeps its mail when the process dies before sending; a fresh worker sends it once", async () => {
    const email = address("reset");
    await user(email);
    await requestPasswordReset(email, "http://shop.test", UNKNOWN_CLIENT);
    // No worker ran (the process 'died' after the commit): the mail waits in the outbox, nothing was sent.
    const [queued] = await rowsTo(email);
    expect(queued).toMatchObject({ status: "pending", attempts: 0, subject: expect.stringContaining("Reset your") as string });
    expect(queued!.text).toContain("http://shop.test/reset-password?token=");
    expect(filesTo(email)).toEqual([]);
    // A new process's worker sends it, once, and empties its body.
    const fresh = await drainOutbox(db, "fresh-worker");
    expect(fresh.sent).toBeGreaterThanOrEqual(1);
    await drainOutbox(db, "another-worker");
    expect(filesTo(email)).toHaveLength(1);
    const [sent] = await rowsTo(email);
    expect(sent).toMatchObject({ status: "sent", attempts: 1, text: "", html: null, claimedBy: null });
    expect((await mailsTo(email))[0]!.text).toContain("/reset-password?token=");
  });
});

describe("workers racing", () => {
  it("claim disjoint rows and send every mail exactly once (two connections; PostgreSQL: SKIP LOCKED)", async () => {
    const to = Array.from({ length: 30 }, () => address("race"));
    for (const t of to) await queueMail(db, { to: t, subject: "Race", text: "one each" });
    const a = createDb(env.DATABASE_URL);
    const b = createDb(env.DATABASE_URL);
    try {
      const sends = new Map<number, number>();
      const counting = (row: OutboxRow) => {
        sends.set(row.id, (sends.get(row.id) ?? 0) + 1);
        return deliver(row);
      };
      const claims = await Promise.all([claimDue(a, "worker-a", 10), claimDue(b, "worker-b", 10), claimDue(a, "worker-a", 10)]);
      const ids = claims.flat().map((r) => r.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBe(30);
      // Those claims 'died'; the rows are taken over after their lease, by two workers racing.
      await db
        .updateTable("mailOutbox")
        .set({ claimedUntil: nowIso(new Date(Date.now() - 1000)) })
        .where("recipient", "in", to)
        .execute();
      const results = await Promise.all([drainOutbox(a, "worker-a2", counting), drainOutbox(b, "worker-b2", counting)]);
      expect(results[0].sent + results[1].sent).toBe(30);
      expect([...sends.values()].every((n) => n === 1)).toBe(true);
      for (const t of to) expect(filesTo(t)).toHaveLength(1);
    } finally {
      await Promise.all([a.destroy(), b.destroy()]);
    }
  });

  it("a claim whose worker died after sending is taken over once its lease ran out, and the file is not written twice", async () => {
    const email = address("crash");
    await queueMail(db, { to: email, subject: "Crash", text: "sent once" });
    const [claimed] = (await claimDue(db, "dying-worker")).filter((r) => r.recipient === email);
    await deliver(claimed!);
    // The worker dies here, before marking it sent. Its claim holds the row from the others meanwhile.
    expect((await drainOutbox(db, "patient-worker")).sent).toBe(0);
    expect((await rowsTo(email))[0]).toMatchObject({ status: "sending", claimedBy: "dying-worker" });
    await db
      .updateTable("mailOutbox")
      .set({ claimedUntil: nowIso(new Date(Date.now() - 1000)) })
      .where("recipient", "=", email)
      .execute();
    expect((await drainOutbox(db, "patient-worker")).sent).toBe(1);
    expect((await rowsTo(email))[0]).toMatchObject({ status: "sent", attempts: 2 });
    expect(filesTo(email)).toHaveLength(1);
    expect(await mailsTo(email)).toHaveLength(1);
  });
});

describe("failures", () => {
  const passing = () => Promise.reject(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:25"), { code: "ECONNECTION" }));

  it("back off exponentially, and end failed after MAX_ATTEMPTS tries, never retried again", async () => {
    const email = address("backoff");
    await queueMail(db, { to: email, subject: "Backoff", text: "later" });
    const before = Date.now();
    expect((await drainOutbox(db, "w", passing)).retry).toBe(1);
    let [row] = await rowsTo(email);
    expect(row).toMatchObject({ status: "pending", attempts: 1, claimedBy: null });
    expect(row!.lastError).toContain("ECONNREFUSED");
    expect(Date.parse(row!.nextAttemptAt) - before).toBeGreaterThanOrEqual(backoffMs(1) - 50);
    // Not due yet: nothing is claimed.
    expect(await drainOutbox(db, "w", passing)).toEqual({ sent: 0, retry: 0, failed: 0 });
    await makeDue(email);
    const second = Date.now();
    await drainOutbox(db, "w", passing);
    [row] = await rowsTo(email);
    expect(row!.attempts).toBe(2);
    expect(Date.parse(row!.nextAttemptAt) - second).toBeGreaterThanOrEqual(2 * backoffMs(1) - 50);
    for (let i = 2; i < MAX_ATTEMPTS; i++) {
      await makeDue(email);
      await drainOutbox(db, "w", passing);
    }
    [row] = await rowsTo(email);
    expect(row).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS });
    await makeDue(email);
    expect(await drainOutbox(db, "w", passing)).toEqual({ sent: 0, retry: 0, failed: 0 });
    expect(filesTo(email)).toEqual([]);
  });

  it("a permanent refusal (SMTP 5xx to RCPT TO) fails at once; the staff see it on /admin/mail and send it again", async () => {
    const email = address("refused");
    const id = await queueMail(db, { to: email, subject: "Refused", text: "no such mailbox" });
    const refusal = Object.assign(new Error(`550 5.1.1 <${email}>: Recipient address rejected: User unknown`), {
      responseCode: 550,
      command: "RCPT TO",
    });
    expect((await drainOutbox(db, "w", () => Promise.reject(refusal))).failed).toBe(1);
    expect((await rowsTo(email))[0]).toMatchObject({ status: "failed", attempts: 1 });
    expect((await rowsTo(email))[0]!.lastError).toContain("Recipient address rejected");

    const admin = mergeCookies([await grantAdmin(getRequest("/"))]);
    const page = await call(adminMail.loader, getRequest("/admin/mail", { Cookie: admin }));
    const body = page.body as { list: { counts: { failed: number }; failed: { id: number; recipient: string; lastError: string }[] } };
    expect(body.list.counts.failed).toBeGreaterThanOrEqual(1);
    expect(body.list.failed.find((m) => m.id === id)).toMatchObject({ recipient: email });
    // Not an admin: refused, nothing changes.
    const stranger = await call(adminMail.action, formRequest("/admin/mail", { intent: "retry", mailId: String(id) }));
    expect(stranger.status).toBe(403);
    expect((await rowsTo(email))[0]!.status).toBe("failed");
    // A bad id: 400, nothing changes.
    const bad = await call(adminMail.action, formRequest("/admin/mail", { intent: "retry", mailId: "x" }, { Cookie: admin }));
    expect(bad.status).toBe(400);
    const again = await call(adminMail.action, formRequest("/admin/mail", { intent: "retry", mailId: String(id) }, { Cookie: admin }));
    expect(again.status).toBe(302);
    expect((await rowsTo(email))[0]).toMatchObject({ status: "pending", attempts: 0 });
    const twice = await call(adminMail.action, formRequest("/admin/mail", { intent: "retry", mailId: String(id) }, { Cookie: admin }));
    expect(twice.status).toBe(409);
    expect(await mailsTo(email)).toHaveLength(1);
    expect((await rowsTo(email))[0]!.status).toBe("sent");
    const audit = await db.selectFrom("auditLog").selectAll().where("entity", "=", "mail").where("entityId", "=", String(id)).execute();
    expect(audit).toHaveLength(1);
  });
});

describe("the housekeeping lease", () => {
  async function race(contenders: Db[], at = new Date()) {
    return Promise.all(contenders.map((c, i) => housekeepIfDue(c, `server-${i}`, at)));
  }

  it("runs purgeExpired once when two servers race for it, and again only once the hour is over", async () => {
    await db.deleteFrom("leases").execute();
    const a = createDb(env.DATABASE_URL);
    const b = createDb(env.DATABASE_URL);
    try {
      const first = await race([a, b, a, b]);
      expect(first.filter((r) => r !== null)).toHaveLength(1);
      expect(first.find((r) => r !== null)).toMatchObject({ sessions: expect.any(Number) as number });
      expect((await race([a, b])).filter((r) => r !== null)).toHaveLength(0);
      // The holder does not renew it either: the lease says when the next run is due.
      const holder = (await db.selectFrom("leases").select("holder").where("name", "=", HOUSEKEEPING_LEASE).executeTakeFirstOrThrow())
        .holder;
      expect(await takeLease(db, HOUSEKEEPING_LEASE, holder, 60_000)).toBe(false);
      const hourLater = new Date(Date.now() + 61 * 60 * 1000);
      expect((await race([a, b, a], hourLater)).filter((r) => r !== null)).toHaveLength(1);
    } finally {
      await Promise.all([a.destroy(), b.destroy()]);
    }
  });
});

describe("the in-process worker", () => {
  it("sends a mail right after its transaction commits (nudged), and stops cleanly", async () => {
    // An idle poll far longer than the test: only the nudge can send it in time.
    const worker = startMailWorker(db, { pollMs: 60_000, id: "nudged-worker" });
    try {
      const email = address("nudge");
      await db.transaction().execute(async (trx) => {
        await queueMail(trx, { to: email, subject: "Prompt", text: "right away" });
      });
      const start = Date.now();
      while (filesTo(email).length === 0 && Date.now() - start < 3000) await new Promise((r) => setTimeout(r, 20));
      expect(filesTo(email)).toHaveLength(1);
      expect(Date.now() - start).toBeLessThan(1500);
    } finally {
      await worker.stop();
    }
  });
});

describe("migration 2026-11-26-0023-mail-outbox", () => {
  it("down drops the outbox and the leases; up makes them again, empty and working", async () => {
    const raw = db.withoutPlugins() as unknown as Parameters<typeof m0023.up>[0];
    // 0025 and 0028 add columns to the outbox: down after them, up before them, as the migrator runs them.
    await m0028.down(raw);
    await m0025.down(raw);
    await m0023.down(raw);
    await expect(db.selectFrom("mailOutbox").select("id").execute()).rejects.toThrow();
    await expect(db.selectFrom("leases").select("name").execute()).rejects.toThrow();
    await m0023.up(raw);
    await m0025.up(raw);
    await m0028.up(raw);
    expect(await db.selectFrom("mailOutbox").select("id").execute()).toEqual([]);
    expect(await db.selectFrom("leases").select("name").execute()).toEqual([]);
    const email = address("after-up");
    await queueMail(db, { to: email, subject: "Again", text: "works" });
    expect(await mailsTo(email)).toHaveLength(1);
    expect(await takeLease(db, "test", "me", 1000)).toBe(true);
  });
});
