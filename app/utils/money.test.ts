import { describe, expect, it } from "vitest";
import { formatPrice } from "./money";

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
