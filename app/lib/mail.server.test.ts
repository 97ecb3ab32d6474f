// The MAIL_DIR transport holds whole mails only: the crash test (scripts/crash-test.mjs) found an
// empty .json file after a SIGKILL landed between a mail file's creation and its contents. A mail
// is written under a name no reader takes, then linked to its outbox row's own name, which is
// created exclusively: a resend of a row (a worker that died before marking it sent) writes nothing.
import fsSync from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "./env.server";
import type { OutboxRow } from "./outbox.server";
import { deliver, isPermanentFailure, mailFileName, messageIdOf } from "./outbox.server";

const outbox = () => (fsSync.existsSync(env.MAIL_DIR) ? fsSync.readdirSync(env.MAIL_DIR) : []);

let nextId = 1000;
function row(fields: Partial<OutboxRow>): OutboxRow {
  const at = new Date().toISOString();
  return {
    id: nextId++,
    recipient: "someone@example.com",
    subject: "A subject",
    text: "A text",
    html: null,
    replyTo: null,
    status: "sending",
    attempts: 1,
    nextAttemptAt: at,
    claimedBy: "test",
    claimedUntil: at,
    lastError: null,
    createdAt: at,
    sentAt: null,
    discardAfter: null,
    requestId: null,
    ...fields,
  };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the MAIL_DIR transport", () => {
  it("never shows a mail that was not written whole", async () => {
    const before = new Set(outbox());
    // The process dies once the file exists but before its contents are in it.
    vi.spyOn(fs, "writeFile").mockImplementation(async (file) => {
      await fs.appendFile(String(file), "");
      throw new Error("killed");
    });
    await expect(deliver(row({ recipient: "half@example.com", subject: "Half", text: "never whole" }))).rejects.toThrow("killed");
    const added = outbox().filter((name) => !before.has(name));
    expect(added.filter((name) => name.endsWith(".json"))).toEqual([]);
  });

  it("writes a whole mail as one .json file named after its row, once however often the row is sent", async () => {
    const before = new Set(outbox());
    const mail = row({ recipient: "whole@example.com", subject: "Whole", text: "all of it", html: "<p>all of it</p>" });
    await deliver(mail);
    await deliver(mail);
    const added = outbox().filter((name) => !before.has(name));
    expect(added).toEqual([mailFileName(mail)]);
    const written = JSON.parse(await fs.readFile(path.join(env.MAIL_DIR, added[0]!), "utf8")) as Record<string, string>;
    expect(Object.keys(written)).toEqual(["to", "subject", "text", "html", "sentAt"]);
    expect(written).toMatchObject({ to: "whole@example.com", subject: "Whole", text: "all of it", html: "<p>all of it</p>" });
  });

  it("names files by queue time first, so they sort by time; a row's Message-ID is the same on every try", () => {
    const early = row({ id: 99, createdAt: "2026-11-26T05:00:00.000Z" });
    const late = row({ id: 7, createdAt: "2026-11-26T05:00:01.000Z" });
    expect([mailFileName(late), mailFileName(early)].sort()).toEqual([mailFileName(early), mailFileName(late)]);
    expect(messageIdOf(early)).toBe(messageIdOf({ ...early }));
    expect(messageIdOf(early)).not.toBe(messageIdOf(late));
    expect(messageIdOf(early)).toMatch(/^<outbox-99-\d+@[^>]+>$/);
  });

  it("counts only a refusal of the recipient as permanent: a login, greeting, MAIL FROM or DATA refusal is for now", () => {
    const smtpError = (message: string, fields: Record<string, unknown>) => Object.assign(new Error(message), fields);
    // The recipient refused (550 to RCPT TO; every recipient rejected), or no usable address: permanent.
    expect(isPermanentFailure(smtpError("550 5.1.1 user unknown", { responseCode: 550, command: "RCPT TO" }))).toBe(true);
    const allRejected = { code: "EENVELOPE", command: "RCPT TO", responseCode: 550, rejected: ["x@example.com"] };
    expect(isPermanentFailure(smtpError("all recipients were rejected", allRejected))).toBe(true);
    expect(isPermanentFailure(smtpError("No recipients defined", { code: "EENVELOPE" }))).toBe(true);
    // The shop's setup or its relay: a wrong password, STARTTLS demanded, a 554 greeting, relaying denied on MAIL FROM, DATA refused.
    expect(isPermanentFailure(smtpError("535 5.7.8 bad credentials", { code: "EAUTH", responseCode: 535, command: "AUTH PLAIN" }))).toBe(
      false,
    );
    expect(
      isPermanentFailure(smtpError("530 5.7.0 must issue STARTTLS", { code: "EENVELOPE", responseCode: 530, command: "MAIL FROM" })),
    ).toBe(false);
    expect(isPermanentFailure(smtpError("554 no service", { code: "EPROTOCOL", responseCode: 554, command: "CONN" }))).toBe(false);
    expect(isPermanentFailure(smtpError("550 relaying denied", { code: "EENVELOPE", responseCode: 550, command: "MAIL FROM" }))).toBe(
      false,
    );
    expect(isPermanentFailure(smtpError("554 message refused", { code: "EMESSAGE", responseCode: 554, command: "DATA" }))).toBe(false);
    expect(isPermanentFailure(smtpError("550 5.1.1 user unknown", { responseCode: 550 }))).toBe(false);
    expect(isPermanentFailure(smtpError("421 try later", { responseCode: 421, command: "RCPT TO" }))).toBe(false);
    expect(isPermanentFailure(smtpError("connect ECONNREFUSED", { code: "ECONNECTION" }))).toBe(false);
  });
});
