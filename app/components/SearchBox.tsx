// The header's search (docs/product.md, Search): a GET form to /search that works without
// JavaScript. With JavaScript, suggestions appear as the shopper types: a debounced call of
// GET /api/search (pageSize 6) for the words the server would search, shown as an ARIA combobox's
// listbox (arrow keys move, Enter opens the product, Escape closes). A plain fetch, not a Remix
// fetcher: a failed suggestion call must never reach a route's error boundary, it just shows none.
import { Form, useLocation, useNavigate } from "@remix-run/react";
import type { KeyboardEvent } from "react";
import { useEffect, useRef, useState } from "react";
import type { Item } from "~/utils/catalogue";
import { useHydrated } from "~/hooks/useHydrated";
import { formatCount, formatPrice } from "~/utils/money";
import { parseSearch, SEARCH_MAX_LENGTH } from "~/utils/search";
import { SearchIcon } from "./icons";

/** How long typing pauses before suggestions are asked for. */
export const SUGGEST_DELAY_MS = 250;
export const SUGGESTIONS = 6;

type Suggestion = Pick<Item, "id" | "slug" | "title" | "price" | "imgPath" | "inStock">;

/** The words the server will search, as a query string value (null: nothing worth asking). */
function suggestionQuery(value: string): string | null {
  const parsed = parseSearch(value);
  return parsed.searchable ? parsed.words.map((w) => w.text).join(" ") : null;
}

