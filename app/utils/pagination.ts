// Admin lists: page size 10 (docs/product.md), pages counted from 1, state kept in the URL.
export const ADMIN_PAGE_SIZE = 10;

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

/** 'Showing X to Y of Z' (orders: 'Showing X to Y of Z orders'). */
export function showingText(info: Pick<PageInfo, "from" | "to" | "total">, noun?: string): string {
  return `Showing ${info.from} to ${info.to} of ${info.total}${noun ? ` ${noun}` : ""}`;
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
