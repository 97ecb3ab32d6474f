// The list contract, in one place (docs/decisions/0013): how a request becomes the window of rows a
// model reads, what a model answers for one page, and how a page of a list is rendered or answered.
//
// - A model's list verb is `list…Page(filters, window: RowWindow, db?)` and answers `ListPage<T>`
//   (the window's rows and the whole list's total).
// - A loader or API route reads `?page=` (and, for the API, `?pageSize=`) only through
//   `parseListQuery`, never by hand (tests/integration/list-contract.test.ts walks the routes).
// - A page (storefront, account or admin) renders `pageInfoOf(query, total)`: a page past the last
//   is a 404, like a page number that is not one. The API answers such a page empty, with its total.
import { jsonResponse } from "./api.server";
import { AppError, notFoundPage } from "./errors.server";
import type { PageInfo } from "~/utils/pagination";
import { PAGE_NOT_FOUND } from "~/utils/pagination";

export type { PageInfo } from "~/utils/pagination";

/** An API list's page sizes: the size when none is asked for, and the most a caller may ask for. */
export interface PageSizes {
  defaultSize: number;
  maxSize: number;
}

/** API lists of orders, accounts and everything else that is not products. */
export const LIST_PAGE_SIZES: PageSizes = { defaultSize: 50, maxSize: 200 };
/** API lists of products (category items, search, featured). */
export const PRODUCT_PAGE_SIZES: PageSizes = { defaultSize: 48, maxSize: 100 };
/** A product's reviews through the API. */
export const REVIEW_API_PAGE_SIZES: PageSizes = { defaultSize: 10, maxSize: 50 };

/** A page's fixed size: the URL chooses the page, never its size. */
export interface PageSize {
  pageSize: number;
}

/** Admin lists: 10 a page (docs/product.md). */
export const ADMIN_PAGE: PageSize = { pageSize: 10 };
/** Storefront lists of products (category, search, wishlist): 24 a page. */
export const STOREFRONT_PAGE: PageSize = { pageSize: 24 };
/** The customer's /orders page: 10 a page. */
export const ORDERS_PAGE: PageSize = { pageSize: 10 };

/** Which rows of a list a model reads: `limit` rows after the first `offset`, in the list's stable order. */
export interface RowWindow {
  offset: number;
  limit: number;
}

/** The page a request asks for (`page` from 1, `pageSize` rows), and the window that holds it. */
export interface ListQuery extends RowWindow {
  page: number;
  pageSize: number;
}

/** What a model answers for one page of a list: its rows, and how many rows the whole list has. */
export interface ListPage<T> {
  rows: T[];
  total: number;
}

/**
 * No table holds more rows than an integer id counts (2^31 - 1), so a window starting there is
 * past the end of every list: a huge page reads no rows, and the offset stays a safe integer for
 * both databases.
 */
const MAX_OFFSET = 2_147_483_647;

const notFound = () => notFoundPage(PAGE_NOT_FOUND);

/** One paging parameter: absent → `fallback`; present once, digits only, 1 to `max`; else a field message. */
function pagingValue(query: URLSearchParams, name: string, fallback: number, max: number, message: string): number | string {
  const values = query.getAll(name);
  if (values.length === 0) return fallback;
  if (values.length > 1) return `Send ${name} only once`;
  const text = values[0]!;
  if (!/^\d+$/.test(text)) return message;
  const value = Number(text);
  if (value < 1) return message;
  if (value > max) return max === Number.MAX_SAFE_INTEGER ? `${name} is too large` : message;
  return value;
}

/** Page `page` (from 1) of `pageSize` rows as a window, for a page number that is not in the URL's query (a sitemap file's). */
export const windowOf = (page: number, pageSize: number): ListQuery => ({
  page,
  pageSize,
  offset: Math.min((page - 1) * pageSize, MAX_OFFSET),
  limit: pageSize,
});

/**
 * The page a list request asks for, the one reading of `?page=` and `?pageSize=`:
 *
 * - API lists (`sizes` are `PageSizes`): `page` from 1 (default 1), `pageSize` from 1 to
 *   `maxSize` (default `defaultSize`); anything else, or either sent twice, is 400 with a message
 *   per parameter. A page past the end is not an error: it reads no rows.
 * - Pages (`sizes` is a fixed `PageSize`; `?pageSize=` is not read): `page` from 1 (default 1);
 *   a value that is not a page number (0, -1, abc, 2.5, ten digits or more, sent twice) is a 404,
 *   the answer for every page that does not exist (see pageInfoOf for one past the last).
 */
export function parseListQuery(source: Request | URL, sizes: PageSizes | PageSize): ListQuery {
  const query = (source instanceof URL ? source : new URL(source.url)).searchParams;
  if ("pageSize" in sizes) {
    const values = query.getAll("page");
    if (values.length === 0) return windowOf(1, sizes.pageSize);
    if (values.length > 1 || !/^\d{1,9}$/.test(values[0]!) || Number(values[0]) < 1) throw notFound();
    return windowOf(Number(values[0]), sizes.pageSize);
  }
  const page = pagingValue(query, "page", 1, Number.MAX_SAFE_INTEGER, "page must be a positive whole number");
  const pageSize = pagingValue(
    query,
    "pageSize",
    sizes.defaultSize,
    sizes.maxSize,
    `pageSize must be a whole number from 1 to ${sizes.maxSize}`,
  );
  const errors: Record<string, string> = {};
  if (typeof page === "string") errors.page = page;
  if (typeof pageSize === "string") errors.pageSize = pageSize;
  if (typeof page === "string" || typeof pageSize === "string") throw new AppError(400, Object.values(errors)[0]!, { fieldErrors: errors });
  return windowOf(page, pageSize);
}

/**
 * Where a page lies among the list's pages, for the pager and 'Showing X to Y of Z': the only
 * place that builds a PageInfo. A page past the last is a 404 (thrown), on every page that lists;
 * page 1 of an empty list is a page (it says the list is empty).
 */
export function pageInfoOf(query: Pick<ListQuery, "page" | "pageSize">, total: number): PageInfo {
  const pages = Math.max(1, Math.ceil(total / query.pageSize));
  if (query.page > pages) throw notFound();
  const offset = (query.page - 1) * query.pageSize;
  return { page: query.page, pages, total, offset, from: total === 0 ? 0 : offset + 1, to: Math.min(offset + query.pageSize, total) };
}

/** A model's page as a page renders it: the rows, and where they lie (404 past the last page). */
export function pageOf<T>(query: ListQuery, list: ListPage<T>): { rows: T[]; info: PageInfo } {
  return { rows: list.rows, info: pageInfoOf(query, list.total) };
}

/**
 * The headers of a list answered as a bare array: `X-Total-Count`, and `Link: <url>; rel="next"`
 * (this request's URL with the next page number) unless this page reaches the end.
 */
export function pageHeaders(request: Request, query: ListQuery, total: number): Headers {
  const headers = new Headers({ "X-Total-Count": String(total) });
  if (query.page * query.pageSize < total) {
    const next = new URL(request.url);
    next.searchParams.set("page", String(query.page + 1));
    headers.set("Link", `<${next.href}>; rel="next"`);
  }
  return headers;
}

/** A page of a list as the API's answer: the rows as a JSON array, with pageHeaders. */
export function pagedArray<T>(request: Request, query: ListQuery, page: ListPage<T>): Response {
  return jsonResponse(page.rows, { headers: pageHeaders(request, query, page.total) });
}
