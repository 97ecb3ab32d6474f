import { describe, expect, it } from "vitest";
import { ADMIN_PAGE, pageInfoOf, parseListQuery, STOREFRONT_PAGE } from "./paging.server";

const url = (search: string) => new URL(`http://localhost/list${search}`);
const statusOf = (fn: () => unknown): number | null => {
  try {
    fn();
    return null;
  } catch (thrown) {
    return thrown instanceof Response ? thrown.status : -1;
  }
};

describe("pageInfoOf (where a page lies; the pages' rule past the end)", () => {
  const at = (total: number, page: number, pageSize = ADMIN_PAGE.pageSize) => pageInfoOf({ page, pageSize }, total);

  it("no rows: page 1 is one empty page, 'from' and 'to' are 0", () => {
    expect(at(0, 1)).toEqual({ page: 1, pages: 1, total: 0, offset: 0, from: 0, to: 0 });
  });

  it("pages of 10 by default for the admin lists; a last page holds what is left", () => {
    expect(ADMIN_PAGE.pageSize).toBe(10);
    expect(at(10, 1)).toEqual({ page: 1, pages: 1, total: 10, offset: 0, from: 1, to: 10 });
    expect(at(11, 2)).toEqual({ page: 2, pages: 2, total: 11, offset: 10, from: 11, to: 11 });
    expect(at(25, 3)).toMatchObject({ page: 3, pages: 3, from: 21, to: 25, offset: 20 });
    expect(at(7, 2, 3)).toEqual({ page: 2, pages: 3, total: 7, offset: 3, from: 4, to: 6 });
    expect(at(100_000, 4167, 24)).toMatchObject({ from: 99_985, to: 100_000, pages: 4167 });
  });

  it("a page past the last is a 404, whatever the list", () => {
    expect(statusOf(() => at(0, 2))).toBe(404);
    expect(statusOf(() => at(10, 2))).toBe(404);
    expect(statusOf(() => at(25, 99))).toBe(404);
    expect(statusOf(() => at(25, 3))).toBeNull();
  });
});

describe("parseListQuery", () => {
  it("a page: none is page 1, digits from 1 are the page, the size is the page's own", () => {
    expect(parseListQuery(url(""), STOREFRONT_PAGE)).toEqual({ page: 1, pageSize: 24, offset: 0, limit: 24 });
    expect(parseListQuery(url("?page=3&pageSize=5"), STOREFRONT_PAGE)).toEqual({ page: 3, pageSize: 24, offset: 48, limit: 24 });
    expect(parseListQuery(url("?page=007"), ADMIN_PAGE)).toMatchObject({ page: 7, offset: 60 });
    expect(parseListQuery(url("?page=999999999"), ADMIN_PAGE).page).toBe(999_999_999);
  });

  it("a page: anything that is not a page number is a 404", () => {
    for (const bad of ["0", "-1", "abc", "2.5", "1e3", "", "%202", "%2B2", "1234567890"])
      expect(
        statusOf(() => parseListQuery(url(`?page=${bad}`), STOREFRONT_PAGE)),
        bad,
      ).toBe(404);
    expect(statusOf(() => parseListQuery(url("?page=1&page=2"), ADMIN_PAGE))).toBe(404);
  });

  it("the API: sizes from the URL within the list's limits; a bad value is a 400 (AppError), not a 404", () => {
    const sizes = { defaultSize: 48, maxSize: 100 };
    expect(parseListQuery(new Request("http://localhost/api?page=2&pageSize=10"), sizes)).toEqual({
      page: 2,
      pageSize: 10,
      offset: 10,
      limit: 10,
    });
    expect(parseListQuery(url(""), sizes)).toEqual({ page: 1, pageSize: 48, offset: 0, limit: 48 });
    expect(statusOf(() => parseListQuery(url("?pageSize=101"), sizes))).toBe(-1);
    expect(statusOf(() => parseListQuery(url("?page=0"), sizes))).toBe(-1);
    expect(parseListQuery(url("?page=999999999999"), sizes).offset).toBe(2_147_483_647);
  });
});
