// Deletes what has expired: sessions, abandoned guest carts, spent rate-limit windows,
// old one-time codes (and the sign-up attempts they hold) and API tokens.
// Runs at boot and then hourly in the server process.
import type { Db } from "./db.server";
import { nowIso } from "./db.server";
import { errorMessage } from "./log.server";
import { SESSION_IDLE_MS } from "./session.server";

export async function purgeExpired(db: Db, now = new Date()) {
  const idleCutoff = nowIso(new Date(now.getTime() - SESSION_IDLE_MS));
  const nowText = nowIso(now);
  const sessions = await db
    .deleteFrom("sessions")
    .where((eb) => eb.or([eb("expiresAt", "<", nowText), eb("lastSeenAt", "<", idleCutoff)]))
    .executeTakeFirst();
  const carts = await db.deleteFrom("carts").where("userId", "is", null).where("updatedAt", "<", idleCutoff).executeTakeFirst();
  await db.deleteFrom("wishlists").where("userId", "is", null).where("updatedAt", "<", idleCutoff).execute();
  // Spent one-time codes and API tokens, kept a day for the record.
  const dayAgo = nowIso(new Date(now.getTime() - 24 * 60 * 60 * 1000));
  await db.deleteFrom("oneTimeCodes").where("expiresAt", "<", dayAgo).execute();
  await db
    .deleteFrom("apiTokens")
    .where((eb) => eb.or([eb("expiresAt", "<", dayAgo), eb("revokedAt", "<", dayAgo)]))
    .execute();
  const limits = await db.deleteFrom("rateLimits").where("resetAt", "<", nowText).executeTakeFirst();
  return {
    sessions: Number(sessions.numDeletedRows),
    carts: Number(carts.numDeletedRows),
    rateLimits: Number(limits.numDeletedRows),
  };
}

export function scheduleHousekeeping(db: Db, everyMs = 60 * 60 * 1000) {
  const run = () => purgeExpired(db).catch((error) => console.error("housekeeping failed:", errorMessage(error)));
  const timer = setInterval(run, everyMs);
  timer.unref();
  return run();
}
