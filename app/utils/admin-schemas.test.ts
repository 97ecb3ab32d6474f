import { describe, expect, it } from "vitest";
import {
  ADMIN_LIMITS,
  AdminListQuerySchema,
  CategoryFormSchema,
  ImageUrlSchema,
  isImageUrl,
  parseAdminListQuery,
  ProductFormSchema,
  productFormInput,
  SpecificationsSchema,
} from "./admin-schemas";

type Issues = { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } };

/** The first message per field, as the forms show them. */
function messages(result: Issues): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) out[String(issue.path[0] ?? "form")] ??= issue.message;
  return out;
}

const CATEGORY = { title: "Outdoor", description: "Chairs and tables for the garden.", imgPath: "https://cdn.example.in/outdoor.jpg" };
const PRODUCT = {
  title: "Teak Garden Bench",
  categoryId: "3",
  price: "12500",
  imgPath: "/images/products/bench.svg",
  description: "A bench for two.",
  featured: "on",
  inStock: "on",
  stock: "4",
  specifications: { keys: ["Material", "Seats"], values: ["Teak", "2"] },
};
const URL_MESSAGE = "Please enter a valid image URL (https://… or /images/…)";
const STOCK_MESSAGE = `Stock must be a whole number from 0 to ${ADMIN_LIMITS.maxStock}`;

describe("CategoryFormSchema (docs/product.md: title, description, image URL required, URL shape)", () => {
  it("accepts a valid category, trimmed", () => {
    expect(CategoryFormSchema.parse({ title: "  Outdoor ", description: " Garden. ", imgPath: " /images/c.svg " })).toEqual({
      title: "Outdoor",
      description: "Garden.",
      imgPath: "/images/c.svg",
    });
  });

  it("names each missing field", () => {
    expect(messages(CategoryFormSchema.safeParse({}))).toEqual({
      title: "Title is required",
      description: "Description is required",
      imgPath: "Image URL is required",
    });
    expect(messages(CategoryFormSchema.safeParse({ title: "   ", description: "\n", imgPath: " " }))).toEqual({
      title: "Title is required",
      description: "Description is required",
      imgPath: "Image URL is required",
    });
  });

  it("refuses over-long fields and a URL of the wrong shape", () => {
    expect(messages(CategoryFormSchema.safeParse({ ...CATEGORY, title: "x".repeat(ADMIN_LIMITS.title + 1) }))).toEqual({
      title: `Title must be at most ${ADMIN_LIMITS.title} characters`,
    });
    expect(messages(CategoryFormSchema.safeParse({ ...CATEGORY, description: "x".repeat(ADMIN_LIMITS.description + 1) }))).toEqual({
      description: `Description must be at most ${ADMIN_LIMITS.description} characters`,
    });
    expect(messages(CategoryFormSchema.safeParse({ ...CATEGORY, imgPath: `/images/${"x".repeat(ADMIN_LIMITS.imgPath)}` }))).toEqual({
      imgPath: `Image URL must be at most ${ADMIN_LIMITS.imgPath} characters`,
    });
    for (const bad of [
      "javascript:alert(1)",
      "data:image/png;base64,AAAA",
      "//evil.example/x.png",
      "not a url",
      "ftp://x.example/a.png",
      "http://x.example/a.png",
    ]) {
      expect(messages(CategoryFormSchema.safeParse({ ...CATEGORY, imgPath: bad })), bad).toEqual({ imgPath: URL_MESSAGE });
    }
  });

  it("refuses values that are not text", () => {
    expect(messages(CategoryFormSchema.safeParse({ ...CATEGORY, title: 5 })).title).toBe("Must be text");
    expect(messages(CategoryFormSchema.safeParse({ ...CATEGORY, imgPath: ["/a.svg"] })).imgPath).toBe("Must be text");
  });
});

describe("isImageUrl / ImageUrlSchema", () => {
  it("web URLs and paths on this site", () => {
    for (const ok of [
      "https://cdn.example.in/a.jpg",
      "HTTPS://example.com/a.png?x=1",
      "/images/products/a.svg",
      "/uploads/abc.webp",
      "/x",
    ]) {
      expect(isImageUrl(ok), ok).toBe(true);
    }
  });

  it("nothing else (plain http too: the page's CSP loads images from https sites only)", () => {
    for (const bad of [
      "http://example.com/a.png",
      "/images\\a.png",
      "https:\\\\evil.example/a.png",
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      "data:image/svg+xml,<svg/>",
      "vbscript:x",
      "file:///etc/passwd",
      "//evil.example/a.png",
      "/\\evil.example/a.png",
      "images/a.png",
      "https://",
      "https://exa mple.com/a.png",
      "/images/a b.png",
      "",
    ]) {
      expect(isImageUrl(bad), bad).toBe(false);
    }
  });

  it("the schema trims, then checks", () => {
    expect(ImageUrlSchema.parse("  https://cdn.example.in/a.jpg  ")).toBe("https://cdn.example.in/a.jpg");
    // Stored as the browser reads it.
    expect(ImageUrlSchema.parse("HTTPS://CDN.Example.in/a%20b.jpg")).toBe("https://cdn.example.in/a%20b.jpg");
    expect(ImageUrlSchema.parse("/images/x.svg")).toBe("/images/x.svg");
    expect(messages(ImageUrlSchema.safeParse(" javascript:alert(1) ")).form).toBe(URL_MESSAGE);
    expect(messages(ImageUrlSchema.safeParse(undefined)).form).toBe("Image URL is required");
  });
});

