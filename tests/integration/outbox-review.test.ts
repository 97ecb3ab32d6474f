// The mail outbox's harder cases (ADR 0020), on SQLite and PostgreSQL: a worker renews its claim
// before each send and skips a row another worker took over, a send that drags on is cut off as a
// failure for now, a mail whose code or link expired is failed unsent with its body cleared and
// cannot be sent again, 'Send all failed again' on /admin/mail, a stopping worker hands back the
// rows it has not sent, a row whose worker died MAX_ATTEMPTS times is failed rather than claimed
// again, and on PostgreSQL claims, backoff, the housekeeping lease and purgeExpired's cut-offs go
// by the database's clock, not a server's wrong one.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { ready } from "~/lib/boot.server";
import { db, dbNow, isPostgresUrl, nowIso } from "~/lib/db.server";
import { HOUSEKEEPING_LEASE, housekeepIfDue, purgeExpired, takeLease } from "~/lib/housekeeping.server";
import { queueMail, settleMail } from "~/lib/mail.server";
import type { OutboxRow } from "~/lib/outbox.server";
import { CLAIM_MS, claimDue, drainOutbox, EXPIRED_UNSENT, MAX_ATTEMPTS, retryFailedMail } from "~/lib/outbox.server";
import { requestPasswordReset } from "~/models/users/password.server";
import { RESET_TTL_MS } from "~/lib/one-time-codes.server";
import { UNKNOWN_CLIENT } from "~/lib/rate-limit.server";
import * as adminMail from "~/routes/admin.mail";
import { grantAdmin } from "~/web/sign-in.server";
import { formRequest, getRequest, mergeCookies } from "../support/requests";
import * as m0025 from "../../migrations/2026-11-26-0025-mail-discard-after";
import { call } from "../support/route-calls";

let serial = 0;
const address = (what: string) => `review-${what}-${++serial}-${Date.now()}@example.com`;
const rowsTo = (to: string) => db.selectFrom("mailOutbox").selectAll().where("recipient", "=", to).orderBy("id").execute();
const rowOf = (id: number) => db.selectFrom("mailOutbox").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const accepted = () => Promise.resolve();

beforeAll(async () => {
  await ready;
});

beforeEach(async () => {
  await settleMail();
});

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("claims during a slow batch", () => {
  it("renews the row's claim before its send, and skips a row another worker took over meanwhile", async () => {
    const to = address("takeover");
    const first = await queueMail(db, { to, subject: "One", text: "1" });
    const second = await queueMail(db, { to, subject: "Two", text: "2" });
    const sent: number[] = [];
    const slow = async (row: OutboxRow) => {
      sent.push(row.id);
      if (row.id !== first) return;
      // While this slow send runs, the claim was renewed for it: it holds about CLAIM_MS from now.
      const held = await rowOf(first);
      expect(Date.parse(held.claimedUntil!) - Date.parse(await dbNow(db))).toBeGreaterThan(CLAIM_MS - 10_000);
      // The batch's other claim ran out and another server's worker took the row (and sends it).
      await db.updateTable("mailOutbox").set({ claimedBy: "other-server" }).where("id", "=", second).execute();
    };
    expect(await drainOutbox(db, "slow-worker", slow)).toMatchObject({ sent: 1 });
    expect(sent.filter((id) => id === first || id === second)).toEqual([first]);
    expect(await rowOf(second)).toMatchObject({ status: "sending", claimedBy: "other-server" });
    await db.updateTable("mailOutbox").set({ status: "sent", claimedBy: null }).where("id", "=", second).execute();
  });

  it("logs a send it finished after losing the row's claim", async () => {
    const to = address("lost-claim");
    const id = await queueMail(db, { to, subject: "Lost", text: "claim" });
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const losing = async (row: OutboxRow) => {
      if (row.id === id) await db.updateTable("mailOutbox").set({ claimedBy: "other-server" }).where("id", "=", id).execute();
    };
    await drainOutbox(db, "losing-worker", losing);
    expect(errors.mock.calls.some((c) => String(c[0]).includes(`mail #${id} was sent, but this worker no longer held its claim`))).toBe(
      true,
    );
    await db.updateTable("mailOutbox").set({ status: "sent", claimedBy: null }).where("id", "=", id).execute();
  });

  it("cuts off a send that takes longer than its limit, as a failure for now", async () => {
    const to = address("hanging");
    const id = await queueMail(db, { to, subject: "Hangs", text: "forever" });
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const hanging = (row: OutboxRow) => (row.id === id ? new Promise<void>(() => undefined) : Promise.resolve());
    const result = await drainOutbox(db, "w", hanging, { sendLimitMs: 100 });
    expect(result.retry).toBeGreaterThanOrEqual(1);
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: "pending", attempts: 1, claimedBy: null });
    expect(row.lastError).toContain("longer than 100 ms");
  });
});

