import type { LinkProps, NavLinkProps } from "@remix-run/react";
import { Link as RemixLink, NavLink as RemixNavLink, useLocation } from "@remix-run/react";
import { createElement, forwardRef } from "react";

/**
 * The shop's links: Remix's <Link> and <NavLink>, drawn on the server without their hooks.
 *
 * On the server, Remix's <Link> works out its href three times per link (two hooks of its own and
 * React Router's), each through the route matches, and keeps state and effects it can only use in
 * a browser: on a list page with a dozen cards that was a tenth of the server's time per page. For
 * the links this shop draws (a path, "?page=2", "#reviews"), the markup is known without any
 * of that: an <a> with the resolved href and `data-discover` (which the browser's router reads to
 * learn routes ahead of a click). So the server draws that <a> itself, with the same attributes,
 * and the browser hydrates and runs Remix's own components over it: clicks, prefetching and the
 * active state in the browser are Remix's. Any other link (an object, a route-relative path,
 * another site, ".", `relative`, prefetch="render") is Remix's on the server too.
 * tests/integration/links.test.ts holds the two to the same markup.
 */

/** The props the server's link understands; anything else goes to Remix's. */
const ROUTER_ONLY = /* @__PURE__ */ new Set([
  "to",
  "prefetch",
  "discover",
  "replace",
  "state",
  "preventScrollReset",
  "reloadDocument",
  "relative",
  "viewTransition",
  "unstable_viewTransition",
]);

/** A `to` whose href the server can write as React Router resolves it, against the page's path, or null. */
export function serverHref(to: LinkProps["to"], pathname: string): string | null {
  if (typeof to !== "string") return null;
  if (to.startsWith("/")) return to.startsWith("//") || to.endsWith("?") || to.endsWith("#") ? null : to;
  // A query or a fragment alone stays on the page's path (React Router drops the page's own query).
  // Anything else relative ("variants", ".") the router resolves against the matched routes.
  if ((to.startsWith("?") || to.startsWith("#")) && to.length > 1) return pathname + to;
  return null;
}

function canDraw(props: Pick<LinkProps, "prefetch" | "relative" | "discover">) {
  const prefetch = props.prefetch ?? "none";
  return props.relative === undefined && prefetch !== "render" && (props.discover ?? "render") === "render";
}

function drawAnchor(props: { reloadDocument?: boolean }, href: string, ref: unknown, extra?: Record<string, unknown>) {
  const anchor: Record<string, unknown> = { ...extra };
  for (const key in props) if (!ROUTER_ONLY.has(key)) anchor[key] = (props as Record<string, unknown>)[key];
  anchor.ref = ref;
  if (!props.reloadDocument) anchor["data-discover"] = "true";
  anchor.href = href;
  return createElement("a", anchor);
}

/** A link to a path of this shop ("/…") needs no hook at all. */
const isPath = (to: LinkProps["to"]) => typeof to === "string" && to.startsWith("/");

const ServerLinkWithLocation = /* @__PURE__ */ forwardRef<HTMLAnchorElement, LinkProps>(function ServerLinkWithLocation(props, ref) {
  const href = serverHref(props.to, useLocation().pathname);
  return href === null ? <RemixLink {...props} ref={ref} /> : drawAnchor(props, href, ref);
});

/** The server's <Link>: see the top of this file. */
export const ServerLink = /* @__PURE__ */ forwardRef<HTMLAnchorElement, LinkProps>(function ServerLink(props, ref) {
  if (!canDraw(props)) return <RemixLink {...props} ref={ref} />;
  if (!isPath(props.to)) return <ServerLinkWithLocation {...props} ref={ref} />;
  const href = serverHref(props.to, "/");
  return href === null ? <RemixLink {...props} ref={ref} /> : drawAnchor(props, href, ref);
});

/** Whether a link to `href` is the page shown (or, unless `end`, one above it), as React Router's NavLink decides. */
export function isActivePath(pathname: string, href: string, end: boolean) {
  const target = href.split(/[?#]/)[0].toLowerCase();
  const here = pathname.toLowerCase();
  if (here === target) return true;
  if (end) return false;
  const base = target !== "/" && target.endsWith("/") ? target.length - 1 : target.length;
  return here.startsWith(target) && here.charAt(base) === "/";
}

/** The server's <NavLink>: its class, style, children and aria-current as React Router's for the page shown. */
export const ServerNavLink = /* @__PURE__ */ forwardRef<HTMLAnchorElement, NavLinkProps>(function ServerNavLink(props, ref) {
  const { pathname } = useLocation();
  const href = canDraw(props) && props.caseSensitive !== true ? serverHref(props.to, pathname) : null;
  if (href === null) return <RemixNavLink {...props} ref={ref} />;
  const { className, style, children, end = false, caseSensitive: _caseSensitive, "aria-current": ariaCurrent = "page", ...rest } = props;
  const state = { isActive: isActivePath(pathname, href, end), isPending: false, isTransitioning: false };
  return drawAnchor(rest, href, ref, {
    "aria-current": state.isActive ? ariaCurrent : undefined,
    className: typeof className === "function" ? className(state) : [className, state.isActive ? "active" : null].filter(Boolean).join(" "),
    style: typeof style === "function" ? style(state) : style,
    children: typeof children === "function" ? children(state) : children,
  });
});

/** A link: Remix's, drawn on the server by ServerLink. */
export const Link = import.meta.env.SSR ? ServerLink : RemixLink;
/** A link that shows whether it is the page shown: Remix's, drawn on the server by ServerNavLink. */
export const NavLink = import.meta.env.SSR ? ServerNavLink : RemixNavLink;
