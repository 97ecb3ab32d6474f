// The outbox (MAIL_DIR) holds whole mails only: the crash test (scripts/crash-test.mjs) found an
// empty .json file after a SIGKILL landed between a mail file's creation and its contents. A mail
// is now written under a name no reader takes, then renamed.
import fsSync from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "./env.server";
import { sendMail } from "./mail.server";

const outbox = () => (fsSync.existsSync(env.MAIL_DIR) ? fsSync.readdirSync(env.MAIL_DIR) : []);

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the mail outbox", () => {
  it("never shows a mail that was not written whole", async () => {
    const before = new Set(outbox());
    // The process dies once the file exists but before its contents are in it.
    vi.spyOn(fs, "writeFile").mockImplementation(async (file) => {
      await fs.appendFile(String(file), "");
      throw new Error("killed");
    });
    await expect(sendMail({ to: "half@example.com", subject: "Half", text: "never whole" })).rejects.toThrow("killed");
    const added = outbox().filter((name) => !before.has(name));
    expect(added.filter((name) => name.endsWith(".json"))).toEqual([]);
  });

  it("writes a whole mail as one .json file, and leaves nothing else behind", async () => {
    const before = new Set(outbox());
    await sendMail({ to: "whole@example.com", subject: "Whole", text: "all of it" });
    const added = outbox().filter((name) => !before.has(name));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/\.json$/);
    const mail = JSON.parse(await fs.readFile(path.join(env.MAIL_DIR, added[0]!), "utf8")) as Record<string, string>;
    expect(mail).toMatchObject({ to: "whole@example.com", subject: "Whole", text: "all of it" });
  });
});
