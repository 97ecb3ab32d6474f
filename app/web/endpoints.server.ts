// The HTTP API's endpoints behind one Remix route (ADR 0016). Each endpoint is still a module of
// its own in app/routes, named by its URL as a route module is (`api.cart.add.ts` answers
// /api/cart/add, `api.orders_.$id.ts` /api/orders/:id), with its `loader` (GET, HEAD) and `action`
// (every other method). Remix no longer lists them as routes (vite.config.ts ignores them), so its
// per-request work, which grows with the number of routes, does not count them on every page; the
// API's splat route (web/api-endpoints.server) finds each request's module with these. The matching is React Router's own
// (`matchRoutes`: ranked, static segments before parameters, case-insensitive, decoded, trailing
// slashes ignored), over the endpoints alone.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { matchRoutes } from "@remix-run/react";

/** What an endpoint module exports. */
export interface EndpointModule {
  loader: (args: LoaderFunctionArgs) => unknown;
  action: (args: ActionFunctionArgs) => unknown;
}

interface EndpointRoute {
  id: string;
  path: string;
  module: EndpointModule;
}

export interface Endpoints {
  routes: EndpointRoute[];
}

/**
 * A module's URL path from its file name, by the flat-routes convention the endpoints use: a dot
 * separates segments, `$name` is a parameter, a trailing `_` (which only opts out of a layout) is
 * dropped. Anything else of the convention (splats, optional, escaped or pathless segments) is
 * refused, so a file named for it cannot quietly answer another path than Remix would give it.
 */
export function endpointPath(fileName: string): string {
  const name = fileName.replace(/^.*\//, "").replace(/\.tsx?$/, "");
  return name
    .split(".")
    .map((segment) => {
      const plain = segment.replace(/_$/, "");
      if (/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(plain)) return plain;
      if (/^\$[A-Za-z][A-Za-z0-9]*$/.test(plain)) return `:${plain.slice(1)}`;
      throw new Error(`Not an endpoint's file name: ${fileName}`);
    })
    .join("/");
}

/** The endpoints of a set of modules keyed by file path (what `import.meta.glob` gives). */
export function endpointsOf(modules: Record<string, Partial<EndpointModule>>): Endpoints {
  const routes = Object.entries(modules).map(([file, module]) => {
    if (typeof module.loader !== "function" || typeof module.action !== "function") {
      throw new Error(`${file} must export a loader and an action (otherMethods answers the methods it does not take)`);
    }
    const id = `routes/${file.replace(/^.*\//, "").replace(/\.tsx?$/, "")}`;
    return { id, path: endpointPath(file), module: module as EndpointModule };
  });
  return { routes };
}

/** The endpoint that answers a path, and its parameters; null when none does. */
export function findEndpoint(endpoints: Endpoints, pathname: string) {
  const match = matchRoutes(endpoints.routes, pathname)?.at(-1);
  return match ? { route: match.route as EndpointRoute, params: match.params } : null;
}
