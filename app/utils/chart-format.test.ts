import { describe, expect, it } from "vitest";
import { addDays, formatCompactCount, formatCompactPrice, formatDay, formatDayMonth, indianDay } from "./chart-format";

describe("chart-format", () => {
  it("axis marks in the Indian short form", () => {
    expect(formatCompactPrice(0)).toBe("₹0");
    expect(formatCompactPrice(950)).toBe("₹950");
    expect(formatCompactPrice(45_000)).toBe("₹45K");
    expect(formatCompactPrice(1_25_000)).toBe("₹1.3L");
    expect(formatCompactPrice(12_50_000)).toBe("₹12.5L");
    expect(formatCompactPrice(2_00_00_000)).toBe("₹2Cr");
    expect(formatCompactCount(2_500)).toBe("2.5K");
    expect(formatCompactCount(7)).toBe("7");
  });

  it("India's calendar day: 23:59 and 00:01 in India are two days, whatever the UTC day", () => {
    expect(indianDay("2026-11-28T18:29:00.000Z")).toBe("2026-11-28");
    expect(indianDay("2026-11-28T18:31:00.000Z")).toBe("2026-11-29");
    expect(indianDay(new Date("2026-12-31T18:30:00.000Z"))).toBe("2027-01-01");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(addDays("2026-12-31", 1)).toBe("2027-01-01");
    expect(formatDay("2026-09-05")).toBe("5 Sept 2026");
    expect(formatDayMonth("2026-11-29")).toBe("29 Nov");
  });
});
