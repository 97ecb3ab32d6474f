import { apiHandler, jsonResponse } from "./api.server";
import { AppError } from "./errors.server";
import { assertSameOrigin } from "./http.server";
import { SlugSchema } from "~/utils/schemas";

/** `?slug=` of a catalogue API call, validated before it reaches a query. */
export function slugParam(request: Request): string {
  const result = SlugSchema.safeParse(new URL(request.url).searchParams.get("slug") ?? "");
  if (!result.success)
    throw new AppError(400, result.error.issues[0]?.message ?? "A slug is required", {
      fieldErrors: {
        slug: result.error.issues[0]?.message ?? "A slug is required",
      },
    });
  return result.data;
}

/** The first line of every API action: cross-site check (403), then the method (405). */
export function requireMutation(request: Request, methods: string[]) {
  assertSameOrigin(request);
  if (!methods.includes(request.method.toUpperCase())) {
    throw new AppError(405, `Method not allowed. Use ${methods.join(" or ")}.`, { headers: { Allow: methods.join(", ") } });
  }
}

/**
 * The handler for the methods an API path does not serve (export it as `loader` or `action`):
 * a state-changing request from another site still gets 403 first, anything else 405.
 */
export function otherMethods(allowed: string[]) {
  return ({ request }: { request: Request }) =>
    apiHandler(async () => {
      requireMutation(request, allowed);
      throw new AppError(405, `Method not allowed. Use ${allowed.join(" or ")}.`, { headers: { Allow: allowed.join(", ") } });
    });
}

// ---- paged lists (docs/api.md, "Lists") ---------------------------------------------------

/** A list's page sizes: the size when none is asked for, and the most a caller may ask for. */
export interface PageSizes {
  defaultSize: number;
  maxSize: number;
}

/** Orders, accounts and every other list that is not of products. */
export const LIST_PAGE_SIZES: PageSizes = { defaultSize: 50, maxSize: 200 };
/** Lists of products (category items, search). */
export const PRODUCT_PAGE_SIZES: PageSizes = { defaultSize: 48, maxSize: 100 };

/** Which rows of a list a model reads: `limit` rows after the first `offset`, in the list's stable order. */
export interface RowWindow {
  offset: number;
  limit: number;
}

/** The page a request asks for (`page` from 1, `pageSize` rows), and the rows that make it. */
export interface PageParams extends RowWindow {
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
 * past the end of every list: a huge page answers an empty page, and the offset stays a safe
 * integer for both databases.
 */
const MAX_OFFSET = 2_147_483_647;

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

/**
 * `?page=&pageSize=` of a list call: `page` from 1 (default 1), `pageSize` from 1 to
 * `sizes.maxSize` (default `sizes.defaultSize`). Anything else, or either sent twice, is 400 with
 * a message per parameter. A page past the end is not an error: it reads no rows.
 */
export function pageParams(request: Request, sizes: PageSizes = LIST_PAGE_SIZES): PageParams {
  const query = new URL(request.url).searchParams;
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
  return { page, pageSize, offset: Math.min((page - 1) * pageSize, MAX_OFFSET), limit: pageSize };
}

/**
 * The headers of a list answered as a bare array: `X-Total-Count`, and `Link: <url>; rel="next"`
 * (this request's URL with the next page number) unless this page reaches the end.
 */
export function pageHeaders(request: Request, params: PageParams, total: number): Headers {
  const headers = new Headers({ "X-Total-Count": String(total) });
  if (params.page * params.pageSize < total) {
    const next = new URL(request.url);
    next.searchParams.set("page", String(params.page + 1));
    headers.set("Link", `<${next.href}>; rel="next"`);
  }
  return headers;
}

/** A page of a list as the answer: the rows as a JSON array, with pageHeaders. */
export function pagedArray<T>(request: Request, params: PageParams, page: ListPage<T>): Response {
  return jsonResponse(page.rows, { headers: pageHeaders(request, params, page.total) });
}
