// Dates as the shop shows them: en-IN, in India's time zone (the server may run in UTC).
const long = new Intl.DateTimeFormat("en-IN", { year: "numeric", month: "long", day: "numeric", timeZone: "Asia/Kolkata" });
const short = new Intl.DateTimeFormat("en-IN", { year: "numeric", month: "short", day: "numeric", timeZone: "Asia/Kolkata" });
const withTime = new Intl.DateTimeFormat("en-IN", {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "numeric",
  minute: "2-digit",
  timeZone: "Asia/Kolkata",
});

/** 22 November 2026 */
export function formatLongDate(iso: string): string {
  return long.format(new Date(iso));
}

/** 22 Nov 2026 */
export function formatShortDate(iso: string): string {
  return short.format(new Date(iso));
}

/** 22 Nov 2026, 4:30 pm */
export function formatDateTime(iso: string): string {
  return withTime.format(new Date(iso));
}
