// The demo catalogue's pieces sold in several variants (a third of it): fabric and size for sofas,
// size for beds, wood or size for dining sets, finish for a desk, cushion colour for a patio set.
// Each first variant keeps the product's seeded price; the others cost what a bigger size or a
// dearer material does (`extra`, rupees). The product's seeded stock is shared out over its
// variants (the first ones get the remainder, so some combinations are sold out), so the
// product's own figures (its lowest price, its stock summed) stay those of db/seed-data.ts.

export interface SeedVariants {
  options: { name: string; values: string[] }[];
  /** the price over the first variant's, by value (added up over the options) */
  extra?: Record<string, number>;
  /** combinations not made, as "Value / Value" */
  skip?: string[];
}

export const seedVariants: Record<string, SeedVariants> = {
  "mango-wood-l-shaped-sectional-sofa": {
    options: [
      { name: "Fabric", values: ["Cotton Linen", "Velvet"] },
      { name: "Colour", values: ["Ash Grey", "Teal", "Mustard"] },
    ],
    extra: { Velvet: 6000 },
  },
  "convertible-sofa-cum-bed": {
    options: [{ name: "Fabric", values: ["Jute Blend", "Suede", "Velvet"] }],
    extra: { Suede: 2500, Velvet: 4500 },
  },
  "sheesham-queen-bed-with-hydraulic-storage": {
    options: [{ name: "Size", values: ["Queen", "King"] }],
    extra: { King: 7000 },
  },
  "upholstered-queen-bed-tufted-headboard": {
    options: [
      { name: "Size", values: ["Queen", "King"] },
      { name: "Fabric", values: ["Beige Linen", "Navy Velvet"] },
    ],
    extra: { King: 6000, "Navy Velvet": 3000 },
  },
  "metal-frame-double-bed": {
    options: [{ name: "Size", values: ["Double", "Queen", "King"] }],
    extra: { Queen: 2000, King: 4500 },
  },
  "acacia-wood-4-seater-dining-set": {
    options: [{ name: "Wood", values: ["Acacia", "Sheesham", "Mango"] }],
    extra: { Sheesham: 4000, Mango: 1500 },
  },
  "marble-top-6-seater-dining-set": {
    options: [
      { name: "Size", values: ["6-seater", "8-seater"] },
      { name: "Marble", values: ["White Makrana", "Green Udaipur"] },
    ],
    extra: { "8-seater": 15000, "Green Udaipur": 5000 },
    skip: ["8-seater / Green Udaipur"],
  },
  "mango-wood-dining-set-with-bench": {
    options: [{ name: "Finish", values: ["Natural", "Walnut", "Honey"] }],
    extra: { Walnut: 2000, Honey: 1000 },
  },
  "executive-l-shaped-office-desk": {
    options: [{ name: "Finish", values: ["Wenge", "Walnut", "Frosty White"] }],
    extra: { Walnut: 1500 },
  },
  "wicker-4-seater-patio-sofa-set": {
    options: [{ name: "Cushion", values: ["Cream", "Charcoal", "Terracotta"] }],
  },
};

/** Every combination of the options' values, first option slowest, less those skipped. */
export function seedCombinations(spec: SeedVariants): string[][] {
  let combos: string[][] = [[]];
  for (const option of spec.options) combos = combos.flatMap((c) => option.values.map((v) => [...c, v]));
  return combos.filter((c) => !(spec.skip ?? []).includes(c.join(" / ")));
}

/** The variants of a seeded product: its price and stock shared out as the header says. */
export function seedVariantSet(slug: string, product: { price: number; stock: number }, spec: SeedVariants) {
  const combos = seedCombinations(spec);
  const share = Math.floor(product.stock / combos.length);
  const left = product.stock - share * combos.length;
  return {
    options: spec.options,
    variants: combos.map((values, i) => ({
      values,
      sku: `${slug.split("-").slice(0, 3).join("-")}-${i + 1}`.toUpperCase().slice(0, 40),
      price: product.price + values.reduce((sum, v) => sum + (spec.extra?.[v] ?? 0), 0),
      stock: share + (i < left ? 1 : 0),
    })),
  };
}
