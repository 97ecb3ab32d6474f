// What the pager shows, shared with the browser: where a page lies among a list's pages, and the
// pager's texts. Only the server builds a PageInfo (app/lib/paging.server.ts, docs/decisions/0013).
import { formatCount } from "./money";

/** Where a page lies among a list's pages (built by pageInfoOf in app/lib/paging.server.ts). */
export interface PageInfo {
  page: number;
  pages: number;
  total: number;
  /** 1-based position of the first row shown; 0 when there are none */
  from: number;
  to: number;
  offset: number;
}

/** The body of the 404 for a page of a list that does not exist (past the last, or not a page number). */
export const PAGE_NOT_FOUND = "Page Not Found";

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
