import { describe, expect, it } from "vitest";
import { safeRedirectPath } from "~/lib/http.server";
import { searchParamsToObject } from "~/utils/catalogue";
import { CategoryQuerySchema } from "~/utils/catalogue-schemas";
import { EMAIL_PATTERN } from "~/utils/field-lengths";
import {
  CartAddSchema,
  CartUpdateSchema,
  CONTACT_SUBJECTS,
  ContactSchema,
  EmailSchema,
  IdSchema,
  NewsletterSchema,
  QuantitySchema,
} from "./schemas";

const QUANTITY_MESSAGE = "Quantity must be a whole number from 1 to 99";

function firstMessage(result: { success: boolean; error?: { issues: { message: string }[] } }) {
  return result.error?.issues[0]?.message;
}

function messagesByField(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const out: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) {
    const key = String(issue.path[0] ?? "form");
    out[key] ??= issue.message;
  }
  return out;
}

describe("QuantitySchema", () => {
  it("accepts every whole number from 1 to 99, as numbers or strings", () => {
    for (let q = 1; q <= 99; q++) {
      expect(QuantitySchema.parse(q)).toBe(q);
      expect(QuantitySchema.parse(String(q))).toBe(q);
    }
  });

  it.each([0, 100, 1.5, -1, "abc", "1.5", "", Number.NaN, Infinity])("rejects %s with the quantity message", (value) => {
    const result = QuantitySchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(firstMessage(result)).toBe(QUANTITY_MESSAGE);
  });
});

describe("IdSchema", () => {
  it("accepts positive integers, also as strings", () => {
    expect(IdSchema.parse(1)).toBe(1);
    expect(IdSchema.parse("42")).toBe(42);
    expect(IdSchema.parse(2_147_483_647)).toBe(2_147_483_647);
  });

  it.each([0, -3, 1.5, "abc", "", 2_147_483_648, Number.NaN])("rejects %s", (value) => {
    const result = IdSchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(firstMessage(result)).toBe("A valid id is required");
  });
});

describe("CartAddSchema / CartUpdateSchema", () => {
  it("default the quantity to 1 on add and require it on update", () => {
    expect(CartAddSchema.parse({ itemId: "3" })).toEqual({ itemId: 3, quantity: 1 });
    expect(CartAddSchema.parse({ itemId: 3, quantity: "4" })).toEqual({ itemId: 3, quantity: 4 });
    expect(CartUpdateSchema.safeParse({ id: 3 }).success).toBe(false);
    expect(messagesByField(CartAddSchema.safeParse({ itemId: 3, quantity: 0 }))).toEqual({ quantity: QUANTITY_MESSAGE });
  });

  it("ignore extra fields such as a client price", () => {
    expect(CartAddSchema.parse({ itemId: 1, quantity: 2, price: 1 })).toEqual({ itemId: 1, quantity: 2 });
  });
});

describe("EmailSchema", () => {
  it("trims and lower-cases", () => {
    expect(EmailSchema.parse("  Priya.Sharma@Example.COM ")).toBe("priya.sharma@example.com");
    expect(NewsletterSchema.parse({ email: "A@B.IN" })).toEqual({ email: "a@b.in" });
  });

  it.each([
    "",
    "   ",
    "plainaddress",
    "no-at.example.com",
    "a@b",
    "@example.com",
    "a@.com ",
    "a b@example.com",
    "a@b@c.com",
    "a@example.",
    "x@y .com",
  ])("rejects %j", (value) => {
    const result = EmailSchema.safeParse(value);
    expect(result.success).toBe(false);
    expect(firstMessage(result)).toBe("Please enter a valid email address");
  });

  it("answers in linear time on 64 KB of a stranger's text (it took seconds: the 2026-11-23 review)", () => {
    for (const evil of [
      "a@" + "a.".repeat(32_740) + "@",
      "a@" + "a".repeat(65_000) + " ",
      "a".repeat(65_000) + "@a",
      ".@".repeat(30_000),
    ]) {
      const started = performance.now();
      expect(EmailSchema.safeParse(evil).success).toBe(false);
      expect(EMAIL_PATTERN.test(evil)).toBe(false);
      expect(performance.now() - started).toBeLessThan(250);
    }
  });

  it("rejects non-strings and over-long addresses", () => {
    expect(EmailSchema.safeParse(undefined).success).toBe(false);
    expect(EmailSchema.safeParse(42).success).toBe(false);
    const long = `${"a".repeat(250)}@example.com`;
    const result = EmailSchema.safeParse(long);
    expect(result.success).toBe(false);
    expect(firstMessage(result)).toBe("That email address is too long");
  });
});

