// What the backup tests share: a shop's storage of its own (a new SQLite file and data folder, or
// a new PostgreSQL database on the TEST_PG_URL server), as a restore's target, and the sha256 of
// bytes. Folders are made inside the test file's own data folder (tests/support/vitest-setup.ts).
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { ShopStorage } from "~/lib/backup/backup.server";
import { createPgDatabase } from "../../scripts/throwaway.mjs";

/** The test file's data folder, as the setup made it (before a test points DATA_DIR at a restored shop). */
const testDataDir = process.env.DATA_DIR!;

/** A new, empty shop: its database is made empty (PostgreSQL) or not at all yet (SQLite), its data folder empty. */
export async function newShop(tag: string): Promise<ShopStorage> {
  const dataDir = fs.mkdtempSync(path.join(testDataDir, `shop-${tag}-`));
  const adminUrl = process.env.TEST_PG_URL;
  if (!adminUrl) return { databaseUrl: `file:${path.join(dataDir, "shop.db")}`, dataDir, imageStore: "disk" };
  const database = await createPgDatabase(adminUrl, `shop_${tag.replace(/\W/g, "_")}`);
  return { databaseUrl: database.url, dataDir, imageStore: "database" };
}

export const sha256 = (bytes: Uint8Array) => crypto.createHash("sha256").update(bytes).digest("hex");

/** A folder of its own for backup files. */
export const backupDir = (tag: string) => fs.mkdtempSync(path.join(testDataDir, `backups-${tag}-`));
