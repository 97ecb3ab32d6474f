// Dates as the shop shows them: en-IN, in India's time zone (the server may run in UTC).
//
// Written out by hand rather than with Intl.DateTimeFormat, as money is (app/utils/money.ts, ADR
// 0028): a browser's first Intl formatter with a time zone loads locale and zone data on
// the page's main thread. India has kept one offset, UTC+05:30, with no daylight saving since 1945;
// the month names are en-IN's ("Sept"), and tests compare the output with Intl's.

const IST_OFFSET_MS = (5 * 60 + 30) * 60 * 1000;
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const SHORT_MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sept", "Oct", "Nov", "Dec"];

/** The wall clock in India at `iso`, read through a Date's UTC fields. */
function indiaTime(iso: string): Date {
  const time = new Date(iso).getTime();
  if (Number.isNaN(time)) throw new RangeError(`Invalid time value: ${iso}`);
  return new Date(time + IST_OFFSET_MS);
}

/** "22 Nov 2026" from India's wall clock, with `months`' names. */
function dayMonthYear(d: Date, months: readonly string[]): string {
  return `${d.getUTCDate()} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** 22 November 2026 */
export function formatLongDate(iso: string): string {
  return dayMonthYear(indiaTime(iso), MONTHS);
}

/** 22 Nov 2026 */
export function formatShortDate(iso: string): string {
  return dayMonthYear(indiaTime(iso), SHORT_MONTHS);
}

/** 22 Nov 2026, 4:30 pm */
export function formatDateTime(iso: string): string {
  const d = indiaTime(iso);
  const hours = d.getUTCHours();
  const minutes = String(d.getUTCMinutes()).padStart(2, "0");
  return `${dayMonthYear(d, SHORT_MONTHS)}, ${hours % 12 || 12}:${minutes} ${hours < 12 ? "am" : "pm"}`;
}