describe("SMTP refusals that are not the recipient's and 'Send all failed again'", () => {
  it("a login refusal (EAUTH 535) leaves the mail waiting; /admin/mail sends every failed mail again, audited", async () => {
    const to = address("eauth");
    const id = await queueMail(db, { to, subject: "Auth", text: "later" });
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const eauth = Object.assign(new Error("Invalid login: 535 5.7.8 Authentication failed"), {
      code: "EAUTH",
      responseCode: 535,
      command: "AUTH PLAIN",
    });
    expect(await drainOutbox(db, "w", (row) => (row.id === id ? Promise.reject(eauth) : accepted()))).toMatchObject({
      retry: 1,
      failed: 0,
    });
    expect(await rowOf(id)).toMatchObject({ status: "pending", attempts: 1 });

    // Two failed mails (say the relay was down for a day), one a reset link: the link stays failed.
    const a = address("all-a");
    const b = address("all-b");
    const plain = await queueMail(db, { to: a, subject: "Plain", text: "again" });
    const link = await queueMail(db, { to: b, subject: "Link", text: "dead", discardAfter: new Date(Date.now() + 60_000) });
    await db.updateTable("mailOutbox").set({ status: "failed", lastError: "down" }).where("id", "in", [id, plain, link]).execute();
    const admin = mergeCookies([await grantAdmin(getRequest("/"))]);
    const page = await call(adminMail.loader, getRequest("/admin/mail", { Cookie: admin }));
    const failed = (page.body as { list: { failed: { id: number; canSendAgain: boolean }[] } }).list.failed;
    expect(failed.find((m) => m.id === plain)?.canSendAgain).toBe(true);
    expect(failed.find((m) => m.id === link)?.canSendAgain).toBe(false);
    const stranger = await call(adminMail.action, formRequest("/admin/mail", { intent: "retry-all" }));
    expect(stranger.status).toBe(403);
    expect((await rowOf(plain)).status).toBe("failed");
    const again = await call(adminMail.action, formRequest("/admin/mail", { intent: "retry-all" }, { Cookie: admin }));
    expect(again.status).toBe(302);
    expect(await rowOf(plain)).toMatchObject({ status: "pending", attempts: 0 });
    expect(await rowOf(id)).toMatchObject({ status: "pending", attempts: 0 });
    expect((await rowOf(link)).status).toBe("failed");
    const one = await call(adminMail.action, formRequest("/admin/mail", { intent: "retry", mailId: String(link) }, { Cookie: admin }));
    expect(one.status).toBe(409);
    const audit = await db
      .selectFrom("auditLog")
      .select("summary")
      .where("entity", "=", "mail")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(audit.summary).toMatch(/^\d+ failed mails: failed → sent again$/);
  });
});

