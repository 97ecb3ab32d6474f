// `npm run dev` renders the pages as the production build does, with React on both sides: the
// development server (remix vite:dev, over a database of its own) serves the home page and a
// product page, and React in the browser hydrates them without a hydration warning or any console
// error (React's development build reports every mismatch between the server's HTML and the
// browser's first render, which the production build does not). Vite bundles the dependencies
// afresh (--force), as on a fresh clone, and must find them all before the first page: one found
// later reloads the page under the visitor, with a second copy of React Router beside the first.
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ConsoleMessage } from "@playwright/test";
import { freePort } from "../../scripts/throwaway.mjs";
import { expect, jsEnabled, test } from "../support/e2e/fixtures";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../..");
const PAGES = ["/", "/product/sheesham-wood-3-seater-sofa"];

let server: ChildProcess | null = null;
let origin = "";
let log = "";

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  const testInfo = test.info();
  if (!jsEnabled(testInfo.project.name)) return;
  // Vite compiles each module on its first request: the first page takes a while on a busy machine.
  testInfo.setTimeout(180_000);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-e2e-dev-"));
  const port: number = await freePort();
  origin = `http://localhost:${port}`;
  server = spawn(path.join(root, "node_modules", ".bin", "remix"), ["vite:dev", "--port", String(port), "--strictPort", "--force"], {
    cwd: root,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "development",
      DATABASE_URL: `file:${path.join(dir, "shop.db")}`,
      DATA_DIR: dir,
      MAIL_DIR: path.join(dir, "mail"),
      SEED: "demo",
      PUBLIC_URL: origin,
    },
  });
  server.stdout!.on("data", (chunk: Buffer) => (log += chunk.toString()));
  server.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()));
  for (;;) {
    if (server.exitCode !== null) throw new Error(`npm run dev stopped:\n${log}`);
    const up = await fetch(`${origin}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
});

test.afterAll(() => {
  // its own process group: Vite and anything it started
  if (server?.pid && server.exitCode === null) process.kill(-server.pid, "SIGTERM");
});

for (const pagePath of PAGES) {
  test(`npm run dev: ${pagePath} hydrates without a warning`, async ({ page }, testInfo) => {
    test.skip(!jsEnabled(testInfo.project.name), "JavaScript on only");
    testInfo.setTimeout(120_000);
    const warnings: string[] = [];
    page.on("console", (message: ConsoleMessage) => {
      if (message.type() === "warning" && /hydrat|did not match|server/i.test(message.text())) warnings.push(message.text());
    });
    // page.goto waits for <html data-hydrated> (fixtures); console errors fail the test there too.
    await page.goto(`${origin}${pagePath}`, { timeout: 90_000 });
    await expect(page.locator("main#main")).toBeVisible();
    expect(warnings, `hydration warnings on ${pagePath}`).toEqual([]);
    expect(log, "Vite found a dependency after the start").not.toMatch(/new dependencies optimized|optimized dependencies changed/);
  });
}
