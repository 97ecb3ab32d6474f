import { describe, it, expect } from "vitest";
import { seedCategories, seedProducts } from "../../db/seed-data";
import { avatarSvg, categorySvg, colourPalette, heroSvg, isCategoryKind, productSvg, type CategoryKind } from "./illustrations.server";

const KINDS: CategoryKind[] = ["living-room", "bedroom", "dining-room", "office", "outdoor"];

function expectSvg(svg: string, viewBox: string): void {
  expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  expect(svg.endsWith("</svg>")).toBe(true);
  expect(svg).toContain(`viewBox="${viewBox}"`);
  expect(svg).toMatch(/<svg[^>]* width="\d+" height="\d+"/);
  expect(svg).toMatch(/<title>[^<]+<\/title>/);
  // No external references: the only URL is the SVG namespace itself.
  expect(svg.replace('xmlns="http://www.w3.org/2000/svg"', "")).not.toMatch(/https?:/);
  expect(svg).not.toMatch(/<script|<image|<foreignObject|href=|url\(|@import/i);
  // Balanced tags (a cheap well-formedness check).
  const opens = (svg.match(/<[a-zA-Z][^>]*[^/]>|<[a-zA-Z]+>/g) ?? []).length;
  const closes = (svg.match(/<\/[a-zA-Z]+>/g) ?? []).length;
  expect(opens).toBe(closes);
  expect(svg.length).toBeLessThan(9000);
}

describe("illustrations", () => {
  it("renders a product SVG for every kind with the product colour", () => {
    for (const kind of KINDS) {
      const svg = productSvg(kind, "Indigo Blue", `demo-${kind}`);
      expectSvg(svg, "0 0 800 600");
      expect(svg).toContain(colourPalette["Indigo Blue"]);
    }
  });

  it("renders every seed product with its own colour", () => {
    for (const p of seedProducts) {
      expect(isCategoryKind(p.categorySlug)).toBe(true);
      if (!isCategoryKind(p.categorySlug)) continue;
      const svg = productSvg(p.categorySlug, p.specifications.Color, p.slug);
      expectSvg(svg, "0 0 800 600");
      expect(svg).toContain(colourPalette[p.specifications.Color]);
    }
  });

  it("is deterministic per seed and varies between seeds", () => {
    const a = productSvg("living-room", "Teak", "sofa-one");
    expect(productSvg("living-room", "Teak", "sofa-one")).toBe(a);
    const variants = new Set(["a", "b", "c", "d", "e", "f"].map((s) => productSvg("living-room", "Teak", `sofa-${s}`)));
    expect(variants.size).toBeGreaterThan(1);
  });

  it("falls back for an unknown colour without throwing", () => {
    let svg = "";
    expect(() => {
      svg = productSvg("bedroom", "Plaid <Unknown> & Co", "x");
    }).not.toThrow();
    expectSvg(svg, "0 0 800 600");
    expect(svg).toContain("&lt;Unknown&gt; &amp; Co");
    expect(svg).not.toContain("<Unknown>");
  });

  it("renders category SVGs", () => {
    for (const kind of KINDS) expectSvg(categorySvg(kind), "0 0 800 600");
  });

  it("renders the three hero banners", () => {
    const heroes = ([1, 2, 3] as const).map((i) => heroSvg(i));
    for (const svg of heroes) expectSvg(svg, "0 0 1600 700");
    expect(new Set(heroes).size).toBe(3);
  });

  it("renders an avatar with escaped initials", () => {
    const svg = avatarSvg("user@example.com", "ak");
    expectSvg(svg, "0 0 200 200");
    expect(svg).toContain(">AK</text>");
    expect(avatarSvg("x", "<&>")).toContain(">?</text>");
  });

  it("recognises category kinds", () => {
    for (const kind of KINDS) expect(isCategoryKind(kind)).toBe(true);
    expect(isCategoryKind("kitchen")).toBe(false);
    expect(isCategoryKind("")).toBe(false);
  });
});

describe("seed data", () => {
  it("has the five categories", () => {
    expect(seedCategories.map((c) => c.slug).sort()).toEqual([...KINDS].sort());
    expect(seedCategories.map((c) => c.position).sort()).toEqual([1, 2, 3, 4, 5]);
  });

  it("has at least five products per category with unique slugs", () => {
    for (const kind of KINDS) {
      expect(seedProducts.filter((p) => p.categorySlug === kind).length).toBeGreaterThanOrEqual(5);
    }
    expect(new Set(seedProducts.map((p) => p.slug)).size).toBe(seedProducts.length);
    for (const p of seedProducts) expect(p.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it("prices whole rupees within [9999, 48999]", () => {
    for (const p of seedProducts) {
      expect(Number.isInteger(p.price)).toBe(true);
      expect(p.price).toBeGreaterThanOrEqual(9999);
      expect(p.price).toBeLessThanOrEqual(48999);
    }
  });

  it("features at least four and has something out of stock", () => {
    expect(seedProducts.filter((p) => p.featured).length).toBeGreaterThanOrEqual(4);
    expect(seedProducts.some((p) => p.stock === 0)).toBe(true);
    for (const p of seedProducts) expect(Number.isInteger(p.stock) && p.stock >= 0).toBe(true);
  });

  it("gives every product its core specifications and a known colour", () => {
    for (const p of seedProducts) {
      for (const key of ["Material", "Dimensions", "Color", "Weight"]) {
        expect(p.specifications[key], `${p.slug} ${key}`).toBeTruthy();
      }
      expect(Object.keys(colourPalette)).toContain(p.specifications.Color);
    }
  });
});