describe("mails that carry a code or a link", () => {
  it("a mail past its 'discard after' time is failed unsent, its body cleared, and cannot be sent again", async () => {
    const to = address("expired");
    const id = await queueMail(db, {
      to,
      subject: "Your code",
      text: "code 123456",
      html: "<p>123456</p>",
      discardAfter: new Date(Date.now() - 1000),
    });
    const sent: number[] = [];
    await drainOutbox(db, "w", async (row) => void sent.push(row.id));
    expect(sent).not.toContain(id);
    expect(await rowOf(id)).toMatchObject({ status: "failed", lastError: EXPIRED_UNSENT, text: "", html: null });
    expect(await retryFailedMail(db, id)).toBe(false);
    expect((await rowOf(id)).status).toBe("failed");
  });

  it("a reset link's mail expires with its link; refused for good, its body is cleared", async () => {
    const email = address("reset");
    const now = nowIso();
    await db
      .insertInto("users")
      .values({ name: "Asha Verma", email, mobile: null, passwordHash: null, emailVerifiedAt: now, createdAt: now, updatedAt: now })
      .execute();
    const before = Date.now();
    await requestPasswordReset(email, "http://localhost", UNKNOWN_CLIENT);
    const [row] = await rowsTo(email);
    const left = Date.parse(row!.discardAfter!) - before;
    expect(left).toBeGreaterThanOrEqual(RESET_TTL_MS - 1000);
    expect(left).toBeLessThanOrEqual(RESET_TTL_MS + 5000);
    const refusal = Object.assign(new Error("550 5.1.1 User unknown"), { responseCode: 550, command: "RCPT TO" });
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    await drainOutbox(db, "w", (r) => (r.id === row!.id ? Promise.reject(refusal) : accepted()));
    expect(await rowOf(row!.id)).toMatchObject({ status: "failed", text: "", html: null });
    expect(await retryFailedMail(db, row!.id)).toBe(false);
  });
});

describe("the worker's stop and its crashes", () => {
  it("a stopping worker sends no further row and hands back the rows it claimed", async () => {
    const to = address("stop");
    const ids = [await queueMail(db, { to, subject: "1", text: "1" }), await queueMail(db, { to, subject: "2", text: "2" })];
    let stopping = false;
    const sent: number[] = [];
    const send = async (row: OutboxRow) => {
      sent.push(row.id);
      stopping = true;
    };
    await drainOutbox(db, "stopping-worker", send, { stopped: () => stopping });
    expect(sent).toHaveLength(1);
    const rows = await rowsTo(to);
    expect(rows.map((r) => r.status).sort()).toEqual(["pending", "sent"]);
    expect(rows.find((r) => r.status === "pending")).toMatchObject({ claimedBy: null, claimedUntil: null, attempts: 0 });
    expect(ids).toContain(sent[0]);
  });

  it("a row whose claim ran out MAX_ATTEMPTS times is failed, not claimed again", async () => {
    const to = address("killer");
    const id = await queueMail(db, { to, subject: "Kills", text: "its worker", discardAfter: new Date(Date.now() + 600_000) });
    const past = nowIso(new Date(Date.now() - 1000));
    await db
      .updateTable("mailOutbox")
      .set({ status: "sending", claimedBy: "dead", claimedUntil: past, attempts: MAX_ATTEMPTS })
      .where("id", "=", id)
      .execute();
    const claimed = await claimDue(db, "w", 100);
    expect(claimed.map((r) => r.id)).not.toContain(id);
    const row = await rowOf(id);
    expect(row).toMatchObject({ status: "failed", claimedBy: null, attempts: MAX_ATTEMPTS, text: "" });
    expect(row.lastError).toContain("stopped mid-send");
    await drainOutbox(db, "w", accepted);
  });
});

describe("migration 2026-11-26-0025-mail-discard-after", () => {
  it("down drops discard_after and keeps the queued mails; up adds it back, empty, and an expiring mail works again", async () => {
    const raw = db.withoutPlugins() as unknown as Parameters<typeof m0025.up>[0];
    const to = address("migration");
    await m0025.down(raw);
    await expect(db.selectFrom("mailOutbox").select("discardAfter").limit(1).execute()).rejects.toThrow();
    await db
      .insertInto("mailOutbox")
      .values({ recipient: to, subject: "Kept", text: "kept", nextAttemptAt: nowIso(new Date(Date.now() + HOUR)), createdAt: nowIso() })
      .execute();
    await m0025.up(raw);
    expect(await db.selectFrom("mailOutbox").select(["subject", "discardAfter"]).where("recipient", "=", to).execute()).toEqual([
      { subject: "Kept", discardAfter: null },
    ]);
    await db.updateTable("mailOutbox").set({ status: "sent" }).where("recipient", "=", to).execute();
    const id = await queueMail(db, { to, subject: "Code", text: "1", discardAfter: new Date(Date.now() - 1) });
    await drainOutbox(db, "w", accepted);
    expect((await rowOf(id)).lastError).toBe(EXPIRED_UNSENT);
  });
});

