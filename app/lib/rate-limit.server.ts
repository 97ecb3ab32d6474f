// Fixed-window rate limits kept in the database, so they hold across processes and restarts.
import { sql } from "kysely";
import { db, nowIso } from "./db.server";
import { AppError } from "./errors.server";

export interface Limit {
  /** what is limited, e.g. "newsletter" */
  name: string;
  max: number;
  windowMs: number;
}

export const LIMITS = {
  newsletter: { name: "newsletter", max: 5, windowMs: 60 * 60 * 1000 },
  contact: { name: "contact", max: 5, windowMs: 60 * 60 * 1000 },
} satisfies Record<string, Limit>;

/** The client's address as remix-serve sees it (X-Forwarded-For first hop when present). */
export function clientIp(request: Request): string {
  const forwarded = request.headers.get("X-Forwarded-For")?.split(",")[0]?.trim();
  return forwarded || request.headers.get("X-Real-IP") || "local";
}

/** Count one hit; throws 429 once `max` hits happened inside the window. */
export async function rateLimit(limit: Limit, subject: string): Promise<void> {
  const key = `${limit.name}:${subject}`.slice(0, 300);
  const now = new Date();
  const resetAt = nowIso(new Date(now.getTime() + limit.windowMs));
  const row = await db
    .insertInto("rateLimits")
    .values({ key, count: 1, resetAt })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet({
        count: sql`case when rate_limits.reset_at < ${nowIso(now)} then 1 else rate_limits.count + 1 end`,
        resetAt: sql`case when rate_limits.reset_at < ${nowIso(now)} then ${resetAt} else rate_limits.reset_at end`,
      }),
    )
    .returning(["count", "resetAt"])
    .executeTakeFirstOrThrow();
  if (row.count > limit.max) {
    const retryAfter = Math.max(1, Math.ceil((Date.parse(row.resetAt) - now.getTime()) / 1000));
    throw new AppError(429, "Too many attempts. Please wait a while and try again.", undefined, {
      "Retry-After": String(retryAfter),
    });
  }
}
