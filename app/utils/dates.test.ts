import { describe, expect, it } from "vitest";
import { formatDateTime, formatLongDate, formatShortDate } from "./dates";

describe("dates in India's time zone, en-IN", () => {
  it.each([
    ["2026-11-22T11:00:00.000Z", "22 November 2026", "22 Nov 2026", "22 Nov 2026, 4:30 pm"],
    // 18:30 UTC is already the next day in India
    ["2025-12-31T18:30:00.000Z", "1 January 2026", "1 Jan 2026", "1 Jan 2026, 12:00 am"],
    ["2026-09-05T06:35:00Z", "5 September 2026", "5 Sept 2026", "5 Sept 2026, 12:05 pm"],
    ["2024-02-29T00:00:00Z", "29 February 2024", "29 Feb 2024", "29 Feb 2024, 5:30 am"],
  ])("%s", (iso, long, short, withTime) => {
    expect(formatLongDate(iso)).toBe(long);
    expect(formatShortDate(iso)).toBe(short);
    expect(formatDateTime(iso)).toBe(withTime);
  });

  // Written by hand (ADR 0028): they must say what Intl's en-IN says in Asia/Kolkata.
  it("says what Intl says, every few hours over five years", () => {
    const zone = { timeZone: "Asia/Kolkata" } as const;
    const long = new Intl.DateTimeFormat("en-IN", { year: "numeric", month: "long", day: "numeric", ...zone });
    const short = new Intl.DateTimeFormat("en-IN", { year: "numeric", month: "short", day: "numeric", ...zone });
    const withTime = new Intl.DateTimeFormat("en-IN", {
      year: "numeric",
      month: "short",
      day: "numeric",
      hour: "numeric",
      minute: "2-digit",
      ...zone,
    });
    const start = Date.UTC(2023, 0, 1);
    for (let t = start; t < start + 5 * 366 * 86_400_000; t += 3 * 3_600_000 + 7 * 60_000) {
      const date = new Date(t);
      const iso = date.toISOString();
      expect(formatLongDate(iso), iso).toBe(long.format(date));
      expect(formatShortDate(iso), iso).toBe(short.format(date));
      expect(formatDateTime(iso), iso).toBe(withTime.format(date));
    }
  });

  it("refuses what is not a date, as Intl does", () => {
    expect(() => formatLongDate("not a date")).toThrow(RangeError);
  });
});
