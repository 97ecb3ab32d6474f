// A production server of its own (the same build) over `npm run db:seed -- --large --total N`,
// for the browser tests that need many products (category pages, search). Its output goes to a
// log in its folder, named in the error when it does not start. The specs share one such shop a
// worker (the `largeShop` fixture): they only read it, and seeding it and starting its server cost
// seconds of both cores each time.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { serverEntry } from "../../../scripts/build-server.mjs";
import { freePort } from "../../../scripts/throwaway.mjs";
import { test as base } from "./fixtures";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "../../..");

export async function startLargeShop(tag: string, total: number): Promise<{ origin: string; stop: () => void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `shop-e2e-${tag}-`));
  const env = { ...process.env, DATABASE_URL: `file:${path.join(dir, "shop.db")}`, DATA_DIR: dir, MAIL_DIR: path.join(dir, "mail") };
  execFileSync(path.join(root, "node_modules", ".bin", "tsx"), ["scripts/db.ts", "seed", "--large", "--total", String(total)], {
    cwd: root,
    env,
    stdio: "ignore",
  });
  const port: number = await freePort();
  const origin = `http://localhost:${port}`;
  const log = fs.openSync(path.join(dir, "server.log"), "a");
  const server = spawn(process.execPath, [serverEntry()], {
    cwd: root,
    stdio: ["ignore", log, log],
    env: { ...env, NODE_ENV: "production", PORT: String(port), SEED: "none", PUBLIC_URL: origin, TRUST_PROXY: "1" },
  });
  for (let i = 0; i < 600; i++) {
    const up = await fetch(`${origin}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { origin, stop: () => server.kill() };
    await new Promise((r) => setTimeout(r, 200));
  }
  server.kill();
  throw new Error(`the ${tag} test's server did not start: ${fs.readFileSync(path.join(dir, "server.log"), "utf8").slice(-2000)}`);
}

/** Products in the large shop: 400 a category over the five categories. */
export const LARGE_TOTAL = 2_000;

/** The fixtures' test with `largeShop`: the origin of this worker's large shop, started on first use. */
export const test = base.extend<object, { largeShop: string }>({
  largeShop: [
    // Playwright reads a fixture's dependencies from its first parameter's pattern: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const shop = await startLargeShop("large", LARGE_TOTAL);
      try {
        await use(shop.origin);
      } finally {
        shop.stop();
      }
    },
    { scope: "worker", timeout: 120_000 },
  ],
});
