// What the backup tests share: a shop's storage of its own (a new SQLite file and data folder, or
// a new PostgreSQL database on the TEST_PG_URL server), as a restore's target, and the sha256 of bytes.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { ShopStorage } from "~/lib/backup/backup.server";

/** A new, empty shop: its database is made empty (PostgreSQL) or not at all yet (SQLite), its data folder empty. */
export async function newShop(tag: string): Promise<ShopStorage> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `shop-${tag}-`));
  const adminUrl = process.env.TEST_PG_URL;
  if (!adminUrl) return { databaseUrl: `file:${path.join(dataDir, "shop.db")}`, dataDir, imageStore: "disk" };
  const name = `shop_${tag.replace(/\W/g, "_")}_${crypto.randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { databaseUrl: url.toString(), dataDir, imageStore: "database" };
}

export const sha256 = (bytes: Uint8Array) => crypto.createHash("sha256").update(bytes).digest("hex");

/** A folder of its own for backup files. */
export const backupDir = (tag: string) => fs.mkdtempSync(path.join(os.tmpdir(), `shop-backups-${tag}-`));