describe("ContactSchema", () => {
  const valid = {
    name: "  Priya Sharma ",
    email: "Priya@Example.com",
    subject: "Order Status",
    message: "Where is my sofa?",
  };

  it("parses a valid message, trimming and lower-casing, phone optional", () => {
    expect(ContactSchema.parse(valid)).toEqual({
      name: "Priya Sharma",
      email: "priya@example.com",
      subject: "Order Status",
      message: "Where is my sofa?",
      phone: undefined,
    });
    expect(ContactSchema.parse({ ...valid, phone: "" }).phone).toBeUndefined();
    expect(ContactSchema.parse({ ...valid, phone: " +91 98765-43210 " }).phone).toBe("+91 98765-43210");
  });

  it("accepts every subject of the list", () => {
    for (const subject of CONTACT_SUBJECTS) expect(ContactSchema.safeParse({ ...valid, subject }).success).toBe(true);
  });

  it("names every missing required field", () => {
    expect(messagesByField(ContactSchema.safeParse({}))).toEqual({
      name: "Name is required",
      email: "Email is required",
      subject: "Please choose a subject",
      message: "Message is required",
    });
    expect(messagesByField(ContactSchema.safeParse({ name: " ", email: "", subject: "", message: "   " }))).toEqual({
      name: "Name is required",
      email: "Email is required",
      subject: "Please choose a subject",
      message: "Message is required",
    });
  });

  it("rejects a bad email, an unknown subject, a bad phone and over-long text", () => {
    expect(messagesByField(ContactSchema.safeParse({ ...valid, email: "nope" }))).toEqual({ email: "Please enter a valid email address" });
    expect(messagesByField(ContactSchema.safeParse({ ...valid, subject: "Spam" }))).toEqual({ subject: "Please choose a subject" });
    expect(messagesByField(ContactSchema.safeParse({ ...valid, phone: "call me" }))).toEqual({
      phone: "Please enter a valid phone number",
    });
    expect(messagesByField(ContactSchema.safeParse({ ...valid, name: "x".repeat(101) }))).toEqual({
      name: "Name must be at most 100 characters",
    });
    expect(messagesByField(ContactSchema.safeParse({ ...valid, message: "x".repeat(5001) }))).toEqual({
      message: "Message must be at most 5000 characters",
    });
  });
});

