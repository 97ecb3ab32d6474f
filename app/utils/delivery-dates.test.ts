import { describe, expect, it } from "vitest";
import {
  addBusinessDays,
  dateAtNoonInIndia,
  deliveryWindow,
  FIXED_HOLIDAYS,
  GAZETTED_HOLIDAYS,
  holidayOn,
  isBusinessDay,
  todayInIndia,
} from "./delivery-dates";
import { formatLongDate } from "./dates";

describe("business days: Monday to Saturday, without gazetted holidays", () => {
  it("Sunday is not one, Saturday is", () => {
    expect(isBusinessDay("2026-11-29")).toBe(false); // Sunday
    expect(isBusinessDay("2026-11-28")).toBe(true); // Saturday
    expect(isBusinessDay("2026-11-30")).toBe(true); // Monday
  });

  it("a weekend: Thursday + 3 skips Sunday", () => {
    expect(addBusinessDays("2026-11-26", 1)).toBe("2026-11-27");
    expect(addBusinessDays("2026-11-26", 2)).toBe("2026-11-28");
    expect(addBusinessDays("2026-11-26", 3)).toBe("2026-11-30");
  });

  it("from a Sunday, Monday is the first", () => {
    expect(addBusinessDays("2026-11-29", 1)).toBe("2026-11-30");
    expect(addBusinessDays("2026-11-29", 0)).toBe("2026-11-29");
  });

  it.each([
    ["2026-11-23", "2026-11-25", "Guru Nanak's Birthday, a Tuesday"],
    ["2026-10-19", "2026-10-21", "Dussehra, a Tuesday"],
    ["2026-12-24", "2026-12-26", "Christmas, a Friday"],
    ["2027-01-25", "2027-01-27", "Republic Day 2027, a Tuesday (fixed every year)"],
    ["2027-03-25", "2027-03-27", "Good Friday 2027"],
  ])("a holiday on a weekday is skipped: %s + 1 = %s (%s)", (from, to) => {
    expect(addBusinessDays(from, 1)).toBe(to);
  });

  it("a holiday on a Saturday and the Sunday after: Friday 14 August 2026 + 1 is Monday the 17th", () => {
    expect(holidayOn("2026-08-15")).toBe("Independence Day");
    expect(addBusinessDays("2026-08-14", 1)).toBe("2026-08-17");
  });

  it("across the year's end and a month of 31 days", () => {
    expect(addBusinessDays("2026-12-30", 3)).toBe("2027-01-02");
    expect(addBusinessDays("2026-12-31", 2)).toBe("2027-01-02");
  });

  it("2026's list is DoPT's 17 gazetted holidays: 4 fixed ones and 13 more", () => {
    const in2026 = Object.keys(FIXED_HOLIDAYS).length + Object.keys(GAZETTED_HOLIDAYS["2026"]!).length;
    expect(in2026).toBe(17);
    expect(holidayOn("2026-11-08")).toBe("Diwali");
    expect(holidayOn("2026-03-04")).toBe("Holi");
    expect(holidayOn("2026-03-05")).toBeNull();
    for (const date of Object.keys(GAZETTED_HOLIDAYS["2026"]!)) expect(date.startsWith("2026-")).toBe(true);
  });
});

describe("today is India's date, whatever the server's zone", () => {
  it("23:59 IST is still that day; 00:01 IST is the next", () => {
    expect(todayInIndia(new Date("2026-11-26T18:29:00Z"))).toBe("2026-11-26");
    expect(todayInIndia(new Date("2026-11-26T18:31:00Z"))).toBe("2026-11-27");
  });

  it("a Thursday at 23:59 IST and the Friday at 00:01 IST give different windows (5-7 days)", () => {
    const days = { min: 5, max: 7 };
    expect(deliveryWindow(new Date("2026-11-26T18:29:00Z"), days)).toEqual({ earliest: "2026-12-02", latest: "2026-12-04" });
    expect(deliveryWindow(new Date("2026-11-26T18:31:00Z"), days)).toEqual({ earliest: "2026-12-03", latest: "2026-12-05" });
  });

  it("01:30 IST on a Sunday is Sunday in India although it is Saturday in UTC", () => {
    const now = new Date("2026-11-28T20:00:00Z");
    expect(now.getUTCDay()).toBe(6);
    expect(todayInIndia(now)).toBe("2026-11-29");
    expect(deliveryWindow(now, { min: 1, max: 1 })).toEqual({ earliest: "2026-11-30", latest: "2026-11-30" });
  });

  it("a promised date is noon in India, shown as that day", () => {
    expect(dateAtNoonInIndia("2026-12-04")).toBe("2026-12-04T06:30:00.000Z");
    expect(formatLongDate(dateAtNoonInIndia("2026-12-04"))).toBe("4 December 2026");
  });
});
