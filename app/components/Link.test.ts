import { describe, expect, it } from "vitest";
import { isActivePath, serverHref } from "./Link";

describe("which link is the page shown", () => {
  it("is the link to the page itself, case aside", () => {
    expect(isActivePath("/categories", "/categories", false)).toBe(true);
    expect(isActivePath("/Categories", "/categories", true)).toBe(true);
    expect(isActivePath("/about", "/categories", false)).toBe(false);
  });

  it("is also a link to a page above it, unless the link says end", () => {
    expect(isActivePath("/admin/orders", "/admin", false)).toBe(true);
    expect(isActivePath("/admin/orders", "/admin", true)).toBe(false);
    expect(isActivePath("/admin/", "/admin/", false)).toBe(true);
  });

  it("is never a link whose path only begins the same letters", () => {
    expect(isActivePath("/administration", "/admin", false)).toBe(false);
    expect(isActivePath("/categories-old", "/categories", false)).toBe(false);
  });

  it("reads only the link's path, not its query or fragment", () => {
    expect(isActivePath("/profile", "/profile?edit=1", true)).toBe(true);
    expect(isActivePath("/product/teak-bed", "/product/teak-bed#reviews", true)).toBe(true);
  });

  it("home is active only on home", () => {
    expect(isActivePath("/", "/", true)).toBe(true);
    expect(isActivePath("/", "/", false)).toBe(true);
    expect(isActivePath("/about", "/", false)).toBe(false);
  });
});

describe("the href the server writes itself", () => {
  it("is a path as given", () => {
    expect(serverHref("/product/teak-bed#reviews", "/x")).toBe("/product/teak-bed#reviews");
    expect(serverHref("/search?q=sofa+bed", "/x")).toBe("/search?q=sofa+bed");
  });

  it("is the page's path with a query or fragment alone", () => {
    expect(serverHref("?page=3", "/category/living-room")).toBe("/category/living-room?page=3");
    expect(serverHref("#reviews", "/product/teak-bed")).toBe("/product/teak-bed#reviews");
  });

  it("is left to the router for anything it would resolve otherwise", () => {
    for (const to of [".", "variants", "../8", "./x", "//elsewhere.example/x", "https://example.com/", "mailto:a@b.in", "/x?", "?", "#"]) {
      expect(serverHref(to, "/admin/products/7")).toBeNull();
    }
    expect(serverHref({ pathname: "/x" }, "/")).toBeNull();
  });
});
