// What the server logs about a failure holds no secret: an error is logged by
// its message and stack, never by its other fields (a pg error's `detail` names the row's values,
// a driver error may carry the query's parameters), and email addresses in messages are masked
// (an SMTP refusal names the recipient).
import util from "node:util";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { errorResponse } from "./api.server";
import { pageAction } from "./form.server";
import { errorMessage, logError, maskEmails } from "./log.server";
import { ready } from "./boot.server";
import { db } from "./db.server";
import { queueMail } from "./mail.server";
import { drainOutbox } from "./outbox.server";

const EMAIL = "priya.sharma@example.com";
const PASSWORD = "hunter2-but-longer";

let logged: string[] = [];

beforeEach(() => {
  logged = [];
  for (const level of ["error", "warn", "info", "log"] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(util.format(...args)));
  }
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** An error as pg throws one for a duplicate row, with the fields a driver may attach. */
function databaseError() {
  return Object.assign(new Error('duplicate key value violates unique constraint "users_email_key"'), {
    code: "23505",
    detail: `Key (email)=(${EMAIL}) already exists.`,
    parameters: [EMAIL, PASSWORD],
  });
}

function formRequest(path: string, fields: Record<string, string>) {
  return new Request(`http://localhost:3000${path}`, {
    method: "POST",
    headers: { Host: "localhost:3000", Origin: "http://localhost:3000", "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString(),
  });
}

function expectNoSecrets() {
  const log = logged.join("\n");
  expect(log).not.toContain(EMAIL);
  expect(log).not.toContain(PASSWORD);
  return log;
}

describe("logged failures", () => {
  it("an unforeseen API error: its message and stack, not the values it carries", async () => {
    const answer = errorResponse(databaseError());
    expect(answer.status).toBe(500);
    const log = expectNoSecrets();
    expect(log).toContain("users_email_key");
    expect(log).toMatch(/\n\s+at /);
  });

  it("a page action's unforeseen error: no email address from its message", async () => {
    const failing = async () => {
      throw new Error(`invalid input syntax for type integer: "${EMAIL}"`);
    };
    const answer = await pageAction(formRequest("/forgot-password", { email: EMAIL }), failing, { unexpected: "Please try again." });
    expect(answer).toBeTruthy();
    const log = expectNoSecrets();
    expect(log).toContain("invalid input syntax");
  });

  it("a mail that failed: no recipient address, in the log or in the outbox's record", async () => {
    await ready;
    const id = await queueMail(db, { to: EMAIL, subject: "Hello", text: "Hello" });
    const refusal = new Error(`Can't send mail - all recipients were rejected: 550 5.1.1 <${EMAIL}>: Recipient address rejected`);
    await drainOutbox(db, "log-test", async () => {
      throw Object.assign(refusal, { code: "EENVELOPE", command: "RCPT TO", responseCode: 550 });
    });
    const log = expectNoSecrets();
    expect(log).toContain("failed for good");
    expect(log).toContain("Recipient address rejected");
    const row = await db.selectFrom("mailOutbox").select(["status", "lastError"]).where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.status).toBe("failed");
    expect(row.lastError).toContain("Recipient address rejected");
    expect(row.lastError).not.toContain(EMAIL);
  });
});

describe("logError and errorMessage", () => {
  it("mask every email address, whatever surrounds it", () => {
    expect(maskEmails(`to <${EMAIL}>, cc "a.b+shop@mail.example.co.in"; from x@y.org.`)).toBe('to <[email]>, cc "[email]"; from [email].');
    expect(maskEmails("no address @ all, user@localhost")).toBe("no address @ all, user@localhost");
    expect(maskEmails("a@b.c@d.in x@y.z.")).toBe("[email]@d.in [email].");
  });

  it("masks in linear time: 64 KB of name characters, dots and '@'s (it was quadratic: the 2026-11-23 review)", () => {
    for (const evil of [
      "a".repeat(65_000),
      "a.".repeat(32_000) + "@",
      "a@".repeat(32_000),
      "x".repeat(30_000) + "@" + "y.".repeat(15_000),
    ]) {
      const started = performance.now();
      maskEmails(evil);
      expect(performance.now() - started).toBeLessThan(250);
    }
  });

  it("log the stack and the causes, masked, and nothing of a thrown object's fields", () => {
    const cause = Object.assign(new Error(`connect refused for ${EMAIL}`), { password: PASSWORD });
    logError("checkout failed", new Error("payment could not be saved", { cause }));
    const log = expectNoSecrets();
    expect(log).toMatch(/^checkout failed: Error: payment could not be saved\n\s+at /);
    expect(log).toContain("caused by Error: connect refused for [email]");

    logError("odd", { status: 404, statusText: "Not Found", error: new Error('No route matches URL "/u/priya.sharma@example.com"') });
    logError("odder", { token: PASSWORD });
    expectNoSecrets();
    expect(logged.at(-2)).toMatch(/^odd: 404 Not Found: Error: No route matches URL "\/u\/\[email\]"/);
    expect(logged.at(-1)).toBe("odder: a thrown object");
  });

  it("errorMessage is the message alone", () => {
    expect(errorMessage(new TypeError(`bad ${EMAIL}`))).toBe("TypeError: bad [email]");
    expect(errorMessage("plain text")).toBe("plain text");
    expect(errorMessage(undefined)).toBe("a thrown undefined");
  });
});