function useSuggestions(value: string, enabled: boolean) {
  const [found, setFound] = useState<{ q: string; items: Suggestion[]; total: number } | null>(null);
  const q = enabled ? suggestionQuery(value) : null;
  useEffect(() => {
    if (q === null) return;
    const controller = new AbortController();
    const timer = window.setTimeout(async () => {
      try {
        const response = await fetch(`/api/search?q=${encodeURIComponent(q)}&pageSize=${SUGGESTIONS}`, {
          signal: controller.signal,
          headers: { Accept: "application/json" },
        });
        if (!response.ok) return setFound(null);
        const body = (await response.json()) as { items: Suggestion[]; total: number };
        setFound({ q, items: body.items, total: body.total });
      } catch {
        // Aborted by the next keystroke, or offline: no suggestions.
      }
    }, SUGGEST_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [q]);
  return q !== null && found?.q === q ? found : null;
}

const OPTION = "flex min-h-12 cursor-pointer items-center gap-3 rounded-lg px-2 py-1.5 text-sm";
const optionShade = (active: boolean) => (active ? "bg-sand-100" : "hover:bg-sand-50");
const FIELD = [
  "min-h-11 w-full min-w-0 flex-1 rounded-full bg-transparent py-2 pl-4 pr-1 text-base text-ink",
  "placeholder:text-stone-500 focus:outline-none",
].join(" ");
/** Under the field, at least 26rem wide on a desktop (titles stay readable), never wider than the screen. */
const DROPDOWN = [
  "absolute right-0 top-full z-50 mt-2 w-full min-w-[min(26rem,calc(100vw-2rem))]",
  "rounded-2xl border border-sand-200 bg-white shadow-lg",
].join(" ");

/**
 * `id` names the field and its list (each box on a page needs its own): a fixed, readable name,
 * which the header's two boxes (wide and narrow screens) each get.
 */
export function SearchBox({ id, className = "", autoFocus = false }: { id: string; className?: string; autoFocus?: boolean }) {
  const inputId = `${id}-q`;
  const listId = `${id}-suggestions`;
  const hydrated = useHydrated();
  const location = useLocation();
  const navigate = useNavigate();
  const inputRef = useRef<HTMLInputElement>(null);
  const onSearchPage = location.pathname === "/search";
  const current = onSearchPage ? (new URLSearchParams(location.search).get("q") ?? "") : "";
  const [value, setValue] = useState(current);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  // Suggestions are asked for once the shopper uses the box, not for the search a page shows in it.
  const [engaged, setEngaged] = useState(false);
  const found = useSuggestions(value, hydrated && engaged);

  // A new page: the box shows that page's search (or nothing) and its suggestions close.
  useEffect(() => {
    setValue(current);
    setOpen(false);
    setActive(-1);
    setEngaged(false);
  }, [location.key, current]);

  useEffect(() => {
    if (autoFocus) inputRef.current?.focus();
  }, [autoFocus]);

  const items = found?.items ?? [];
  const showAll = found && found.total > items.length;
  const optionCount = items.length + (showAll ? 1 : 0);
  const expanded = hydrated && open && optionCount > 0;
  const allHref = found ? `/search?q=${encodeURIComponent(found.q)}` : "/search";

  const go = (index: number) => {
    setOpen(false);
    navigate(index < items.length ? `/product/${items[index]!.slug}` : allHref);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (!optionCount) return;
      event.preventDefault();
      setOpen(true);
      const step = event.key === "ArrowDown" ? 1 : -1;
      // -1 is the text field itself: the options and the field go round in a ring.
      setActive((a) => {
        const next = a + step;
        return next >= optionCount ? -1 : next < -1 ? optionCount - 1 : next;
      });
    } else if (event.key === "Enter" && expanded && active >= 0 && active < optionCount) {
      event.preventDefault();
      go(active);
    } else if (event.key === "Escape" && expanded) {
      event.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  return (
    <Form
      method="get"
      action="/search"
      role="search"
      className={`relative ${className}`}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <label htmlFor={inputId} className="sr-only">
        Search products
      </label>
      <div className="flex items-center rounded-full border border-sand-200 bg-white focus-within:border-wood-500">
        <input
          ref={inputRef}
          id={inputId}
          type="search"
          name="q"
          value={value}
          onChange={(event) => {
            setValue(event.target.value);
            setEngaged(true);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => {
            setEngaged(true);
            setOpen(true);
          }}
          onKeyDown={onKeyDown}
          maxLength={SEARCH_MAX_LENGTH}
          placeholder="Search sofas, beds, teak…"
          autoComplete="off"
          enterKeyHint="search"
          className={FIELD}
          {...(hydrated
            ? {
                role: "combobox",
                "aria-autocomplete": "list" as const,
                "aria-expanded": expanded,
                "aria-controls": listId,
                "aria-activedescendant": expanded && active >= 0 ? `${listId}-${active}` : undefined,
              }
            : {})}
        />
        <button type="submit" className="flex h-11 w-11 shrink-0 items-center justify-center rounded-full text-wood-700 hover:bg-sand-100">
          <SearchIcon className="h-5 w-5" />
          <span className="sr-only">Search</span>
        </button>
      </div>
      {hydrated ? (
        <ul
          id={listId}
          role="listbox"
          aria-label="Suggestions"
          hidden={!expanded}
          className={`${DROPDOWN} max-h-[70vh] overflow-y-auto p-2`}
        >
          {items.map((item, i) => (
            <li
              key={item.id}
              id={`${listId}-${i}`}
              role="option"
              aria-selected={i === active}
              className={`${OPTION} ${optionShade(i === active)}`}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => go(i)}
            >
              <img src={item.imgPath} alt="" width={48} height={36} className="h-9 w-12 shrink-0 rounded-md bg-sand-100 object-cover" />
              <span className="min-w-0 flex-1 truncate text-ink">{item.title}</span>
              <span className="shrink-0 font-semibold text-wood-700">{formatPrice(item.price)}</span>
            </li>
          ))}
          {showAll ? (
            <li
              id={`${listId}-${items.length}`}
              role="option"
              aria-selected={active === items.length}
              className={`${OPTION} justify-center font-semibold text-wood-700 ${optionShade(active === items.length)}`}
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => go(items.length)}
            >
              See all {formatCount(found.total)} results
            </li>
          ) : null}
        </ul>
      ) : null}
      {hydrated && open && found && items.length === 0 ? (
        <p role="status" className={`${DROPDOWN} p-4 text-sm text-stone-600`}>
          No products match “{found.q}”.
        </p>
      ) : null}
    </Form>
  );
}
