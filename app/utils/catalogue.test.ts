import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PriceBounds, PriceRange } from "./catalogue";
import { cardOf, mergedPriceRanges, PRICE_RANGE_KEYS, PRICE_RANGES } from "./catalogue";

const within = ({ min, max }: PriceBounds, price: number) => (min === null || price >= min) && (max === null || price <= max);

describe("mergedPriceRanges", () => {
  it("ranges that touch become one: 15,000-30,000 and 30,000-50,000 are 15,000 to 50,000", () => {
    expect(mergedPriceRanges(["15000-30000", "30000-50000"])).toEqual([{ min: 15000, max: 50000 }]);
    // Whole rupees: under 15,000 ends at 14,999, which touches 15,000.
    expect(mergedPriceRanges(["under-15000", "15000-30000"])).toEqual([{ min: null, max: 30000 }]);
    expect(mergedPriceRanges(["30000-50000", "above-50000"])).toEqual([{ min: 30000, max: null }]);
  });

  it("ranges apart stay apart, lowest first, whatever the order they were chosen in", () => {
    expect(mergedPriceRanges(["above-50000", "under-15000"])).toEqual([
      { min: null, max: 14999 },
      { min: 50001, max: null },
    ]);
    expect(mergedPriceRanges(["30000-50000", "under-15000"])).toEqual([
      { min: null, max: 14999 },
      { min: 30000, max: 50000 },
    ]);
  });

  it("none is none, one is itself, a repeat counts once, all four are every price", () => {
    expect(mergedPriceRanges([])).toEqual([]);
    expect(mergedPriceRanges(["15000-30000"])).toEqual([{ min: 15000, max: 30000 }]);
    expect(mergedPriceRanges(["15000-30000", "15000-30000"])).toEqual([{ min: 15000, max: 30000 }]);
    expect(mergedPriceRanges([...PRICE_RANGE_KEYS])).toEqual([{ min: null, max: null }]);
  });

  it("a whole-rupee price is in the merged ranges exactly when it is in one of the chosen ranges", () => {
    fc.assert(
      fc.property(
        fc.subarray(PRICE_RANGE_KEYS as PriceRange[]),
        fc.oneof(fc.integer({ min: 0, max: 300_000 }), fc.constantFrom(0, 14999, 15000, 29999, 30000, 30001, 50000, 50001)),
        (keys, price) => {
          const merged = mergedPriceRanges(keys);
          expect(merged.some((r) => within(r, price))).toBe(keys.some((k) => within(PRICE_RANGES[k], price)));
          // Disjoint and in order: each range starts past the end of the one before, with a gap.
          merged.slice(1).forEach((r, i) => expect(r.min! > merged[i]!.max! + 1).toBe(true));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("cardOf", () => {
  const item = {
    id: 7,
    categoryId: 2,
    title: "Teak Bed",
    slug: "teak-bed",
    description: "A king-size bed in solid teak with a carved headboard and four deep drawers for linen and more.",
    price: 54999,
    imgPath: "/images/products/teak-bed.svg",
    featured: true,
    madeToOrder: false,
    inStock: true,
    stock: 3,
    specifications: { Material: "Teak" },
    averageRating: 4.5,
    reviewCount: 2,
  };

  it("keeps what a card shows, with the description cut to a summary, and nothing else", () => {
    expect(cardOf(item)).toEqual({
      id: 7,
      title: "Teak Bed",
      slug: "teak-bed",
      price: 54999,
      imgPath: "/images/products/teak-bed.svg",
      featured: true,
      inStock: true,
      averageRating: 4.5,
      reviewCount: 2,
      summary: "A king-size bed in solid teak with a carved headboard and four deep drawers for...",
    });
    expect(cardOf({ ...item, description: "Short." }).summary).toBe("Short.");
  });
});
