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

  it("tells a permanent refusal (SMTP 5xx, rejected recipients) from a passing one", () => {
    expect(isPermanentFailure(Object.assign(new Error("550 5.1.1 user unknown"), { responseCode: 550 }))).toBe(true);
    expect(isPermanentFailure(Object.assign(new Error("No recipients defined"), { code: "EENVELOPE" }))).toBe(true);
    expect(isPermanentFailure(Object.assign(new Error("421 try later"), { responseCode: 421 }))).toBe(false);
    expect(isPermanentFailure(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNECTION" }))).toBe(false);
  });
});
