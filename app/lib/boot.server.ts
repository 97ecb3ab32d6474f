// Runs once per process before the first request: migrate, check the clock against the database's
// (PostgreSQL, app/lib/clock-skew.server.ts), load the secrets (shared through the
// database on PostgreSQL), then seed a database on its first start only. A StartupError stops it.
import { DEMO_GSTIN } from "~/utils/invoice";
import { seedOnFirstStart } from "../../db/seed.server";
import { seedDemoPhotos } from "../../db/seed-photos.server";
import { assertClockInStep } from "./clock-skew.server";
import { db } from "./db.server";
import { env, isProduction } from "./env.server";
import { startWorker } from "./housekeeping.server";
import { migrateToLatest } from "./migrate.server";
import { remember } from "./remember.server";
import { loadSecrets } from "./secrets.server";
import { log } from "./log.server";

async function boot() {
  await migrateToLatest(db);
  await assertClockInStep(db);
  await loadSecrets(db);
  if (await seedOnFirstStart(db, env.SEED)) {
    log.info("Seeded the demo catalogue");
    if (env.SEED_PHOTOS) log.info(`Made ${await seedDemoPhotos(db)} demo product photos`);
  }
  // The mail outbox's worker and the hourly housekeeping (one server's at a time); MAIL_WORKER=0: another process runs them.
  if (env.MAIL_WORKER) startWorker(db);
  if (isProduction && !env.RAZORPAY_KEY_ID) {
    log.warn(
      "RAZORPAY_KEY_ID/RAZORPAY_KEY_SECRET are not set: online payments go through the offline TEST gateway, which takes no money. " +
        "Set Razorpay keys before taking real orders.",
    );
  }
  if (env.RAZORPAY_KEY_ID && !env.RAZORPAY_WEBHOOK_SECRET) {
    log.warn(
      "RAZORPAY_WEBHOOK_SECRET is not set: Razorpay's webhooks will be refused, so an order paid in a tab that was closed is not placed.",
    );
  }
  if (isProduction && !env.SHOP_GSTIN) {
    log.warn(`SHOP_GSTIN is not set: GST invoices show the demo GSTIN ${DEMO_GSTIN}. Set the shop's own.`);
  }
  if (isProduction && !env.PUBLIC_URL) {
    log.warn(
      `PUBLIC_URL is not set: links in mails (password reset) point at http://localhost:${env.PORT}. Set it to the shop's public address.`,
    );
  }
}

export const ready: Promise<void> = remember("boot", boot);