describe("ProductFormSchema (docs/product.md: title, category, price ≥ 0, image URL, description, Featured, In Stock)", () => {
  it("accepts a valid product: ids and numbers from strings, checkboxes, the specification rows as a map", () => {
    expect(ProductFormSchema.parse(PRODUCT)).toEqual({
      title: "Teak Garden Bench",
      categoryId: 3,
      price: 12500,
      imgPath: "/images/products/bench.svg",
      description: "A bench for two.",
      featured: true,
      inStock: true,
      madeToOrder: false,
      stock: 4,
      specifications: { Material: "Teak", Seats: "2" },
    });
    // The Made to order checkbox, ticked (delivery in 14-21 business days at least).
    expect(ProductFormSchema.parse({ ...PRODUCT, madeToOrder: "on" }).madeToOrder).toBe(true);
  });

  it("names each missing field", () => {
    expect(messages(ProductFormSchema.safeParse({ categoryId: "", specifications: {} }))).toEqual({
      title: "Title is required",
      categoryId: "Category is required",
      price: "Price is required",
      imgPath: "Image URL is required",
      description: "Description is required",
    });
    expect(messages(ProductFormSchema.safeParse({ ...PRODUCT, categoryId: "" })).categoryId).toBe("Category is required");
    expect(messages(ProductFormSchema.safeParse({ ...PRODUCT, price: "  " })).price).toBe("Price is required");
  });

  it("a post without the categoryId field at all: 'Category is required' (not a product without a category)", () => {
    const { categoryId: _omitted, ...withoutCategory } = PRODUCT;
    const result = ProductFormSchema.safeParse(withoutCategory);
    expect(result.success).toBe(false);
    expect(messages(result)).toEqual({ categoryId: "Category is required" });
  });

  it("price: a number, 0 or more, at most the maximum; rounded to whole rupees", () => {
    expect(messages(ProductFormSchema.safeParse({ ...PRODUCT, price: "-1" }))).toEqual({ price: "Price must be 0 or more" });
    expect(messages(ProductFormSchema.safeParse({ ...PRODUCT, price: "-0.01" }))).toEqual({ price: "Price must be 0 or more" });
    expect(messages(ProductFormSchema.safeParse({ ...PRODUCT, price: "ten" }))).toEqual({ price: "Price must be a number" });
    expect(messages(ProductFormSchema.safeParse({ ...PRODUCT, price: "Infinity" }))).toEqual({ price: "Price must be a number" });
    expect(messages(ProductFormSchema.safeParse({ ...PRODUCT, price: String(ADMIN_LIMITS.maxPrice + 1) }))).toEqual({
      price: `Price must be at most ${ADMIN_LIMITS.maxPrice}`,
    });
    expect(ProductFormSchema.parse({ ...PRODUCT, price: "0" }).price).toBe(0);
    expect(ProductFormSchema.parse({ ...PRODUCT, price: "1,299.50" }).price).toBe(1300);
    expect(ProductFormSchema.parse({ ...PRODUCT, price: "99.49" }).price).toBe(99);
  });

  it("In Stock on needs at least one unit; off means 0 whatever was typed", () => {
    expect(messages(ProductFormSchema.safeParse({ ...PRODUCT, stock: "0" }))).toEqual({
      stock: "Enter the units in stock (at least 1), or untick In Stock",
    });
    expect(messages(ProductFormSchema.safeParse({ ...PRODUCT, stock: "" }))).toEqual({
      stock: "Enter the units in stock (at least 1), or untick In Stock",
    });
    const off = ProductFormSchema.parse({ ...PRODUCT, inStock: undefined, stock: "7" });
    expect(off).toMatchObject({ inStock: false, stock: 0 });
    expect(ProductFormSchema.parse({ ...PRODUCT, featured: undefined }).featured).toBe(false);
  });

  it("stock: a whole number from 0 to the maximum", () => {
    for (const bad of ["-1", "1.5", "lots", String(ADMIN_LIMITS.maxStock + 1)]) {
      expect(messages(ProductFormSchema.safeParse({ ...PRODUCT, stock: bad })).stock, bad).toBe(STOCK_MESSAGE);
    }
    expect(ProductFormSchema.parse({ ...PRODUCT, stock: " 12 " }).stock).toBe(12);
  });

  it("the specification rows' messages", () => {
    const spec = (keys: string[], values: string[]) => messages(SpecificationsSchema.safeParse({ keys, values })).form;
    expect(SpecificationsSchema.parse({ keys: ["", " Material "], values: ["", " Oak "] })).toEqual({ Material: "Oak" });
    expect(SpecificationsSchema.parse({ keys: "Colour", values: "Walnut" })).toEqual({ Colour: "Walnut" });
    expect(SpecificationsSchema.parse({})).toEqual({});
    expect(spec(["", "Seats"], ["Teak", "2"])).toBe("Row 1: give the specification a name");
    expect(spec(["Material", "Seats"], ["Teak", ""])).toBe('Row 2: give "Seats" a value');
    expect(spec(["Material", "material"], ["Teak", "Oak"])).toBe('Row 2: "material" is listed twice');
    expect(spec(["x".repeat(ADMIN_LIMITS.specKey + 1)], ["v"])).toBe(
      `Row 1: names are at most ${ADMIN_LIMITS.specKey} characters and values ${ADMIN_LIMITS.specValue}`,
    );
    expect(spec(["k"], ["v".repeat(ADMIN_LIMITS.specValue + 1)])).toBe(
      `Row 1: names are at most ${ADMIN_LIMITS.specKey} characters and values ${ADMIN_LIMITS.specValue}`,
    );
    const many = Array.from({ length: ADMIN_LIMITS.specs + 1 }, (_, i) => `Key ${i}`);
    expect(spec(many, many)).toBe(`At most ${ADMIN_LIMITS.specs} specifications`);
    expect(
      messages(ProductFormSchema.safeParse({ ...PRODUCT, specifications: { keys: ["", "x"], values: ["y", ""] } })).specifications,
    ).toBe("Row 1: give the specification a name");
  });

  it("productFormInput reads the repeated specKey/specValue fields of a posted form", () => {
    const form = new FormData();
    for (const [k, v] of Object.entries({
      title: "Bench",
      categoryId: "2",
      price: "10",
      imgPath: "/a.svg",
      description: "d",
      inStock: "on",
      stock: "1",
    }))
      form.set(k, v);
    form.append("specKey", "Material");
    form.append("specValue", "Teak");
    form.append("specKey", "Seats");
    form.append("specValue", "2");
    const input = productFormInput(form);
    expect(input.specifications).toEqual({ keys: ["Material", "Seats"], values: ["Teak", "2"] });
    expect(input.featured).toBeUndefined();
    expect(ProductFormSchema.parse(input)).toMatchObject({
      categoryId: 2,
      featured: false,
      inStock: true,
      stock: 1,
      specifications: { Material: "Teak", Seats: "2" },
    });
  });
});

