// The production server's log (server/access-log.ts) never holds a secret a URL carries: a reset
// token, an email address in a query string. The server is started as
// `npm start` starts it, over this file's own database and mail folder, and its output is read.
import fs from "node:fs";
import type net from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { accessLog, loggedUrl } from "../../server/access-log";
import { latestCode, latestResetLink } from "../support/outbox";
import { logMessages, serverBuild, startProductionServer, waitFor } from "../support/production-server";
import type { ProductionServer } from "../support/production-server";

let running: ProductionServer | null = null;

afterEach(async () => {
  await running?.stop();
  running = null;
});

describe("the access log's URL", () => {
  it("keeps the path and the query's names, never a value", () => {
    expect(loggedUrl("/reset-password?token=2.abcDEF_-xyz")).toBe("/reset-password?token=[redacted]");
    expect(loggedUrl("/verify-otp?email=priya%40example.com&attemptId=9")).toBe("/verify-otp?email=[redacted]&attemptId=[redacted]");
    expect(loggedUrl("/admin/products?q=sofa&q=bed&page=2")).toBe("/admin/products?q=[redacted]&q=[redacted]&page=[redacted]");
    expect(loggedUrl("/?admin-access")).toBe("/?admin-access");
    expect(loggedUrl("/category/bedroom")).toBe("/category/bedroom");
    expect(loggedUrl("/cart?")).toBe("/cart");
  });

  it("redacts a query name that is not a plain word, and a path segment holding an email address", () => {
    expect(loggedUrl("/login?priya@example.com")).toBe("/login?[redacted]");
    expect(loggedUrl("/x?a%3Db=1&ok=2")).toBe("/x?[redacted]&ok=[redacted]");
    expect(loggedUrl("/api/users/priya%40example.com/orders")).toBe("/api/users/[redacted]/orders");
    expect(loggedUrl("/u/priya@example.com")).toBe("/u/[redacted]");
  });

  it("is what the middleware writes: method, path, status, length and time", async () => {
    const lines: string[] = [];
    const app = express();
    app.use(accessLog((message) => void lines.push(message)));
    app.get("/reset-password", (_req, res) => void res.type("text/plain").send("ok"));
    const server = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    try {
      const { port } = server.address() as net.AddressInfo;
      const answer = await fetch(`http://127.0.0.1:${port}/reset-password?token=SECRET-TOKEN&email=priya%40example.com`);
      expect(await answer.text()).toBe("ok");
      await waitFor(async () => expect(lines).toHaveLength(1));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(lines[0]).toMatch(/^GET \/reset-password\?token=\[redacted\]&email=\[redacted\] 200 2 - [\d.]+ ms$/);
  });
});

// npm test runs this file once the build is done (SHOP_AFTER_BUILD=1, scripts/test.sh), and then
// it must run; a bare `vitest run` without a build skips it.
const mustRun = process.env.SHOP_AFTER_BUILD === "1";

describe.skipIf(!mustRun && !fs.existsSync(serverBuild))("the production server's access log", () => {
  it("holds no reset token and no email address after a sign-up and a password reset", { timeout: 60_000 }, async (ctx) => {
    running = await startProductionServer();
    if (!running && mustRun) throw new Error("the production build is missing: run `npx remix vite:build` first");
    if (!running) return ctx.skip();
    const { base } = running;
    const origin = { Origin: base };
    const email = "log.reader@example.com";
    const password = "first-secret-12";

    const registered = await fetch(`${base}/api/user/auth/register`, {
      method: "POST",
      headers: { ...origin, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "Log Reader", email, password }),
    });
    expect(registered.status).toBe(201);
    const { attemptId } = (await registered.json()) as { attemptId?: unknown };
    const otp = await waitFor(() => latestCode(email));
    const verified = await fetch(`${base}/api/user/auth/verifyOtp`, {
      method: "POST",
      headers: { ...origin, "Content-Type": "application/json" },
      body: JSON.stringify({ email, otp, attemptId }),
    });
    expect(verified.status).toBe(200);

    // Pages that carry an email in their query string.
    await (await fetch(`${base}/verify-otp?email=${encodeURIComponent(email)}`)).text();
    await (await fetch(`${base}/login?email=${encodeURIComponent(email)}&redirectTo=%2Fprofile`)).text();

    const asked = await fetch(`${base}/forgot-password`, {
      method: "POST",
      headers: { ...origin, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email }).toString(),
      redirect: "manual",
    });
    expect(asked.status).toBe(302);
    const link = await waitFor(() => latestResetLink(email));
    const token = new URL(link).searchParams.get("token") ?? "";
    expect(token.length).toBeGreaterThan(16);
    const resetUrl = `${base}/reset-password?token=${encodeURIComponent(token)}`;
    const page = await fetch(resetUrl);
    expect(page.status).toBe(200);
    await page.text();
    const newPassword = "second-secret-34";
    const reset = await fetch(resetUrl, {
      method: "POST",
      headers: { ...origin, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token, password: newPassword, confirmPassword: newPassword }).toString(),
      redirect: "manual",
    });
    expect(reset.status).toBe(302);

    await running.stop();
    const log = running.output();
    for (const secret of [token, encodeURIComponent(token), email, encodeURIComponent(email), password, newPassword]) {
      expect(log).not.toContain(secret);
    }
    // The requests were logged all the same: method, path, status, length (- when chunked) and time.
    const messages = logMessages(log);
    expect(messages).toMatch(/^POST \/forgot-password 302 /m);
    expect(messages).toMatch(/^GET \/verify-otp\?email=\[redacted\] 200 /m);
    expect(messages).toMatch(/^GET \/reset-password\?token=\[redacted\] 200 (\d+|-) - [\d.]+ ms$/m);
    expect(messages).toMatch(/^POST \/reset-password\?token=\[redacted\] 302 /m);
  });

  it("holds no stack for requests anyone can send: a broken percent-encoding, a post to a page without a form", async (ctx) => {
    // Each of these once wrote a 9-12 line stack to the log: anyone could fill it.
    running = await startProductionServer();
    if (!running && mustRun) throw new Error("the production build is missing: run `npx remix vite:build` first");
    if (!running) return ctx.skip();
    const { base } = running;
    for (const url of ["/%", "/product/%FF", "/api/orders/%E0%A4%A"]) {
      const answer = await fetch(`${base}${url}`);
      expect(answer.status, url).toBe(400);
      expect(await answer.text(), url).not.toMatch(/URIError|at /);
    }
    const posted = await fetch(`${base}/about`, {
      method: "POST",
      headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
      body: "a=1",
    });
    expect(posted.status).toBe(405);
    await posted.text();
    await running.stop();
    const log = running.output();
    expect(logMessages(log)).toMatch(/^GET \/product\/%FF 400 /m);
    expect(log).not.toMatch(/URIError|Failed to decode|did not provide an action|\n\s+at /);
  });
});