const HOUR = 60 * 60 * 1000;
const YEAR = 365 * 24 * HOUR;

/** This process's clock off by `offset` (a server whose clock is wrong); the database's stays right. */
function skewAppClock(offset: number) {
  vi.useRealTimers();
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + offset });
}

describe.skipIf(!isPostgresUrl(process.env.DATABASE_URL ?? ""))("a server with a wrong clock (M4, PostgreSQL)", () => {
  it("claims and backs off by the database's clock, and a mail it queues is due at once", async () => {
    const to = address("skew");
    skewAppClock(YEAR);
    const id = await queueMail(db, { to, subject: "Skewed", text: "clock" });
    vi.useRealTimers();
    const dbClock = Date.parse(await dbNow(db));
    expect(Math.abs(Date.parse((await rowOf(id)).nextAttemptAt) - dbClock)).toBeLessThan(60_000);
    // A server an hour slow claims it until the database's now + CLAIM_MS, and backs off from the database's now.
    skewAppClock(-HOUR);
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const passing = (row: OutboxRow) =>
      row.id === id ? Promise.reject(Object.assign(new Error("ECONNREFUSED"), { code: "ECONNECTION" })) : accepted();
    const claimedUntil: string[] = [];
    const watch = async (row: OutboxRow) => {
      if (row.id === id) claimedUntil.push((await rowOf(id)).claimedUntil!);
      return passing(row);
    };
    await drainOutbox(db, "slow-clock", watch);
    vi.useRealTimers();
    const now = Date.parse(await dbNow(db));
    expect(Math.abs(Date.parse(claimedUntil[0]!) - (now + CLAIM_MS))).toBeLessThan(60_000);
    const row = await rowOf(id);
    expect(row.status).toBe("pending");
    expect(Math.abs(Date.parse(row.nextAttemptAt) - now)).toBeLessThan(HOUR / 2);
    await db.updateTable("mailOutbox").set({ status: "sent" }).where("id", "=", id).execute();
  });

  it("a server a year fast takes the housekeeping lease for an hour of the database's, and deletes nothing still live", async () => {
    await db.deleteFrom("leases").where("name", "=", HOUSEKEEPING_LEASE).execute();
    const key = `review-skew-${Date.now()}`;
    await db
      .insertInto("rateLimits")
      .values({ key, count: 1, resetAt: nowIso(new Date(Date.now() + HOUR)) })
      .execute();
    skewAppClock(YEAR);
    expect(await housekeepIfDue(db, "fast-server")).not.toBeNull();
    vi.useRealTimers();
    const lease = await db.selectFrom("leases").selectAll().where("name", "=", HOUSEKEEPING_LEASE).executeTakeFirstOrThrow();
    const dbClock = Date.parse(await dbNow(db));
    expect(Date.parse(lease.expiresAt) - dbClock).toBeLessThanOrEqual(HOUR);
    expect(Date.parse(lease.expiresAt) - dbClock).toBeGreaterThan(HOUR - 60_000);
    expect(await db.selectFrom("rateLimits").select("key").where("key", "=", key).execute()).toHaveLength(1);
    // So an hour later (by the database's clock) another server takes it.
    expect(await takeLease(db, HOUSEKEEPING_LEASE, "other", HOUR, new Date(dbClock + HOUR + 1000))).toBe(true);
    skewAppClock(YEAR);
    await purgeExpired(db);
    vi.useRealTimers();
    expect(await db.selectFrom("rateLimits").select("key").where("key", "=", key).execute()).toHaveLength(1);
    await db.deleteFrom("leases").where("name", "=", HOUSEKEEPING_LEASE).execute();
  });
});