describe("CategoryQuerySchema", () => {
  const parse = (qs: string) => CategoryQuerySchema.safeParse(searchParamsToObject(new URLSearchParams(qs)));

  it("defaults to no filter", () => {
    expect(CategoryQuerySchema.parse({})).toEqual({ sort: "default", availability: [], price: [], featured: undefined });
    expect(parse("").data).toEqual({ sort: "default", availability: [], price: [], featured: undefined });
  });

  it("accepts single parameters", () => {
    expect(parse("sort=price-asc&availability=in-stock&price=under-15000&featured=1").data).toEqual({
      sort: "price-asc",
      availability: ["in-stock"],
      price: ["under-15000"],
      featured: "1",
    });
  });

  it("reads a query string in linear time, keeping repeats and odd keys as plain data", () => {
    // 20,000 distinct keys: a `getAll` per key (the old way) took seconds here.
    const huge = new URLSearchParams(Array.from({ length: 20_000 }, (_, i) => `k${i}=${i}`).join("&") + "&k7=again");
    const started = performance.now();
    const object = searchParamsToObject(huge);
    expect(performance.now() - started).toBeLessThan(500);
    expect(Object.keys(object)).toHaveLength(20_000);
    expect(object.k7).toEqual(["7", "again"]);
    const odd = searchParamsToObject(new URLSearchParams("__proto__=x&constructor=y"));
    expect(Object.getPrototypeOf(odd)).toBe(Object.prototype);
    expect(Object.keys(odd)).toEqual(["__proto__", "constructor"]);
  });

  it("accepts repeated parameters", () => {
    const result = parse("availability=in-stock&availability=out-of-stock&price=15000-30000&price=above-50000&sort=price-desc");
    expect(result.success).toBe(true);
    expect(result.data).toEqual({
      sort: "price-desc",
      availability: ["in-stock", "out-of-stock"],
      price: ["15000-30000", "above-50000"],
      featured: undefined,
    });
  });

  it.each([
    "availability=maybe",
    "price=cheap",
    "price=under-15000&price=free",
    "featured=yes",
    "availability=in-stock&availability=bogus",
  ])("refuses unknown values: %s", (qs) => {
    expect(parse(qs).success).toBe(false);
  });

  it("falls back to the default sort for an unknown sort", () => {
    expect(parse("sort=random").data?.sort).toBe("default");
  });
});

describe("safeRedirectPath", () => {
  it.each(["/cart", "/", "/product/sheesham-wood-3-seater-sofa", "/category/bedroom?sort=price-asc#top"])("keeps %s", (path) => {
    expect(safeRedirectPath(path, "/fallback")).toBe(path);
  });

  it.each([
    "//evil.com",
    "//evil.com/cart",
    "/\\evil.com",
    "/\\\\evil.com",
    "https://evil.com",
    "http://evil.com/cart",
    "javascript:alert(1)",
    "javascript:x",
    "cart",
    "",
    "/\t/evil.com",
    "/\n/evil.com",
  ])("refuses %j", (path) => {
    expect(safeRedirectPath(path, "/cart")).toBe("/cart");
  });

  it("percent-encodes what a Location header cannot hold, so redirect() never throws", () => {
    expect(safeRedirectPath("/\u2028//evil.com")).toBe("/%E2%80%A8//evil.com");
    expect(safeRedirectPath("/search?q=सोफा sets")).toBe("/search?q=%E0%A4%B8%E0%A5%8B%E0%A4%AB%E0%A4%BE%20sets");
    expect(safeRedirectPath("/search?q=%E0%A4%B8")).toBe("/search?q=%E0%A4%B8");
    for (const path of ["/\u2028//evil.com", "/search?q=सोफा", "/a\u00a0b"])
      expect(() => new Headers({ Location: safeRedirectPath(path) })).not.toThrow();
  });

  it("refuses non-strings and uses / as the default fallback", () => {
    expect(safeRedirectPath(null)).toBe("/");
    expect(safeRedirectPath(undefined)).toBe("/");
    expect(safeRedirectPath(["/cart"])).toBe("/");
    expect(safeRedirectPath("//evil.com")).toBe("/");
  });
});

describe("whole numbers are taken only from digits or JSON numbers", () => {
  it("refuses booleans, arrays, exponents and blanks that z.coerce would have turned into numbers", async () => {
    const { IdSchema: id, QuantitySchema: quantity } = await import("./schemas");
    for (const bad of [true, false, [5], "1e3", "", " ", null, "0x10", "5.0"]) {
      expect(id.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
      expect(quantity.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    expect(id.parse("12")).toBe(12);
    expect(id.parse(12)).toBe(12);
    expect(quantity.parse(" 3 ")).toBe(3);
  });
});
