// What only the admin's charts write (app/components/Charts.tsx, DashboardCharts.tsx): axis marks in
// the Indian short form and India's calendar days. Kept apart from money.ts and dates.ts, which the
// storefront's pages load: a chart's helpers in those modules would ship in the storefront's
// shared chunk (the bundler puts a module's used exports where the module is).
import { formatShortDate } from "./dates";
import { formatCount } from "./money";

const IST_OFFSET_MS = (5 * 60 + 30) * 60 * 1000;

/** A number in the Indian short form for a chart's axis: 950, 45K, 12.5L (lakh), 1.2Cr (crore). */
function compact(n: number): string {
  const abs = Math.abs(n);
  const [unit, size] = abs >= 1e7 ? ["Cr", 1e7] : abs >= 1e5 ? ["L", 1e5] : abs >= 1e3 ? ["K", 1e3] : ["", 1];
  if (size === 1) return formatCount(n);
  const scaled = Math.round((n / size) * 10) / 10;
  return `${Number.isInteger(scaled) ? scaled : scaled.toFixed(1)}${unit}`;
}

/** ₹45K, ₹12.5L, ₹1.2Cr: rupees on a chart's axis (formatPrice everywhere a figure is read). */
export function formatCompactPrice(rupees: number): string {
  const text = compact(rupees);
  return text.startsWith("-") ? `-₹${text.slice(1)}` : `₹${text}`;
}

/** 45K, 12.5L: a count on a chart's axis. */
export function formatCompactCount(count: number): string {
  return compact(count);
}

/** The calendar day in India at `at`, as YYYY-MM-DD. */
export function indianDay(at: Date | string): string {
  return new Date(new Date(at).getTime() + IST_OFFSET_MS).toISOString().slice(0, 10);
}

/** The day `days` after (or before, when negative) a YYYY-MM-DD day. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/** 22 Nov 2026, for a YYYY-MM-DD day of India's calendar. */
export function formatDay(day: string): string {
  return formatShortDate(new Date(`${day}T00:00:00+05:30`).toISOString());
}

/** 22 Nov, for a YYYY-MM-DD day (a chart's axis). */
export function formatDayMonth(day: string): string {
  return formatDay(day).replace(/ \d+$/, "");
}
