// The outbox over SMTP (ADR 0020), against a small SMTP server on a loopback port: a mail
// goes out with a Message-ID derived from its row (the same on a resend, so a receiver can tell a
// repeat), and a recipient the server refuses (550) ends the row failed at once, with the reason
// and without the address. A refusal that is not the recipient's (the message at DATA, a wrong
// password at AUTH) leaves the mail waiting for another try, the password never in its reason.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import { env } from "~/lib/env.server";
import { queueMail } from "~/lib/mail.server";
import { drainOutbox, messageIdOf } from "~/lib/outbox.server";

const received: string[] = [];
let server: net.Server;

/**
 * Speaks just enough SMTP: refuses any recipient at refused.example.com with 550, the message of a
 * mail to data-refused.example.com with 554 at the end of DATA, takes the rest. With `auth`, it
 * offers AUTH and refuses every login with 535.
 */
function smtpServer({ auth = false } = {}): net.Server {
  return net.createServer((socket) => {
    let data = false;
    let message = "";
    let refuseData = false;
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply("220 test ESMTP");
    let buffer = "";
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      let at: number;
      while ((at = buffer.indexOf("\r\n")) !== -1) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        if (data) {
          if (line === ".") {
            data = false;
            if (refuseData) reply("554 5.6.0 message refused");
            else {
              received.push(message);
              reply("250 2.0.0 queued");
            }
            message = "";
          } else message += `${line}\n`;
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO") {
          if (auth) {
            reply("250-test");
            reply("250 AUTH PLAIN LOGIN");
          } else reply("250 test");
        } else if (verb === "HELO") reply("250 test");
        else if (verb === "AUTH") reply("535 5.7.8 Authentication credentials invalid");
        else if (verb === "MAIL") {
          refuseData = false;
          reply("250 2.1.0 ok");
        } else if (verb === "RCPT" && /data-refused\.example\.com/i.test(line)) {
          refuseData = true;
          reply("250 2.1.5 ok");
        } else if (verb === "RCPT")
          reply(/refused\.example\.com/i.test(line) ? "550 5.1.1 <x@refused.example.com>: User unknown" : "250 2.1.5 ok");
        else if (verb === "DATA") {
          data = true;
          reply("354 go on");
        } else if (verb === "QUIT") {
          reply("221 bye");
          socket.end();
        } else if (verb === "RSET" || verb === "NOOP") reply("250 ok");
        else reply("502 5.5.2 not implemented");
      }
    });
  });
}

beforeAll(async () => {
  await ready;
  server = smtpServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  env.SMTP_URL = `smtp://127.0.0.1:${port}`;
});

afterAll(async () => {
  env.SMTP_URL = undefined;
  await new Promise((resolve) => server.close(resolve));
});

describe("the outbox over SMTP", () => {
  it("sends with the row's Message-ID; a refused recipient (550) fails the row at once", async () => {
    const ok = await queueMail(db, { to: "buyer@example.com", subject: "Your order", text: "Thank you", replyTo: "asha@example.com" });
    const refused = await queueMail(db, { to: "nobody@refused.example.com", subject: "Lost", text: "never arrives" });
    const result = await drainOutbox(db, "smtp-worker");
    expect(result).toEqual({ sent: 1, retry: 0, failed: 1 });
    const rows = await db.selectFrom("mailOutbox").selectAll().where("id", "in", [ok, refused]).orderBy("id").execute();
    expect(rows.map((r) => r.status)).toEqual(["sent", "failed"]);
    expect(rows[1]!.attempts).toBe(1);
    expect(rows[1]!.lastError).toContain("User unknown");
    expect(rows[1]!.lastError).not.toContain("nobody@refused.example.com");
    expect(received).toHaveLength(1);
    expect(received[0]).toContain(`Message-ID: ${messageIdOf(rows[0]!)}`);
    expect(received[0]).toMatch(/Reply-To: asha@example\.com/i);
    expect(received[0]).toContain("Subject: Your order");
  });

  it("a message refused at DATA (554) is a failure for now: the mail waits for another try", async () => {
    const id = await queueMail(db, { to: "buyer@data-refused.example.com", subject: "Refused body", text: "again later" });
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      expect(await drainOutbox(db, "smtp-worker")).toMatchObject({ retry: 1, failed: 0 });
    } finally {
      errors.mockRestore();
    }
    const row = await db.selectFrom("mailOutbox").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "pending", attempts: 1 });
    expect(row.lastError).toContain("554");
    await db.updateTable("mailOutbox").set({ status: "failed" }).where("id", "=", id).execute();
  });

  it("a wrong SMTP password (535) fails no mail for good, and is logged loudly without the password", async () => {
    const authServer = smtpServer({ auth: true });
    await new Promise<void>((resolve) => authServer.listen(0, "127.0.0.1", resolve));
    const previous = env.SMTP_URL;
    env.SMTP_URL = `smtp://shop:${"s3cret-pass"}@127.0.0.1:${(authServer.address() as net.AddressInfo).port}`;
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const ids = [
        await queueMail(db, { to: "one@example.com", subject: "One", text: "1" }),
        await queueMail(db, { to: "two@example.com", subject: "Two", text: "2" }),
      ];
      expect(await drainOutbox(db, "smtp-worker")).toMatchObject({ sent: 0, retry: 2, failed: 0 });
      const rows = await db.selectFrom("mailOutbox").selectAll().where("id", "in", ids).execute();
      expect(rows.map((r) => r.status)).toEqual(["pending", "pending"]);
      const logged = errors.mock.calls.map((c) => c.map(String).join(" ")).join("\n");
      expect(logged).toContain("the mail server refused the shop");
      expect(logged).not.toContain("s3cret-pass");
      expect(rows.map((r) => r.lastError).join(" ")).not.toContain("s3cret-pass");
      await db.updateTable("mailOutbox").set({ status: "failed" }).where("id", "in", ids).execute();
    } finally {
      errors.mockRestore();
      env.SMTP_URL = previous;
      await new Promise((resolve) => authServer.close(resolve));
    }
  });
});
