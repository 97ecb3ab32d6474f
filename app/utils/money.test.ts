import { describe, expect, it } from "vitest";
import { formatCount, formatPrice } from "./money";

describe("formatPrice", () => {
  it.each([
    [48999, "₹48,999"],
    [123456, "₹1,23,456"],
    [0, "₹0"],
    [9999, "₹9,999"],
    [25000, "₹25,000"],
    [1000, "₹1,000"],
    [999, "₹999"],
    [10000000, "₹1,00,00,000"],
  ])("formats %d as %s (en-IN grouping, rupee sign)", (rupees, expected) => {
    expect(formatPrice(rupees)).toBe(expected);
  });

  it.each([
    [48999.4, "₹48,999"],
    [48999.5, "₹49,000"],
    [9999.49, "₹9,999"],
    [0.4, "₹0"],
    [0.5, "₹1"],
    [123455.6, "₹1,23,456"],
  ])("rounds %d to whole rupees: %s", (rupees, expected) => {
    expect(formatPrice(rupees)).toBe(expected);
  });

  it("never shows decimals", () => {
    for (const value of [1.01, 2.5, 3.999, 1234.56, 99999.99, 0.01]) {
      const text = formatPrice(value);
      expect(text).not.toMatch(/\./);
      expect(text).toMatch(/^₹[\d,]+$/);
    }
  });
});

// The formatters are written by hand (ADR 0028): they must say what Intl's en-IN says.
describe("the same as Intl's en-IN", () => {
  const intlPrice = new Intl.NumberFormat("en-IN", {
    style: "currency",
    currency: "INR",
    minimumFractionDigits: 0,
    maximumFractionDigits: 0,
  });
  const samples = [
    0, 1, 9, 10, 99, 100, 999, 1000, 9999, 10000, 99999, 100000, 999999, 1000000, 12345678, 123456789, 1234567890, 98765432109,
    9007199254740991, 1e21, 2.5, 3.5, 99999.5, 1234.49, -1, -1234, -123456.5, -98765432,
  ];
  // and a few thousand more, of every length
  for (let digits = 1; digits <= 15; digits++) {
    for (let i = 0; i < 200; i++) samples.push(Math.floor(Math.random() * 10 ** digits) + Math.random());
  }

  it("formatPrice", () => {
    for (const n of samples) expect(formatPrice(n), String(n)).toBe(intlPrice.format(n));
  });

  it("formatCount on whole numbers", () => {
    for (const n of samples.map(Math.trunc)) expect(formatCount(n), String(n)).toBe(n.toLocaleString("en-IN"));
  });

  it("shows no minus before a price or count that rounds to nothing (Intl writes -₹0)", () => {
    expect(formatPrice(-0.4)).toBe("₹0");
    expect(formatPrice(-0)).toBe("₹0");
    expect(formatCount(-0)).toBe("0");
  });

  it("writes what is not a number as JavaScript does, never throwing", () => {
    expect(formatPrice(Number.NaN)).toBe("₹NaN");
    expect(formatPrice(Number.POSITIVE_INFINITY)).toBe("₹Infinity");
    expect(formatCount(Number.NaN)).toBe("NaN");
  });
});
