// The label a request is counted under in the metrics: the id of the Remix route that answers its
// path ("routes/product.$slug"), never the path itself (a label per product would be a new series
// per URL). Matched as Remix matches: react-router's matchRoutes over the build's route tree, built
// the way Remix builds it; a single-fetch data request (`/product/x.data`, `/_root.data`) is counted
// under the route of its page.
//
// matchRoutes ranks every route of the tree on each call (about 0.5 ms for the shop's hundred
// routes), so the tree is split once by the first URL segment: a path is matched against the root's
// children whose path starts with that same segment, plus those that could match any first segment
// (parameters, splats, optional segments, pathless layouts, the index). The answer is the same, for
// a handful of routes' work.
import type { ServerBuild } from "@remix-run/node";
import { matchRoutes } from "@remix-run/react";

interface RouteNode {
  id: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children?: RouteNode[];
}

function tree(routes: ServerBuild["routes"], parentId: string | undefined): RouteNode[] {
  return Object.values(routes)
    .filter((route) => route.parentId === parentId)
    .map((route) => ({
      id: route.id,
      path: route.path,
      index: route.index,
      caseSensitive: route.caseSensitive,
      ...(route.index ? {} : { children: tree(routes, route.id) }),
    }));
}

/** The static first segment of a route's path ("product" of "product/:slug"), lower-cased; null when it could match any. */
function staticHead(path: string | undefined): string | null {
  const head = path?.replace(/^\//, "").split("/")[0];
  return head && !/[:*?()]/.test(head) ? head.toLowerCase() : null;
}

function firstSegment(pathname: string): string {
  const head = pathname.split("/")[1] ?? "";
  try {
    return decodeURIComponent(head).toLowerCase();
  } catch {
    return head.toLowerCase();
  }
}

/**
 * A function from a request's path to the id of the deepest route that matches it ("unmatched" when
 * none does). `within` names routes that answer for modules of their own (the API's splat route and
 * its endpoints): the id of the module that answers the path is the label, when one does.
 */
export function routeLabeller(
  routes: ServerBuild["routes"],
  within: Record<string, (pathname: string) => string | null> = {},
): (pathname: string) => string {
  const roots = tree(routes, undefined);
  // Each root's children split by their static first segment; the rest go with every segment.
  const bySegment = new Map<string, RouteNode[]>();
  const anySegment: RouteNode[][] = [];
  const anyTree = roots.map((root) => {
    const open = (root.children ?? []).filter((child) => staticHead(child.path) === null);
    anySegment.push(open);
    return { ...root, children: open };
  });
  roots.forEach((root, i) => {
    for (const child of root.children ?? []) {
      const head = staticHead(child.path);
      if (head === null) continue;
      const key = `${i}/${head}`;
      bySegment.set(key, [...(bySegment.get(key) ?? []), child]);
    }
  });
  const trees = new Map<string, RouteNode[]>();
  for (const key of bySegment.keys()) {
    const head = key.slice(key.indexOf("/") + 1);
    if (trees.has(head)) continue;
    trees.set(
      head,
      roots.map((root, i) => ({ ...root, children: [...(bySegment.get(`${i}/${head}`) ?? []), ...anySegment[i]!] })),
    );
  }
  return (pathname) => {
    const page = pathname.endsWith(".data") ? pathname.slice(0, -".data".length).replace(/^\/_root$/, "/") : pathname;
    const candidates = trees.get(firstSegment(page)) ?? anyTree;
    const matches = matchRoutes(candidates as Parameters<typeof matchRoutes>[0], page);
    const id = matches?.at(-1)?.route.id ?? "unmatched";
    return within[id]?.(page) ?? id;
  };
}
