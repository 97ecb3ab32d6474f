// How a variant is named wherever a line shows it (cart, checkout, order, invoice, mail): the
// product's title, then its options' values when it has any: 'Teak Wood Sofa — Walnut, 3-seater'.

/** A line's name: the product's title with its variant's label, when it has one. */
export function lineTitle(title: string, variantLabel: string | null | undefined): string {
  return variantLabel ? `${title} — ${variantLabel}` : title;
}

/** What choosing reads of a product's options and variants (models/catalogue/variants.server's shapes). */
export interface Choosable {
  options: { id: number; name: string; slug: string; values: { id: number; value: string; slug: string }[] }[];
  variants: { id: number; active: boolean; stock: number; valueIds: number[] }[];
}

/**
 * The values chosen in a query (`?finish=walnut&size=3-seater`), by option id: an option whose
 * parameter is missing or names no value of it is not chosen. A query that names no option
 * chooses the first variant on sale.
 */
export function chosenValues(product: Choosable, params: URLSearchParams): Map<number, number> {
  const chosen = new Map<number, number>();
  // Nothing chosen yet: the first variant on sale (else the first still sold) is shown chosen.
  if (product.options.every((o) => !params.has(o.slug))) {
    const first = product.variants.find((v) => v.active && v.stock > 0) ?? product.variants.find((v) => v.active);
    first?.valueIds.forEach((id, i) => chosen.set(product.options[i]!.id, id));
    return chosen;
  }
  for (const option of product.options) {
    const slug = params.get(option.slug);
    const value = option.values.find((v) => v.slug === slug);
    if (value) chosen.set(option.id, value.id);
  }
  return chosen;
}

/**
 * The variant these choices make: a product without options has its one; otherwise every option
 * must be chosen and the combination must exist (active or not: the page says it is not sold).
 */
export function variantOfChoice<V extends Choosable["variants"][number]>(
  product: { options: Choosable["options"]; variants: V[] },
  chosen: Map<number, number>,
): V | null {
  if (product.options.length === 0) return product.variants[0] ?? null;
  if (product.options.some((o) => !chosen.has(o.id))) return null;
  const wanted = product.options.map((o) => chosen.get(o.id)!);
  return product.variants.find((v) => v.valueIds.length === wanted.length && wanted.every((id, i) => v.valueIds[i] === id)) ?? null;
}

/** What is wrong with the choice made, in words; null when it names a variant on sale. */
export function choiceProblem(
  options: { id: number; name: string }[],
  variant: { active: boolean } | null,
  chosen: Map<number, number>,
): string | null {
  if (options.length === 0) return null;
  const missing = options.filter((o) => !chosen.has(o.id)).map((o) => o.name);
  if (missing.length > 0) return `Please choose a ${missing.join(" and ")}.`;
  if (!variant) return "This combination is not made. Please choose another.";
  if (!variant.active) return "This choice is no longer sold. Please choose another.";
  return null;
}

/** An option as the product page's choice draws it: each value, whether it is chosen, whether it makes a variant on sale. */
export interface PickerOption {
  id: number;
  name: string;
  slug: string;
  values: { id: number; value: string; slug: string; chosen: boolean; onSale: boolean }[];
}

/**
 * The page's choice: a value is on sale when some variant on sale has it for its option and the
 * other options as chosen; a value that is not stays choosable (the page then says why).
 */
export function pickerOptions(product: Choosable, chosen: Map<number, number>): PickerOption[] {
  const picked = product.options.map((o) => chosen.get(o.id));
  return product.options.map((option, index) => ({
    id: option.id,
    name: option.name,
    slug: option.slug,
    values: option.values.map((value) => ({
      ...value,
      chosen: picked[index] === value.id,
      onSale: product.variants.some(
        (v) =>
          v.active &&
          v.stock > 0 &&
          v.valueIds[index] === value.id &&
          picked.every((c, i) => i === index || c === undefined || v.valueIds[i] === c),
      ),
    })),
  }));
}
