import { describe, expect, it } from "vitest";
import { pageNumbers, showingText } from "./pagination";

describe("showingText", () => {
  it("'Showing X to Y of Z', with the orders list's noun", () => {
    expect(showingText({ from: 11, to: 20, total: 25 })).toBe("Showing 11 to 20 of 25");
    expect(showingText({ from: 0, to: 0, total: 0 })).toBe("Showing 0 to 0 of 0");
    expect(showingText({ from: 21, to: 25, total: 25 }, "orders")).toBe("Showing 21 to 25 of 25 orders");
    expect(showingText({ from: 1, to: 10, total: 10 }, "")).toBe("Showing 1 to 10 of 10");
  });
});

describe("pageNumbers", () => {
  it("every page up to 7", () => {
    expect(pageNumbers(1, 1)).toEqual([1]);
    expect(pageNumbers(2, 3)).toEqual([1, 2, 3]);
    expect(pageNumbers(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("more than 7: first, last and the neighbours of the current page, null for a gap", () => {
    expect(pageNumbers(1, 10)).toEqual([1, 2, null, 10]);
    expect(pageNumbers(2, 10)).toEqual([1, 2, 3, null, 10]);
    expect(pageNumbers(3, 10)).toEqual([1, 2, 3, 4, null, 10]);
    expect(pageNumbers(5, 10)).toEqual([1, null, 4, 5, 6, null, 10]);
    expect(pageNumbers(8, 10)).toEqual([1, null, 7, 8, 9, 10]);
    expect(pageNumbers(9, 10)).toEqual([1, null, 8, 9, 10]);
    expect(pageNumbers(10, 10)).toEqual([1, null, 9, 10]);
  });

  it("never a page outside 1..pages, never two gaps side by side, always ascending", () => {
    for (let pages = 1; pages <= 30; pages++) {
      for (let page = 1; page <= pages; page++) {
        const out = pageNumbers(page, pages);
        const numbers = out.filter((p): p is number => p !== null);
        expect(numbers).toContain(page);
        expect(numbers[0]).toBe(1);
        expect(numbers.at(-1)).toBe(pages);
        for (let i = 1; i < numbers.length; i++) expect(numbers[i]!).toBeGreaterThan(numbers[i - 1]!);
        for (let i = 1; i < out.length; i++) expect(out[i] === null && out[i - 1] === null).toBe(false);
        expect(out[0]).not.toBeNull();
        expect(out.at(-1)).not.toBeNull();
      }
    }
  });
});

describe("showingText for large lists", () => {
  it("groups the numbers the Indian way", () => {
    expect(showingText({ from: 99_985, to: 100_000, total: 100_000 }, "products")).toBe("Showing 99,985 to 1,00,000 of 1,00,000 products");
    expect(showingText({ from: 25, to: 48, total: 20_000 })).toBe("Showing 25 to 48 of 20,000");
  });
});
