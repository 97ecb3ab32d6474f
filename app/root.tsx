import "./tailwind.css";
import frauncesUrl from "@fontsource-variable/fraunces/files/fraunces-latin-wght-normal.woff2?url";
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import type { ShouldRevalidateFunction } from "@remix-run/react";
import { data } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useNavigation,
  useNavigationType,
  useRouteLoaderData,
} from "@remix-run/react";
import type { ReactNode } from "react";
import { lazy, Suspense, useEffect, useMemo } from "react";
import { ErrorPage } from "~/components/ErrorPage";
import { Header } from "~/components/Header";
import { LaterRegion, onDemand, pageHydrated, useNavigationsAfterRegions } from "~/components/LaterRegion";
import { hasPendingPage, useSlowNavigationTarget } from "~/hooks/useSlowNavigation";
import { Toasts } from "~/components/Toasts";
import { useOptimisticCartCount } from "~/hooks/useCartFetcher";
import { cartCount } from "~/models/cart.server";
import { storefront } from "~/models/catalogue/storefront.server";
import { wishlistCount } from "~/models/wishlist.server";
import { useLogoClicks } from "~/hooks/useLogoClicks";
import { adminConfigured } from "~/web/admin.server";
import { env } from "~/lib/env.server";
import { currentCartId, currentWishlistId, getUser } from "~/web/visitor.server";
import { sitemapOrigin } from "~/lib/sitemap.server";
import { readToasts } from "~/lib/toast.server";
import type { RootCartData } from "~/utils/cart";
import { useNonce } from "~/hooks/useNonce";

export const meta: MetaFunction = () => [
  { title: "Sagwan Living | Handcrafted Furniture Online in India" },
  {
    name: "description",
    content: "Sofas, beds, dining sets, office and outdoor furniture, handcrafted in solid wood and delivered across India.",
  },
];

/**
 * The heading font is asked for with the stylesheet instead of after it (ADR 0016): without this
 * the browser only finds it once the CSS is in and a heading laid out, one more round trip before
 * the first paint on a slow phone.
 */