describe("parseAdminListQuery (the lists' URL state)", () => {
  const parse = (search: string) => parseAdminListQuery(new URL(`http://localhost/admin/products${search}`));

  const DEFAULTS = { q: "", category: "all", status: "all", payment: "all", from: "", to: "" };

  it("defaults", () => {
    expect(parse("")).toEqual(DEFAULTS);
  });

  it("reads good values", () => {
    expect(parse("?q=%20Teak%20&page=3&category=4&status=shipped&payment=cod&from=2025-01-31&to=2025-02-28")).toEqual({
      q: "Teak",
      category: 4,
      status: "shipped",
      payment: "cod",
      from: "2025-01-31",
      to: "2025-02-28",
    });
    expect(parse("?category=all&status=all&payment=online")).toEqual({ ...DEFAULTS, payment: "online" });
  });

  it("falls back on junk, field by field", () => {
    for (const category of ["sofas", "0", "-1", "1.5", ""]) expect(parse(`?category=${category}`).category, category).toBe("all");
    for (const status of ["SHIPPED", "lost", ""]) expect(parse(`?status=${status}`).status, status).toBe("all");
    expect(parse(`?q=${"x".repeat(ADMIN_LIMITS.query + 1)}`).q).toBe("");
    for (const payment of ["COD", "card", ""]) expect(parse(`?payment=${payment}`).payment, payment).toBe("all");
    for (const day of ["2025-02-30", "2025-13-01", "yesterday", "2025-1-1", "2025-01-01T00:00", ""]) {
      expect(parse(`?from=${day}&to=${day}`), day).toMatchObject({ from: "", to: "" });
    }
    expect(parse("?q=sofa&page=junk&category=junk&status=junk&payment=junk&from=junk&to=junk")).toEqual({ ...DEFAULTS, q: "sofa" });
  });

  it("the schema itself never throws on odd shapes", () => {
    expect(AdminListQuerySchema.parse({ q: ["a"], category: null, status: 3, payment: [], from: 5, to: null })).toEqual(DEFAULTS);
  });
});
