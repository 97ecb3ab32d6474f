// The shop-wide figures GET /metrics reads from the database when it is scraped (app/lib/metrics.server.ts):
// the mail outbox's depth, refunds waiting for the gateway, and the stock held for payments. Each is one
// query on an index (mail_outbox_status_next_idx, refunds_status_id_idx, stock_reservations_expires_at_idx),
// so a scrape every 15 s costs the database next to nothing. Every server reads the same rows and reports
// the same values: dashboards take max(), not sum(), of these across servers (docs/operations.md).
import type { Db } from "~/lib/db.server";
import { db as defaultDb, dbNowValue, toCount } from "~/lib/db.server";
import { scrapeGauge } from "~/lib/metrics.server";
import { outboxCounts } from "~/lib/outbox.server";

/** Registers the figures once per process (a second call changes nothing). */
export function registerShopGauges(db: Db = defaultDb): void {
  scrapeGauge(
    "shop_mail_outbox_messages",
    "Mails in the outbox by status: pending (waiting to be sent), sending (claimed by a worker), failed (given up: /admin/mail).",
    ["status"],
    async () => Object.entries(await outboxCounts(db)).map(([status, value]) => ({ labels: { status }, value })),
  );
  scrapeGauge("shop_refunds_pending", "Refunds not yet taken by the payment gateway (status pending).", [], async () => {
    const row = await db
      .selectFrom("refunds")
      .select((eb) => [eb.fn.countAll().as("n")])
      .where("status", "=", "pending")
      .executeTakeFirst();
    return [{ value: toCount(row?.n as number | string | undefined) }];
  });
  scrapeGauge(
    "shop_refunds_oldest_pending_seconds",
    "How long the oldest pending refund has waited, in seconds (0 when none waits): a refund stuck at the gateway shows here.",
    [],
    async () => {
      const oldest = await db
        .selectFrom("refunds")
        .select("createdAt")
        .where("status", "=", "pending")
        .orderBy("id")
        .limit(1)
        .executeTakeFirst();
      return [{ value: oldest ? Math.max(0, (Date.now() - Date.parse(oldest.createdAt)) / 1000) : 0 }];
    },
  );
  scrapeGauge(
    "shop_stock_holds",
    "Stock held for customers paying online (ADR 0023), live now: holds (one per product and payment order) and units.",
    ["kind"],
    async () => {
      const row = await db
        .selectFrom("stockReservations")
        .select((eb) => [eb.fn.countAll().as("holds"), eb.fn.sum<number | string | null>("quantity").as("units")])
        .where("expiresAt", ">", dbNowValue(db))
        .executeTakeFirst();
      return [
        { labels: { kind: "holds" }, value: toCount(row?.holds as number | string | undefined) },
        { labels: { kind: "units" }, value: toCount(row?.units) },
      ];
    },
  );
}
