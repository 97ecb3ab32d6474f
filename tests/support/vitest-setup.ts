// Each test file gets its own temporary data folder and SQLite database, set before any
// app module reads the environment. Call `await ready` (app/lib/boot.server) to migrate and seed.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "shop-test-"));
process.env.DATABASE_URL = `file:${path.join(dir, "shop.db")}`;
process.env.DATA_DIR = dir;
process.env.MAIL_DIR = path.join(dir, "mail");
process.env.SEED = "demo";
process.env.SMTP_URL = "";
process.env.RAZORPAY_KEY_ID = "";
process.env.RAZORPAY_KEY_SECRET = "";
process.env.TRUST_PROXY = "0";
