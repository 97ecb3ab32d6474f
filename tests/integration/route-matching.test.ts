// The patches of the router packages (patches/, applied by `npm install`'s postinstall; ADR 0016),
// backports of remix-run/react-router#14967 (matchRoutes keeps a route array's ranked branches),
// #15186 (each branch carries its compiled matchers) and #14971 (a server render matches with the
// server's branches and renders the matches it already has). An upgrade must not drop them
// silently: each installed package is the version its patch is for, and the file the server loads
// carries it. The answers must stay exactly those of the unpatched router: the same routes, ranks
// and params on every call, case sensitivity and end matching kept apart.
import fs from "node:fs";
import { createRequire } from "node:module";
import { createStaticHandler, matchPath, matchRoutes } from "@remix-run/router";
import type { AgnosticDataRouteObject, AgnosticRouteMatch, AgnosticRouteObject } from "@remix-run/router";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import type * as ReactRouterDom from "react-router-dom";
import type { RouteObject } from "react-router-dom";
import type * as ReactRouterDomServer from "react-router-dom/server";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
// The CommonJS builds, which the server loads (an ESM import here would get the unpatched ESM files).
const { Outlet, useParams, useRouteLoaderData } = require("react-router-dom") as typeof ReactRouterDom;
const { StaticRouterProvider, createStaticRouter } = require("react-router-dom/server") as typeof ReactRouterDomServer;

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

/** The version of an installed package. */
const versionOf = (name: string) =>
  (JSON.parse(fs.readFileSync(require.resolve(`${name}/package.json`), "utf8")) as { version: string }).version;
const patchFiles = fs.readdirSync(new URL("../../patches/", import.meta.url));

describe("the backport of the server's matching (#15186, #14971)", () => {
  it("is in every file the server loads, each patch for the installed version", () => {
    const marked: [pkg: string, file: string, marker: string][] = [
      ["@remix-run/router", require.resolve("@remix-run/router"), "_internalRouteBranches"],
      ["react-router", require.resolve("react-router/dist/umd/react-router.production.min.js"), "function R(e,t,n,i,__m)"],
      ["react-router", require.resolve("react-router/dist/umd/react-router.development.js"), "future, manifest)"],
      ["react-router-dom", require.resolve("react-router-dom/server"), "manifest: router$1.manifest"],
      ["@remix-run/react", require.resolve("@remix-run/react/dist/fog-of-war.js"), "router$1.branches"],
      ["@remix-run/react", require.resolve("@remix-run/react/dist/server.js"), "branches: context.branches"],
      ["@remix-run/server-runtime", require.resolve("@remix-run/server-runtime/dist/server.js"), "staticHandler._internalRouteBranches"],
    ];
    for (const [pkg, file, marker] of marked) {
      expect(fs.readFileSync(file, "utf8"), file).toContain(marker);
      expect(patchFiles).toContain(`${pkg.replace("/", "+")}+${versionOf(pkg)}.patch`);
    }
  });

  it("gives each branch's steps their compiled matchers, and matching with given branches uses them", () => {
    const handler = createStaticHandler(routes) as ReturnType<typeof createStaticHandler> & {
      _internalRouteBranches: { path: string; routesMeta: { matcher?: RegExp; route: AgnosticDataRouteObject }[] }[];
    };
    const branches = handler._internalRouteBranches;
    expect(branches).toBe(handler._internalRouteBranches);
    const product = branches.find((b) => b.path === "/product/:slug")!;
    expect(product.routesMeta.map((m) => m.matcher?.test("/product/teak-bed"))).toEqual([true, true]);

    type MatchImpl = (
      routes: AgnosticRouteObject[],
      location: string,
      basename: string,
      allowPartial: boolean,
      branches?: unknown[],
    ) => AgnosticRouteMatch[] | null;
    const matchRoutesImpl = (require("@remix-run/router") as { UNSAFE_matchRoutesImpl: MatchImpl }).UNSAFE_matchRoutesImpl;
    // The branches given are the ones matched with: the routes passed beside them are not ranked again.
    const matched = matchRoutesImpl([{ id: "elsewhere", path: "elsewhere" }], "/product/teak-bed", "/", false, branches);
    expect(matched?.map((m) => m.route.id)).toEqual(["root", "product"]);
    expect(matched?.at(-1)?.params).toEqual({ slug: "teak-bed" });
    expect(matchRoutesImpl(routes, "/admin", "/", false)?.map((m) => m.route.id)).toEqual(["root", "admin", "admin-index"]);
  });

  it("renders a server render's own matches, with the routes that carry its elements", async () => {
    const handler = createStaticHandler(routes.map(withLoaders));
    const context = await handler.query(new Request("http://shop.test/product/teak-bed"));
    if (context instanceof Response) throw new Error("no context");
    const Product = () => `product ${useParams().slug} ${String(useRouteLoaderData("product"))}`;
    // The routes with elements share the server's ids, and here not its paths: rendered by matching
    // them again, "/product/teak-bed" would render nothing. The render shows the server's matches.
    const elements: RouteObject[] = [
      {
        id: "root",
        path: "",
        children: [
          { id: "home", index: true, element: "home" },
          { id: "product", path: "item/:slug", element: createElement(Product) },
        ],
        element: createElement(Outlet),
      },
    ];
    const router = createStaticRouter(elements, context, {
      branches: (handler as unknown as { _internalRouteBranches: unknown[] })._internalRouteBranches,
    } as Parameters<typeof createStaticRouter>[2]);
    expect((router as unknown as { branches: unknown }).branches).toBeDefined();
    const html = renderToString(createElement(StaticRouterProvider, { router, context, hydrate: false }));
    expect(html).toContain("product teak-bed data for product");
  });
});

function withLoaders(route: AgnosticRouteObject): AgnosticRouteObject {
  const children = "children" in route && route.children ? { children: route.children.map(withLoaders) } : {};
  return { ...route, loader: () => `data for ${route.id}`, ...children } as AgnosticRouteObject;
}
