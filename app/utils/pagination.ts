// Admin lists: page size 10 (docs/product.md), pages counted from 1, state kept in the URL.
// Storefront product lists (category pages): 24 a page, `?page=N` (docs/decisions/0013).
import { formatCount } from "./money";

export const ADMIN_PAGE_SIZE = 10;
export const STOREFRONT_PAGE_SIZE = 24;

export interface PageInfo {
  page: number;
  pages: number;
  total: number;
  /** 1-based position of the first row shown; 0 when there are none */
  from: number;
  to: number;
  offset: number;
}

/** The page asked for, held inside 1..pages (a page past the end shows the last one). */
export function pageInfo(total: number, requested: number, size = ADMIN_PAGE_SIZE): PageInfo {
  const pages = Math.max(1, Math.ceil(total / size));
  const page = Math.min(Math.max(1, Math.floor(requested) || 1), pages);
  const offset = (page - 1) * size;
  return { page, pages, total, offset, from: total === 0 ? 0 : offset + 1, to: Math.min(offset + size, total) };
}

/**
 * A storefront page number from the URL's `page` values: none → 1; one value of digits only, 1
 * or more → that number; anything else (0, -1, abc, 2.5, ten digits or more, sent twice) → null, which the page
 * answers with its 404, like a page past the last.
 */
export function storefrontPage(values: string[]): number | null {
  if (values.length === 0) return 1;
  if (values.length > 1 || !/^\d{1,9}$/.test(values[0]!)) return null;
  const page = Number(values[0]);
  return page >= 1 ? page : null;
}

const count = formatCount;

/** 'Showing X to Y of Z' (orders: 'Showing X to Y of Z orders'), numbers grouped the Indian way (1,00,000). */
export function showingText(info: Pick<PageInfo, "from" | "to" | "total">, noun?: string): string {
  return `Showing ${count(info.from)} to ${count(info.to)} of ${count(info.total)}${noun ? ` ${noun}` : ""}`;
}

/**
 * Which page numbers to print: all of them up to 7, else the first, the last and the two
 * around the current one, with null for a gap.
 */
export function pageNumbers(page: number, pages: number): (number | null)[] {
  if (pages <= 7) return Array.from({ length: pages }, (_, i) => i + 1);
  const wanted = new Set([1, pages, page - 1, page, page + 1].filter((p) => p >= 1 && p <= pages));
  const sorted = [...wanted].sort((a, b) => a - b);
  const out: (number | null)[] = [];
  sorted.forEach((p, i) => {
    if (i > 0 && p - sorted[i - 1]! > 1) out.push(null);
    out.push(p);
  });
  return out;
}
