// Crash safety (ADR 0007): a short run of scripts/crash-test.mjs. Customers shop, pay and cancel
// against the production server (build/), which is killed with SIGKILL at a random moment in
// each round and started again; the database must hold its invariants every time. SQLite by
// default; with TEST_PG_URL (scripts/test-pg.sh) on a fresh PostgreSQL database.
// The full run (50 rounds) is `npm run crash-test`.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { runCrashTest, SERVER_BUILD } from "../../scripts/crash-test.mjs";

// npm test runs this file once the build is done (SHOP_AFTER_BUILD=1, scripts/test.sh), and then
// it must run; a bare `vitest run` without a build skips it.
const mustRun = process.env.SHOP_AFTER_BUILD === "1";

describe.skipIf(!mustRun && !fs.existsSync(SERVER_BUILD))("the shop killed while customers shop", () => {
  it("keeps stock, orders, payments, carts and sessions whole through 3 SIGKILLs", { timeout: 120_000 }, async () => {
    if (!fs.existsSync(SERVER_BUILD)) throw new Error("the production build is missing: run `npx remix vite:build` first");
    const lines: string[] = [];
    const summary = await runCrashTest({
      rounds: 3,
      customers: 6,
      windowMs: 2000,
      pgAdminUrl: process.env.TEST_PG_URL ?? null,
      log: (line) => lines.push(line),
    });
    // The figures, for the test's output.
    console.info(lines.join("\n"));
    expect(summary.violations).toEqual([]);
    expect(summary.rounds).toBe(3);
    expect(summary.kills).toBe(3);
    expect(summary.requests).toBeGreaterThan(30);
  });
});
