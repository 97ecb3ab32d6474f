// The dashboard's period (/admin?range=30|90): the charts show the last 30 or 90 days of India's
// calendar, today included. Shared by the loader (which parses it) and the page (its links).
import { z } from "zod";

export const DASHBOARD_RANGES = [30, 90] as const;
export type DashboardRange = (typeof DASHBOARD_RANGES)[number];
export const DEFAULT_RANGE: DashboardRange = 30;

/** `?range=` as the page links it; anything else (missing, `abc`, `7`) is the default, 30 days. */
export const DashboardQuerySchema = z.object({
  range: z
    .enum(["30", "90"])
    .transform((v) => Number(v) as DashboardRange)
    .catch(DEFAULT_RANGE),
});

export function parseDashboardQuery(url: URL): { range: DashboardRange } {
  return DashboardQuerySchema.parse({ range: url.searchParams.get("range") ?? undefined });
}

/** Pieces with this many units or fewer (and not made to order) count as low in stock. */
export const LOW_STOCK = 5;
