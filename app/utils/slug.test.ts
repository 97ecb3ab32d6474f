import { describe, expect, it } from "vitest";
import { firstFreeSlug, MAX_SLUG_LENGTH, slugify } from "./slug";

describe("slugify", () => {
  it("lowercase ASCII words joined by hyphens", () => {
    expect(slugify("3-Seater Sofa")).toBe("3-seater-sofa");
    expect(slugify("Sheesham Wood  Dining   Table")).toBe("sheesham-wood-dining-table");
    expect(slugify("  --Hello!!  World--  ")).toBe("hello-world");
    expect(slugify("King_Size Bed (Teak)")).toBe("king-size-bed-teak");
  });

  it("drops accents and spells out &", () => {
    expect(slugify("Café Chaise Longue")).toBe("cafe-chaise-longue");
    expect(slugify("Tables & Chairs")).toBe("tables-and-chairs");
    expect(slugify("Ÿoga Ñook")).toBe("yoga-nook");
  });

  it("a title with nothing usable still gets a slug", () => {
    expect(slugify("")).toBe("item");
    expect(slugify("!!!")).toBe("item");
    expect(slugify("家具")).toBe("item");
  });

  it("is cut to the maximum length without a trailing hyphen", () => {
    const long = slugify(`${"a".repeat(MAX_SLUG_LENGTH - 1)} bcd`);
    expect(long.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
    expect(long).toBe("a".repeat(MAX_SLUG_LENGTH - 1));
    expect(slugify("word ".repeat(40))).toMatch(/^(word-)*word$/);
    expect(slugify("word ".repeat(40)).length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
  });

  it("gives slugs the storefront's slug rule accepts", () => {
    for (const title of ["3-Seater Sofa", "Café & Bar", "  x  ", "A--B", "Ω", "Über-Tisch 2.0"]) {
      expect(slugify(title)).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
    }
  });
});

describe("firstFreeSlug", () => {
  it("the base when free, else base-2, base-3…", () => {
    expect(firstFreeSlug("sofa", new Set())).toBe("sofa");
    expect(firstFreeSlug("sofa", new Set(["sofa-2"]))).toBe("sofa");
    expect(firstFreeSlug("sofa", new Set(["sofa"]))).toBe("sofa-2");
    expect(firstFreeSlug("sofa", new Set(["sofa", "sofa-2"]))).toBe("sofa-3");
    expect(firstFreeSlug("sofa", new Set(["sofa", "sofa-3"]))).toBe("sofa-2");
  });

  it("stays within the maximum length when a suffix is added", () => {
    const base = "b".repeat(MAX_SLUG_LENGTH);
    const next = firstFreeSlug(base, new Set([base]));
    expect(next).toBe(`${"b".repeat(MAX_SLUG_LENGTH - 2)}-2`);
    expect(next.length).toBe(MAX_SLUG_LENGTH);
    // A cut that would end on a hyphen does not leave a double hyphen.
    const hyphenated = `${"c".repeat(MAX_SLUG_LENGTH - 3)}-dd`;
    const free = firstFreeSlug(hyphenated, new Set([hyphenated]));
    expect(free).not.toContain("--");
    expect(free.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
    expect(free.endsWith("-2")).toBe(true);
  });
});
