// The patch of @remix-run/router (patches/, applied by `npm install`'s postinstall; ADR 0016), a
// backport of remix-run/react-router#14967: matchRoutes keeps a route array's ranked branches.
// An upgrade must not drop it silently: the installed router is the version the patch is for, and
// the file the server loads carries it. The answers must stay exactly those of the unpatched
// router: the same routes, ranks and params on every call, case sensitivity and end matching kept apart.
import fs from "node:fs";
import { createRequire } from "node:module";
import { matchPath, matchRoutes } from "@remix-run/router";
import type { AgnosticRouteObject } from "@remix-run/router";
import { describe, expect, it } from "vitest";

const routes: AgnosticRouteObject[] = [
  {
    id: "root",
    path: "",
    children: [
      { id: "home", index: true },
      { id: "category", path: "category/:slug" },
      { id: "product", path: "product/:slug" },
      { id: "search", path: "search" },
      { id: "api-items", path: "api/category/items" },
      { id: "images", path: "images/*" },
      {
        id: "admin",
        path: "admin",
        children: [
          { id: "admin-index", index: true },
          { id: "admin-products", path: "products" },
        ],
      },
    ],
  },
];

const ids = (path: string) => matchRoutes(routes, path)?.map((m) => m.route.id) ?? null;

describe("the patched router", () => {
  it("is the one the server loads", () => {
    const require = createRequire(import.meta.url);
    const file = require.resolve("@remix-run/router");
    expect(fs.readFileSync(file, "utf8")).toContain("rankedBranchesCache");
    // patch-package names the version a patch is for: a router upgraded past it needs the patch
    // made again for the new version (or dropped once that version has the upstream change).
    const { version } = JSON.parse(fs.readFileSync(require.resolve("@remix-run/router/package.json"), "utf8")) as { version: string };
    expect(fs.readdirSync(new URL("../../patches/", import.meta.url))).toContain(`@remix-run+router+${version}.patch`);
  });

  it("matches the same routes and params on every call", () => {
    for (let i = 0; i < 3; i++) {
      expect(ids("/")).toEqual(["root", "home"]);
      expect(ids("/category/living-room")).toEqual(["root", "category"]);
      expect(matchRoutes(routes, "/product/teak-bed")?.at(-1)?.params).toEqual({ slug: "teak-bed" });
      expect(ids("/api/category/items")).toEqual(["root", "api-items"]);
      expect(matchRoutes(routes, "/images/products/a.svg")?.at(-1)?.params["*"]).toBe("products/a.svg");
      expect(ids("/admin")).toEqual(["root", "admin", "admin-index"]);
      expect(ids("/admin/products")).toEqual(["root", "admin", "admin-products"]);
      expect(ids("/nowhere/at/all")).toBeNull();
    }
  });

  it("a new route array is ranked on its own, not answered from another's", () => {
    const other: AgnosticRouteObject[] = [{ id: "only", path: "category/:slug" }];
    expect(ids("/category/x")).toEqual(["root", "category"]);
    expect(matchRoutes(other, "/category/x")?.map((m) => m.route.id)).toEqual(["only"]);
    expect(matchRoutes(other, "/")).toBeNull();
  });

  it("keeps case sensitivity and end matching apart for the same path", () => {
    expect(matchPath({ path: "/Search", caseSensitive: true }, "/search")).toBeNull();
    expect(matchPath({ path: "/Search", caseSensitive: false }, "/search")).not.toBeNull();
    expect(matchPath({ path: "/Search", caseSensitive: true }, "/Search")).not.toBeNull();
    expect(matchPath({ path: "/admin", end: true }, "/admin/products")).toBeNull();
    expect(matchPath({ path: "/admin", end: false }, "/admin/products")?.pathnameBase).toBe("/admin");
    expect(matchPath({ path: "/admin", end: true }, "/admin")).not.toBeNull();
  });
});
