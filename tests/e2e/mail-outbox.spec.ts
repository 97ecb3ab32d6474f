// The staff's mail page, with JavaScript off and on: a mail the mail server
// refused for good is listed on /admin/mail with its recipient, subject, tries and reason, and
// 'Send again' queues it: the server's outbox worker sends it (into MAIL_DIR) and the list no longer
// shows it. The refusal is written into the server's SQLite database as the worker writes one (an
// SMTP 5xx cannot happen with the MAIL_DIR transport); the integration tests (tests/integration/
// outbox.test.ts) make real ones on both databases. 'Send all failed again' queues every failed
// mail but one that carried a code or a link (listed, not sendable again). Both tests hold a lock
// across the browser projects: 'Send all' would otherwise take the other project's failed mail.
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { MAIL_DIR } from "../../playwright.config";
import { mailsTo } from "../support/outbox";
import { toast } from "../support/e2e/accounts";
import { expectSection, loginAsAdmin, SHOTS, uniqueTag } from "../support/e2e/admin";
import type { Page, TestInfo } from "@playwright/test";
import { expect, test } from "../support/e2e/fixtures";

// The cluster run's database is PostgreSQL behind its servers; this page renders the same on any server.
test.skip(process.env.E2E_TARGET === "cluster", "writes its failed mail into the SQLite database of npm test's server");

/** Runs `body` while no other project's test of this file runs (a directory made exclusively is the lock). */
async function alone<T>(body: () => Promise<T>): Promise<T> {
  const lock = path.join(process.env.E2E_DATA_DIR!, "mail-outbox-spec.lock");
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await body();
  } finally {
    fs.rmdirSync(lock);
  }
}

function failedMail(to: string, { subject = "Sagwan Living: order #1 has shipped", discardAfter = null as string | null } = {}): number {
  const db = new Database(path.join(process.env.E2E_DATA_DIR!, "shop.db"));
  try {
    db.pragma("busy_timeout = 5000");
    const now = new Date().toISOString();
    const row = db
      .prepare(
        `insert into mail_outbox
           (recipient, subject, text, html, reply_to, status, attempts, next_attempt_at, last_error, created_at, discard_after)
         values (?, ?, ?, null, null, 'failed', 1, ?, ?, ?, ?) returning id`,
      )
      .get(
        to,
        subject,
        discardAfter ? "" : "Your order has shipped.",
        now,
        discardAfter ? "expired before it could be sent" : "550 5.1.1 <[email]>: Recipient address rejected",
        now,
        discardAfter,
      ) as {
      id: number;
    };
    return row.id;
  } finally {
    db.close();
  }
}

test("a failed mail is listed with its reason, and 'Send again' sends it", async ({ page }, testInfo) => {
  await alone(() => sendAgain(page, testInfo));
});

async function sendAgain(page: Page, testInfo: TestInfo) {
  const to = `${uniqueTag(testInfo)}@example.com`;
  const id = failedMail(to);
  await loginAsAdmin(page, testInfo);
  await page.goto("/admin/mail");
  await expectSection(page, "Mail");
  await expect(page.getByRole("link", { name: "Mail", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(page.getByText("Failed", { exact: true })).toBeVisible();
  const row = page.getByTestId("failed-mail").filter({ hasText: to });
  await expect(row).toContainText(`#${id}`);
  await expect(row).toContainText("order #1 has shipped");
  await expect(row).toContainText("Recipient address rejected");
  await page.screenshot({ path: `${SHOTS}/mail-${testInfo.project.name}.png`, fullPage: true });
  await row.getByRole("button", { name: `Send mail #${id} to ${to} again` }).click();
  await expect(toast(page, `Mail #${id} queued again`)).toBeVisible();
  await expect(page.getByTestId("failed-mail").filter({ hasText: to })).toHaveCount(0);
  await expect.poll(async () => (await mailsTo(to, MAIL_DIR)).length, { message: `the mail to ${to} is sent` }).toBe(1);
  const [mail] = await mailsTo(to, MAIL_DIR);
  expect(mail).toMatchObject({ to, subject: "Sagwan Living: order #1 has shipped", text: "Your order has shipped." });
}

test("'Send all failed again' sends every failed mail but one that carried a code", async ({ page }, testInfo) => {
  await alone(async () => {
    const tag = uniqueTag(testInfo);
    const plain = `${tag}-plain@example.com`;
    const coded = `${tag}-code@example.com`;
    failedMail(plain);
    const codeId = failedMail(coded, { subject: "Your Sagwan Living verification code", discardAfter: new Date().toISOString() });
    await loginAsAdmin(page, testInfo);
    await page.goto("/admin/mail");
    const codeRow = page.getByTestId("failed-mail").filter({ hasText: coded });
    await expect(codeRow).toContainText("expired before it could be sent");
    await expect(codeRow).toContainText("Code or link: not sent again");
    await expect(codeRow.getByRole("button")).toHaveCount(0);
    await page.getByRole("button", { name: /^Send all failed again \(\d+\)$/ }).click();
    await expect(toast(page, /mails? queued again/)).toBeVisible();
    await expect(page.getByTestId("failed-mail").filter({ hasText: plain })).toHaveCount(0);
    await expect(page.getByTestId("failed-mail").filter({ hasText: coded })).toContainText(`#${codeId}`);
    await expect.poll(async () => (await mailsTo(plain, MAIL_DIR)).length, { message: `the mail to ${plain} is sent` }).toBe(1);
    expect(await mailsTo(coded, MAIL_DIR)).toEqual([]);
  });
});
