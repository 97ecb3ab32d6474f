// A search request's parameters (docs/api.md, GET /api/search; docs/product.md, Search): the API
// refuses what it cannot answer with a 400 and a message per parameter; the results page reads
// what it can and says what it left out. Both then call the one model verb, searchItems.
import { db } from "~/lib/db.server";
import { withVariants } from "~/models/catalogue/variant-lists.server";
import type { ListQuery } from "~/lib/paging.server";
import { parseListQuery, PRODUCT_PAGE_SIZES } from "~/lib/paging.server";
import { AppError } from "~/lib/errors.server";
import type { SearchQuery } from "~/models/catalogue/search.server";
import { searchItems } from "~/models/catalogue/search.server";
import type { Client } from "~/lib/rate-limit.server";
import { addressOverLimit, clientOf, LIMITS, rateLimitAddress } from "~/lib/rate-limit.server";
import type { SearchWord, ParsedSearch } from "~/utils/search";
import type { Item } from "~/utils/catalogue";
import { searchParamsToObject, SORTS } from "~/utils/catalogue";
import { CategoryQuerySchema } from "~/utils/catalogue-schemas";
import { parseSearch, SEARCH_MAX_LENGTH, SEARCH_MAX_WORDS, SEARCH_MIN_PREFIX } from "~/utils/search";

export const SEARCH_MESSAGES = {
  missing: "Type what you are looking for (q)",
  repeated: "Send q only once",
  tooLong: `A search may be at most ${SEARCH_MAX_LENGTH} characters`,
  tooManyWords: `Search for at most ${SEARCH_MAX_WORDS} words`,
  tooShort: `Search for a word of at least ${SEARCH_MIN_PREFIX} letters or digits`,
} as const;

/** `?q=` of an API call as words, or a 400 naming what is wrong with it. */
function apiSearchText(params: URLSearchParams): ParsedSearch {
  const values = params.getAll("q");
  const fail = (message: string) => new AppError(400, message, { fieldErrors: { q: message } });
  if (values.length > 1) throw fail(SEARCH_MESSAGES.repeated);
  const parsed = parseSearch(values[0]);
  if (!parsed.text) throw fail(SEARCH_MESSAGES.missing);
  if (parsed.tooLong) throw fail(SEARCH_MESSAGES.tooLong);
  if (parsed.dropped > 0) throw fail(SEARCH_MESSAGES.tooManyWords);
  if (!parsed.searchable) throw fail(SEARCH_MESSAGES.tooShort);
  return parsed;
}

/** The API's sort and filters: the category page's, each value known, sort at most once (400 otherwise). */
function apiFilters(params: URLSearchParams): SearchQuery {
  const sorts = params.getAll("sort");
  if (sorts.length > 1 || (sorts.length === 1 && !(SORTS as readonly string[]).includes(sorts[0]!))) {
    const message = `sort must be one of ${SORTS.join(", ")}, sent once`;
    throw new AppError(400, message, { fieldErrors: { sort: message } });
  }
  const parsed = CategoryQuerySchema.safeParse(searchParamsToObject(params));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = String(issue.path[0] ?? "filters");
    const message = `${field} has a value the shop does not know`;
    throw new AppError(400, message, { fieldErrors: { [field]: message } });
  }
  return parsed.data;
}

/** A search that took longer than this counts against the client's address (LIMITS.slowSearch). */
export const SLOW_SEARCH = { ms: 100 };

export const TOO_MANY_SLOW_SEARCHES = "Too many searches. Please wait a minute and try again.";

/**
 * searchItems for one client: refused (429) while its address has spent its slow searches of the
 * minute; a search that costs more than SLOW_SEARCH.ms counts against it. The results page and the
 * API both go through here (the page with its option filters' counts, `withFacets`).
 */
export async function searchFor(
  client: Client,
  words: SearchWord[],
  query: SearchQuery,
  window: { offset: number; limit: number },
  withFacets = false,
) {
  if (await addressOverLimit(LIMITS.slowSearch, client))
    throw new AppError(429, TOO_MANY_SLOW_SEARCHES, { headers: { "Retry-After": "60" } });
  const started = performance.now();
  const list = await searchItems(words, query, window, undefined, withFacets);
  if (performance.now() - started > SLOW_SEARCH.ms) {
    // Served already: a count past the limit only holds the next ones.
    await rateLimitAddress(LIMITS.slowSearch, client).catch(() => undefined);
  }
  return list;
}

export interface ApiSearchAnswer {
  items: Item[];
  total: number;
  page: number;
  pageSize: number;
  /** more than SEARCH_MAX_RESULTS matched: `total` and the pages cover the most relevant of them */
  capped: boolean;
}

/** GET /api/search: the page of results a valid request asks for. */
export async function searchForApi(request: Request): Promise<ApiSearchAnswer> {
  const params = new URL(request.url).searchParams;
  const parsed = apiSearchText(params);
  const paging: ListQuery = parseListQuery(request, PRODUCT_PAGE_SIZES);
  const query = apiFilters(params);
  const list = await searchFor(clientOf(request), parsed.words, query, paging);
  return { items: await withVariants(db, list.rows), total: list.total, page: paging.page, pageSize: paging.pageSize, capped: list.capped };
}
