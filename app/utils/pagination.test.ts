import { describe, expect, it } from "vitest";
import { ADMIN_PAGE_SIZE, pageInfo, pageNumbers, showingText, storefrontPage } from "./pagination";

describe("pageInfo", () => {
  it("pages of 10 (docs/product.md)", () => {
    expect(ADMIN_PAGE_SIZE).toBe(10);
  });

  it("no rows: one empty page, 'from' and 'to' are 0", () => {
    expect(pageInfo(0, 1)).toEqual({ page: 1, pages: 1, total: 0, offset: 0, from: 0, to: 0 });
    expect(pageInfo(0, 5)).toEqual({ page: 1, pages: 1, total: 0, offset: 0, from: 0, to: 0 });
  });

  it("10 rows fill exactly one page", () => {
    expect(pageInfo(10, 1)).toEqual({ page: 1, pages: 1, total: 10, offset: 0, from: 1, to: 10 });
    expect(pageInfo(10, 2)).toEqual({ page: 1, pages: 1, total: 10, offset: 0, from: 1, to: 10 });
  });

  it("11 rows: a second page holding the one left over", () => {
    expect(pageInfo(11, 1)).toEqual({ page: 1, pages: 2, total: 11, offset: 0, from: 1, to: 10 });
    expect(pageInfo(11, 2)).toEqual({ page: 2, pages: 2, total: 11, offset: 10, from: 11, to: 11 });
  });

  it("25 rows: three pages, the last one short", () => {
    expect(pageInfo(25, 1)).toMatchObject({ page: 1, pages: 3, from: 1, to: 10, offset: 0 });
    expect(pageInfo(25, 2)).toMatchObject({ page: 2, pages: 3, from: 11, to: 20, offset: 10 });
    expect(pageInfo(25, 3)).toMatchObject({ page: 3, pages: 3, from: 21, to: 25, offset: 20 });
  });

  it("a page past the end shows the last; below 1, fractional or not a number shows a valid one", () => {
    expect(pageInfo(25, 99)).toMatchObject({ page: 3, from: 21, to: 25 });
    expect(pageInfo(25, 0)).toMatchObject({ page: 1, from: 1, to: 10 });
    expect(pageInfo(25, -4)).toMatchObject({ page: 1 });
    expect(pageInfo(25, Number.NaN)).toMatchObject({ page: 1 });
    expect(pageInfo(25, 2.9)).toMatchObject({ page: 2 });
    expect(pageInfo(25, Number.POSITIVE_INFINITY)).toMatchObject({ page: 3 });
  });

  it("another page size", () => {
    expect(pageInfo(7, 2, 3)).toEqual({ page: 2, pages: 3, total: 7, offset: 3, from: 4, to: 6 });
    expect(pageInfo(7, 3, 3)).toMatchObject({ from: 7, to: 7 });
  });
});

describe("showingText", () => {
  it("'Showing X to Y of Z', with the orders list's noun", () => {
    expect(showingText(pageInfo(25, 2))).toBe("Showing 11 to 20 of 25");
    expect(showingText(pageInfo(11, 2))).toBe("Showing 11 to 11 of 11");
    expect(showingText(pageInfo(0, 1))).toBe("Showing 0 to 0 of 0");
    expect(showingText(pageInfo(25, 3), "orders")).toBe("Showing 21 to 25 of 25 orders");
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

describe("storefrontPage", () => {
  it("reads ?page=N: none is 1, digits from 1 are the page, anything else is null (a 404)", () => {
    expect(storefrontPage([])).toBe(1);
    expect(storefrontPage(["1"])).toBe(1);
    expect(storefrontPage(["42"])).toBe(42);
    expect(storefrontPage(["007"])).toBe(7);
    expect(storefrontPage(["999999999"])).toBe(999_999_999);
    for (const bad of ["0", "-1", "abc", "2.5", "1e3", "", " 2", "+2", "1234567890"]) expect(storefrontPage([bad]), bad).toBeNull();
    expect(storefrontPage(["1", "2"])).toBeNull();
  });
});

describe("showingText for large lists", () => {
  it("groups the numbers the Indian way", () => {
    expect(showingText(pageInfo(100_000, 4167, 24), "products")).toBe("Showing 99,985 to 1,00,000 of 1,00,000 products");
    expect(showingText(pageInfo(20_000, 2, 24))).toBe("Showing 25 to 48 of 20,000");
  });
});