export const links: LinksFunction = () => [{ rel: "preload", href: frauncesUrl, as: "font", type: "font/woff2", crossOrigin: "anonymous" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const [user, cartId, wishlistId, categories, { toasts, headers }] = await Promise.all([
    getUser(request),
    currentCartId(request),
    currentWishlistId(request),
    storefront.categories(),
    readToasts(request),
  ]);
  // What components read of it (useRootCartData) is typed in utils/cart.
  const cart: RootCartData = { hasCart: cartId !== null, cartCount: await cartCount(cartId) };
  return data(
    {
      ...cart,
      wishlistCount: await wishlistCount(wishlistId),
      // Only what the footer's links show.
      footerCategories: categories.map(({ slug, title }) => ({ slug, title })),
      toasts,
      // Only what the header shows: the name (it prints the first word).
      user: user ? { name: user.name } : null,
      year: new Date().getFullYear(),
      // The absolute origin canonical links and Open Graph tags name (utils/seo).
      siteUrl: sitemapOrigin(request).origin,
      // Whether the built-in owner may sign in with ADMIN_PASSWORD alone (the dialog says so).
      adminConfigured: adminConfigured() && env.ADMIN_PASSWORD_LOGIN,
    },
    { headers: headers ?? undefined },
  );
}

/**
 * The Admin Access dialog: rendered by the server (open at /?admin-access, for a browser without
 * JavaScript), loaded by the browser only once it opens, since almost no visitor ever does.
 */
const AdminAccessDialog = import.meta.env.SSR
  ? (await import("~/components/AdminAccess")).AdminAccessDialog
  : lazy(() => import("~/components/AdminAccess").then((m) => ({ default: m.AdminAccessDialog })));

/** The footer, below every page's fold: its code loads at the visitor's first interaction (components/LaterRegion). */
const Footer = onDemand(import.meta.env.SSR ? (await import("~/components/Footer")).Footer : null, () =>
  import("~/components/Footer").then((m) => m.Footer),
);

/** A list page's loading text and skeleton, shown only during a slow navigation: loaded once a navigation starts. */
const loadPendingPage = () => import("~/components/PendingPage");
const PendingPage = lazy(() => loadPendingPage().then((m) => ({ default: m.PendingPage })));

/**
 * The header's user and counts, the footer's categories and the toasts change only when something
 * is posted (an action: the cart, the wishlist, a sign-in or out, a toast from its redirect), so a
 * plain navigation leaves the root's data as it is (as the Hydrogen skeleton's root does). A
 * revalidation asked for on the same page (useRevalidator) still reads it again.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formMethod, currentUrl, nextUrl, defaultShouldRevalidate }) => {
  if (formMethod && formMethod.toUpperCase() !== "GET") return defaultShouldRevalidate;
  if (currentUrl.href === nextUrl.href) return defaultShouldRevalidate;
  return false;
};

const SKIP_LINK = [
  "sr-only focus:not-sr-only focus:fixed focus:left-4 focus:top-4 focus:z-50",
  "focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:shadow",
].join(" ");

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en-IN">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#8b5a32" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-screen flex-col">
        <a href="#main" className={SKIP_LINK}>
          Skip to content
        </a>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

/** Routes whose module exports `handle = { bare: true }` (the admin area) draw their own frame. */
function useBareLayout() {
  return useMatches().some((m) => (m.handle as { bare?: boolean } | undefined)?.bare === true);
}

function Shell({ children }: { children: ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  const cartCount = useOptimisticCartCount(root?.cartCount ?? 0);
  const location = useLocation();
  // docs/product.md: five clicks on the home page's logo open the Admin Access dialog. Without
  // JavaScript there are no clicks to count: /?admin-access renders it open.
  const onHome = location.pathname === "/";
  const admin = useLogoClicks(onHome);
  useNavigationsAfterRegions();
  const askedWithoutScript = onHome && new URLSearchParams(location.search).has("admin-access");
  // Made again only when its data changes: the footer may still wait for the visitor's first
  // interaction (components/LaterRegion), and a new element from an update of the shell's own
  // state (the cart count, the logo's clicks) would make React draw it anew.
  const footerCategories = root?.footerCategories;
  const year = root?.year;
  const footer = useMemo(
    () => (
      <LaterRegion demand={Footer}>
        <Footer.Component categories={footerCategories ?? []} year={year ?? new Date().getFullYear()} />
      </LaterRegion>
    ),
    [footerCategories, year],
  );
  if (useBareLayout()) {
    return (
      <>
        {children}
        <Toasts toasts={root?.toasts ?? []} />
      </>
    );
  }
  return (
    <>
      <Header cartCount={cartCount} wishlistCount={root?.wishlistCount ?? 0} user={root?.user ?? null} onLogoClick={admin.onLogoClick} />
      {admin.open || askedWithoutScript ? (
        <Suspense fallback={null}>
          <AdminAccessDialog builtinOwner={root?.adminConfigured ?? false} onClose={admin.open ? admin.close : undefined} />
        </Suspense>
      ) : null}
      <main id="main" className="flex-1 pt-16 print:pt-0">
        {children}
      </main>
      {footer}
      <Toasts toasts={root?.toasts ?? []} />
    </>
  );
}

export default function App() {
  // A marker for browser tests (and CSS) that the page has hydrated and is interactive, its regions
  // below the fold included (components/LaterRegion).
  useEffect(() => {
    pageHydrated();
    document.documentElement.dataset.hydrated = "true";
  }, []);
  // docs/product.md: the page scrolls to the top on every route change. ScrollRestoration does this as the
  // new page commits; a page whose content arrives after that (a slow list swapping out its
  // skeleton) could leave the browser's scroll anchoring holding the old position, so the top
  // is asserted once more after paint. Back and forward keep their restored positions.
  const { pathname, key } = useLocation();
  const navigationType = useNavigationType();
  // The location the page shows: the browser's address changes as a navigation completes, and
  // React draws the new page a moment later (a transition). Browser tests wait for this to match
  // history.state's key before they read the page (tests/support/e2e/fixtures.ts).
  useEffect(() => {
    document.documentElement.dataset.location = key;
  }, [key]);
  useEffect(() => {
    if (navigationType !== "POP" && !window.location.hash) window.scrollTo(0, 0);
  }, [pathname, navigationType]);
  // A slow navigation to a list page shows that page's loading text and skeleton (docs/product.md).
  const slowTarget = useSlowNavigationTarget();
  const navigating = useNavigation().state === "loading";
  useEffect(() => {
    if (navigating) void loadPendingPage();
  }, [navigating]);
  return (
    <Shell>
      {slowTarget && hasPendingPage(slowTarget) ? (
        <Suspense fallback={null}>
          <PendingPage path={slowTarget} />
        </Suspense>
      ) : (
        <Outlet />
      )}
    </Shell>
  );
}

export function ErrorBoundary() {
  return (
    <Shell>
      <ErrorPage />
    </Shell>
  );
}
