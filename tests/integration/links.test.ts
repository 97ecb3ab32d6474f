// The server draws the shop's links itself (app/components/Link.tsx) and the browser hydrates
// Remix's over them: the two must write the same <a>, or React would find a mismatch on every
// page. Each case is drawn by both inside a server render of a page and compared attribute by
// attribute (React writes them in the order it is given them, which does not matter to a browser).
import { createRequire } from "node:module";
import type { LinkProps, NavLinkProps } from "@remix-run/react";
import { Link as RemixLink, NavLink as RemixNavLink } from "@remix-run/react";
import type { ReactElement } from "react";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import type * as ReactRouterDomServer from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import { ServerLink, ServerNavLink } from "~/components/Link";

// The CommonJS build, which @remix-run/react (as loaded here and by the server) uses.
const require = createRequire(import.meta.url);
const { createStaticHandler, createStaticRouter, StaticRouterProvider } = require("react-router-dom/server") as typeof ReactRouterDomServer;

/** `element` rendered as the page at `url` (a route under a root), by React's server renderer. */
async function render(url: string, element: ReactElement): Promise<string> {
  // The shop's shapes: a page with a parameter, home, and the catch-all page for any other address.
  const routes = [
    {
      id: "root",
      path: "/",
      children: [
        { id: "category", path: "category/:slug", element },
        { id: "home", index: true, element },
        { id: "not-found", path: "*", element },
      ],
    },
  ];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://shop.test${url}`));
  if (context instanceof Response) throw new Error("no page");
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(createElement(StaticRouterProvider, { router, context, hydrate: false }));
}

/** An <a>'s attributes, sorted, and what it holds. */
function normalized(html: string) {
  const match = /^<a( [^>]*)?>([\s\S]*)<\/a>$/.exec(html);
  if (!match) return html;
  const attributes = [...(match[1] ?? "").matchAll(/ ([^\s=]+)(?:="([^"]*)")?/g)].map(([, name, value]) => `${name}=${value ?? ""}`).sort();
  return { attributes, children: match[2] };
}

async function both(url: string, server: ReactElement, remix: ReactElement) {
  return { server: normalized(await render(url, server)), remix: normalized(await render(url, remix)) };
}

const HERE = "/category/living-room?sort=price-asc";

const links: LinkProps[] = [
  { to: "/product/teak-bed", className: "flex flex-1 flex-col", children: "Teak bed" },
  { to: "/", "aria-label": "Sagwan Living home", children: createElement("span", null, "Home") },
  { to: "/search?q=sofa bed&page=2#results", children: "Search" },
  { to: "?page=2", children: "Next" },
  { to: "#reviews", children: "Reviews" },
  { to: ".", children: "Clear filters" },
  { to: "/category/living-room", prefetch: "intent", preventScrollReset: true, replace: true, children: "Living Room" },
  { to: "/about", prefetch: "viewport", children: "About" },
  { to: "/orders/3/invoice", target: "_blank", rel: "noreferrer", children: "Invoice" },
  { to: HERE, reloadDocument: true, className: "btn-secondary", children: "Try again" },
  { to: "/contact", id: "contact", title: "Write to us", tabIndex: -1, children: "Contact" },
  // The router's own cases, drawn by Remix's on the server too.
  { to: "variants", children: "Variants" },
  { to: "https://example.com/a", children: "Elsewhere" },
  { to: "/about", discover: "none", children: "About" },
  { to: { pathname: "/about", search: "?x=1" }, children: "About" },
];

const navLinks: NavLinkProps[] = [
  { to: "/category/living-room", children: "Living Room" },
  { to: "/category", className: "nav", children: "Categories" },
  { to: "/category", end: true, className: "nav", children: "Categories" },
  { to: "/", end: true, className: ({ isActive }) => (isActive ? "on" : "off"), children: "Home" },
  { to: "/about", className: ({ isActive }) => (isActive ? "on" : "off"), prefetch: "intent", children: "About" },
  { to: "/Category/Living-Room", style: ({ isActive }) => ({ fontWeight: isActive ? 700 : 400 }), children: "Case" },
  { to: "/category/living-room", "aria-current": "location", children: ({ isActive }) => (isActive ? "Here" : "There") },
  { to: "/category/living-room", caseSensitive: true, children: "Exact" },
];

describe("the server's links write what Remix's write", () => {
  it.each(links.map((props, i) => [i, props] as const))("link %i", async (_i, props) => {
    const { server, remix } = await both(HERE, createElement(ServerLink, props), createElement(RemixLink, props));
    expect(server).toEqual(remix);
  });

  it.each(navLinks.map((props, i) => [i, props] as const))("nav link %i", async (_i, props) => {
    const { server, remix } = await both(HERE, createElement(ServerNavLink, props), createElement(RemixNavLink, props));
    expect(server).toEqual(remix);
  });

  it("on a page whose path ends with a slash, and on home", async () => {
    for (const url of ["/category/living-room/", "/", "/no/such/page"]) {
      for (const to of [".", "?page=2", "#top", "/"]) {
        const { server, remix } = await both(url, createElement(ServerLink, { to }), createElement(RemixLink, { to }));
        expect(server, `${to} on ${url}`).toEqual(remix);
      }
    }
  });
});
