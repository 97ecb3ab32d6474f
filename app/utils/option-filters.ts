// A product list's filters by option value (category and search pages, docs/product.md): the URL
// names an option by its slug and a value by its slug, `?fabric=velvet&fabric=suede&size=3-seater`.
// Several values of one option are any of them; different options are all of them, on one variant.
// Shared by the browser and the server, free of zod (the pages' browser code imports it).

/**
 * The query parameters the category, search and product pages and the catalogue API read for
 * themselves: no option may be named one of them (app/utils/variant-schemas.ts refuses it), and
 * none of them is ever read as an option's filter.
 */
export const LIST_QUERY_PARAMS = ["q", "sort", "page", "pageSize", "availability", "price", "featured", "slug"] as const;

/** The chosen values by option slug, each list of value slugs in the order first given. */
export type OptionChoice = Record<string, string[]>;

/** How many options and values one request may choose: more are left out (a product has at most three options). */
export const CHOICE_LIMITS = { options: 6, values: 20, slug: 60 } as const;

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const isSlug = (text: string) => text.length <= CHOICE_LIMITS.slug && SLUG.test(text);
const reserved: ReadonlySet<string> = new Set<string>(LIST_QUERY_PARAMS.map((p) => p.toLowerCase()));

/**
 * The option values a query chooses: every parameter that is not one of the list's own and is shaped
 * like a slug, with its values shaped like slugs. Anything else is left out, never an error; whether
 * the option and value exist is the catalogue's to say (knownChoice).
 */
export function parseOptionChoice(params: URLSearchParams): OptionChoice {
  const choice: OptionChoice = {};
  let options = 0;
  for (const [name, value] of params) {
    if (reserved.has(name.toLowerCase()) || !isSlug(name) || !isSlug(value)) continue;
    const values = choice[name];
    if (!values) {
      if (options >= CHOICE_LIMITS.options) continue;
      options++;
      choice[name] = [value];
    } else if (!values.includes(value) && values.length < CHOICE_LIMITS.values) values.push(value);
  }
  return choice;
}

export const hasChoice = (choice: OptionChoice | undefined) => Boolean(choice && Object.keys(choice).length > 0);

/** One value of a list's option filter: how many products of the list it would leave (the other filters applied). */
export interface FacetValue {
  slug: string;
  label: string;
  count: number;
  chosen: boolean;
}

/** One option of a list's filters (Fabric), its values in order. */
export interface Facet {
  slug: string;
  name: string;
  values: FacetValue[];
}
