// Each test file gets its own temporary data folder and database, set before any app module
// reads the environment. Call `await ready` (app/lib/boot.server) to migrate and seed.
// By default the database is a fresh SQLite file; with TEST_PG_URL (an admin connection to a
// PostgreSQL server) each file gets a fresh PostgreSQL database instead.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-test-"));
process.env.DATABASE_URL = `file:${path.join(dir, "shop.db")}`;
process.env.DATA_DIR = dir;
process.env.MAIL_DIR = path.join(dir, "mail");
process.env.SEED = "demo";
// No demo photos: every test file seeds its own database, and the photos cost seconds of CPU each
// time (tests that need them call seedDemoPhotos).
process.env.SEED_PHOTOS = "0";
process.env.SMTP_URL = "";
process.env.RAZORPAY_KEY_ID = "";
process.env.RAZORPAY_KEY_SECRET = "";
process.env.TRUST_PROXY = "0";
// No background mail worker: a test sends what it queued with settleMail() (app/lib/mail.server.ts).
process.env.MAIL_WORKER = "0";

const adminUrl = process.env.TEST_PG_URL;
if (adminUrl) {
  const name = `shop_test_${crypto.randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
}

// Every account a test makes costs a password hash, a quarter second of a core at the shop's
// scrypt parameters: cheaper ones here (app/lib/password.server.ts). The files that test the
// hashing itself, or the parameters an account is stored with, ask for the shop's own again.
const { setHashParamsInTests } = await import("../../app/lib/password.server");
const { TEST_HASH_PARAMS } = await import("./hash-params");
setHashParamsInTests(TEST_HASH_PARAMS);
