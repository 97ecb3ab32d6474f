import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { CHROMIUM } from "./scripts/ensure-chromium.mjs";

// One production server (the built app, started as `npm start` starts it) on a free port,
// with its own temporary database, data and mail folders. With E2E_TARGET=cluster (npm run
// test:cluster), the same suite runs against scripts/cluster.mjs instead: two production servers on
// PostgreSQL behind nginx (round-robin), baseURL nginx's, the mails in the one folder both write.
function freePort(): number {
  const script = "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})";
  return Number(execFileSync(process.execPath, ["-e", script]).toString().trim());
}

const port = Number(process.env.E2E_PORT ?? (process.env.E2E_PORT = String(freePort())));
const dataDir = process.env.E2E_DATA_DIR ?? (process.env.E2E_DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), "shop-e2e-")));
export const E2E_DATA_DIR = dataDir;
export const MAIL_DIR = path.join(dataDir, "mail");
/** The production server's output (stdout and stderr) for the whole run: tests/support/e2e/log-check.ts reads it. */
export const E2E_SERVER_LOG = path.join(dataDir, "server.log");
export const BASE_URL = `http://localhost:${port}`;
const onCluster = process.env.E2E_TARGET === "cluster";
export const E2E_ADMIN_PASSWORD = "e2e-admin-password";

export default defineConfig({
  testDir: "tests/e2e",
  globalTeardown: "./tests/support/e2e/log-check.ts",
  // On the cluster, not again (npm test runs them on SQLite): the specs that start their own
  // SQLite server with 100,000 products (search, category-pages: nothing in them reaches the
  // cluster), the accessibility scans (axe reads the markup, the same whichever server rendered it;
  // the paths they walk run on the cluster in the orders, admin and accounts specs) and the
  // screenshots taken for people to look at (no assertion on the shop's state), and the development
  // server's check (it starts `npm run dev` over SQLite of its own).
  testIgnore: onCluster
    ? ["**/search.spec.ts", "**/category-pages.spec.ts", "**/a11y.spec.ts", "**/screens.spec.ts", "**/dev-server.spec.ts"]
    : undefined,
  fullyParallel: true,
  workers: 2,
  // No retries, in CI either: a test that fails once fails the run, so a flaky test is fixed, not hidden.
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: BASE_URL,
    // A failed test keeps its trace: actions, console, network; not the DOM snapshot of each action,
    // which cost about a sixth of the browsers' CPU in every test, passing or not.
    trace: { mode: "retain-on-failure", screenshots: false, snapshots: false },
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  // Every test runs with JavaScript off (phone) and on (desktop); the visitor's whole path and
  // the wishlist also run the other way round (JavaScript on a phone, off on a desktop), and the
  // dashboard's charts, the product photos, the variants and the option filters with JavaScript on a
  // phone too (tooltips under a finger, swipes, choosing a piece and buying two of its variants).
  projects: [
    { name: "no-js", use: { javaScriptEnabled: false, viewport: { width: 390, height: 844 } } },
    { name: "js", use: { javaScriptEnabled: true, viewport: { width: 1280, height: 900 } } },
    {
      name: "js-phone",
      testMatch: /(visitor|wishlist|dashboard-charts|photos|variants|option-filters)\.spec\.ts/,
      use: { javaScriptEnabled: true, viewport: { width: 390, height: 844 }, hasTouch: true },
    },
    {
      name: "no-js-desktop",
      testMatch: /(visitor|wishlist)\.spec\.ts/,
      use: { javaScriptEnabled: false, viewport: { width: 1280, height: 900 } },
    },
  ],
  webServer: onCluster
    ? {
        // Secrets: none set, as an operator may leave them: the servers generate each once into the
        // database and share it (app/lib/secrets.server.ts). The database is a fresh one on
        // TEST_PG_URL's server (scripts/with-pg.sh), or a throwaway PostgreSQL of the cluster's own.
        // --forwarded-for append: each test names its own client address (tests/support/e2e/fixtures.ts), as a CDN would.
        command: `node scripts/cluster.mjs --port ${port} --mail-dir ${JSON.stringify(MAIL_DIR)} --forwarded-for append`,
        url: `${BASE_URL}/readyz`,
        reuseExistingServer: false,
        timeout: 240_000,
        stdout: "ignore",
        stderr: "pipe",
        // Servers stop gracefully, then nginx and the database; the temporary folder goes.
        gracefulShutdown: { signal: "SIGTERM", timeout: 30_000 },
        env: { SEED: "demo", ADMIN_PASSWORD: E2E_ADMIN_PASSWORD },
      }
    : {
        // Its output goes to E2E_SERVER_LOG (read after the run for secrets: tests/support/e2e/log-check.ts).
        command: `node scripts/start.mjs >> ${JSON.stringify(E2E_SERVER_LOG)} 2>&1`,
        url: `http://localhost:${port}/healthz`,
        reuseExistingServer: false,
        timeout: 180_000,
        stdout: "ignore",
        stderr: "pipe",
        env: {
          PORT: String(port),
          DATABASE_URL: `file:${path.join(dataDir, "shop.db")}`,
          DATA_DIR: dataDir,
          MAIL_DIR,
          SEED: "demo",
          ADMIN_PASSWORD: E2E_ADMIN_PASSWORD,
          PUBLIC_URL: BASE_URL,
          // Behind "one proxy": each test sends its own X-Forwarded-For (tests/support/e2e/fixtures.ts).
          TRUST_PROXY: "1",
        },
      },
});
