// The shopper's search text as the words both databases' full-text engines match
// (docs/decisions/0014). Pure: the server builds its queries from it, the header's suggestions use
// its limits. Rules (docs/product.md, Search): case does not matter; a word is a run of letters and
// digits, anything else separates words, so quotes, operators (AND OR NOT NEAR * ^ - : ( )) and
// symbols are never more than spaces; every word must match; a word of three characters or more
// matches any word it begins ('shee' finds 'sheesham'), a word of two only when it is the last one
// (the shopper may still be typing it), a single character only the same word.

/** The most characters of a search the shop reads: the API refuses more, the page reads this many. */
export const SEARCH_MAX_LENGTH = 200;
/** The most words searched; later ones are not (the API refuses more). */
export const SEARCH_MAX_WORDS = 8;
/** The most characters of one word (a longer one is matched by its first 40, as a prefix). */
export const SEARCH_WORD_MAX_LENGTH = 40;
/** A search needs a word this long; the last word matches as a prefix from this length. */
export const SEARCH_MIN_PREFIX = 2;
/**
 * Words this long or longer match as prefixes wherever they are; shorter ones (two characters) only
 * as the last word. Two-letter prefixes are each other's worst case: 'fo in fr by ou te ma an' are
 * eight prefixes that each begin words of most products (ADR 0014: PostgreSQL's GIN index reads every
 * such word's matches for each), while a two-letter word before the last is rarely a word's start.
 */
export const SEARCH_MIN_INNER_PREFIX = 3;
/**
 * The most matches one search considers (ADR 0014): past it, the filters, sort, count and pages
 * of a search cover its most relevant SEARCH_MAX_RESULTS matches.
 */
export const SEARCH_MAX_RESULTS = 2_000;

export interface SearchWord {
  /** lower case, letters and digits only */
  text: string;
  /** true: matches every word that begins with `text` (SEARCH_MIN_INNER_PREFIX characters, or SEARCH_MIN_PREFIX for the last word) */
  prefix: boolean;
}

export interface ParsedSearch {
  /** the search as the page shows it back: control characters gone, spaces collapsed, at most SEARCH_MAX_LENGTH */
  text: string;
  /** the words every result must match, at most SEARCH_MAX_WORDS, no repeats */
  words: SearchWord[];
  /** words past SEARCH_MAX_WORDS, not searched */
  dropped: number;
  /** the text was longer than SEARCH_MAX_LENGTH characters (only its start was read) */
  tooLong: boolean;
  /** at least one word of SEARCH_MIN_PREFIX characters: without one there is nothing to search for */
  searchable: boolean;
}

// A word is a letter, digit or private-use character and what follows of those and combining
// marks, as SQLite's unicode61 tokenizer with categories 'L* N* Co M*' reads them; everything
// else separates words (a lone mark, such as an emoji's variation selector, is no word).
const WORD = /[\p{L}\p{N}\p{Co}][\p{L}\p{M}\p{N}\p{Co}]*/gu;
// eslint-disable-next-line no-control-regex -- control characters are what it removes
const CONTROL = /[\u0000-\u001f\u007f-\u009f]+/g;

/** The shopper's text (null when absent) as words to search for. */
export function parseSearch(raw: string | null | undefined): ParsedSearch {
  const full = (raw ?? "").replace(CONTROL, " ").replace(/\s+/g, " ").trim();
  const tooLong = full.length > SEARCH_MAX_LENGTH;
  // Cut on a code point, never inside a surrogate pair.
  const text = tooLong ? Array.from(full).slice(0, SEARCH_MAX_LENGTH).join("").trimEnd() : full;
  const seen = new Set<string>();
  const all: string[] = [];
  for (const [part] of text.normalize("NFKC").toLowerCase().matchAll(WORD)) {
    const word = Array.from(part).slice(0, SEARCH_WORD_MAX_LENGTH).join("");
    if (seen.has(word)) continue;
    seen.add(word);
    all.push(word);
  }
  const kept = all.slice(0, SEARCH_MAX_WORDS);
  const words = kept.map((w, i) => {
    const length = Array.from(w).length;
    return { text: w, prefix: length >= SEARCH_MIN_INNER_PREFIX || (length >= SEARCH_MIN_PREFIX && i === kept.length - 1) };
  });
  const searchable = kept.some((w) => Array.from(w).length >= SEARCH_MIN_PREFIX);
  return { text, words, dropped: all.length - words.length, tooLong, searchable };
}

/**
 * SQLite FTS5: every word as a quoted string (so nothing in it is an operator), `*` after a
 * prefix, separated by spaces (FTS5's implicit AND). `"shee"* "bed"*`
 */
export function fts5Match(words: SearchWord[]): string {
  return words.map((w) => `"${w.text.replace(/"/g, '""')}"${w.prefix ? "*" : ""}`).join(" ");
}

/**
 * PostgreSQL to_tsquery: every word quoted (inert), `:*` after a prefix, joined with `&`.
 * `'shee':* & 'bed':*`
 */
export function tsQuery(words: SearchWord[]): string {
  return words.map((w) => `'${w.text.replace(/\\/g, "\\\\").replace(/'/g, "''")}'${w.prefix ? ":*" : ""}`).join(" & ");
}

/**
 * Relevance (docs/product.md, Search): the products whose title holds every word come first, then
 * those with every word in the title or the category, then in those or the specifications, then the
 * rest (a word in the description); by id within each tier. Each tier's fields have an index of
 * their own (migration 0017; the last tier is every field, migration 0011's index).
 */
export const RELEVANCE_TIERS = [
  { fields: ["title"] },
  { fields: ["title", "category"] },
  { fields: ["title", "category", "specifications"] },
  { fields: ["title", "category", "specifications", "description"] },
] as const;
