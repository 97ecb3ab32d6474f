import { Form, useLocation } from "@remix-run/react";
import { Link, NavLink } from "./Link";
import type { MouseEvent, ReactNode, SyntheticEvent } from "react";
import { useEffect, useRef, useState } from "react";
import { CartIcon, CloseIcon, HeartIcon, MenuIcon, SearchIcon, UserIcon } from "./icons";
import { SearchBox } from "./SearchBox";

export const NAV_LINKS = [
  { to: "/", label: "Home" },
  { to: "/categories", label: "Categories" },
  { to: "/about", label: "About Us" },
  { to: "/contact", label: "Contact Us" },
] as const;

const BADGE =
  "absolute -right-0.5 -top-0.5 flex h-5 min-w-5 items-center justify-center rounded-full px-1 text-xs font-semibold text-white";
/** The account menu: hidden until the account button is hovered or focused. */
const ACCOUNT_MENU = [
  "invisible absolute right-0 top-full w-48 rounded-xl border border-sand-200 bg-white p-2 opacity-0 shadow-lg transition",
  "group-focus-within:visible group-focus-within:opacity-100 group-hover:visible group-hover:opacity-100",
].join(" ");
const MENU_BUTTON =
  "flex h-11 w-11 cursor-pointer list-none items-center justify-center rounded-full hover:bg-sand-100 [&::-webkit-details-marker]:hidden";
const MOBILE_PANEL = "fixed inset-x-0 top-16 bottom-0 z-40 overflow-y-auto border-t border-sand-200 bg-white px-4 pb-8 pt-4 shadow-xl";
/** Below xl, the search form opens under the header from its icon (a details element: no JavaScript needed). */
const SEARCH_PANEL = "fixed inset-x-0 top-16 z-40 border-t border-sand-200 bg-white px-4 py-3 shadow-lg";
const mobileLink = ({ isActive }: { isActive: boolean }) =>
  `flex min-h-12 items-center border-b border-sand-100 px-2 text-base font-medium ${isActive ? "text-wood-700" : "text-ink"}`;

export interface HeaderUser {
  name: string;
}

export function firstName(name: string) {
  return name.trim().split(/\s+/)[0] ?? name;
}

/** Solid after 50 px of scroll when JavaScript runs; without it the header is always solid. */
function useScrolledPast(px: number) {
  const [scrolled, setScrolled] = useState(true);
  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > px);
    onScroll();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, [px]);
  return scrolled;
}

export function Logo({ onClick }: { onClick?: (event: MouseEvent<HTMLAnchorElement>) => void }) {
  return (
    <Link to="/" onClick={onClick} className="flex min-h-11 items-center gap-2" aria-label="Sagwan Living home">
      <svg width="32" height="32" viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="#8b5a32" />
        <path d="M8 20h16v3H8zM10 12h12v6H10zM9 23v3M23 23v3" stroke="#fbf6f0" strokeWidth="2" fill="none" strokeLinecap="round" />
      </svg>
      <span className="whitespace-nowrap font-display text-lg font-semibold tracking-tight text-ink min-[400px]:text-xl">
        Sagwan Living
      </span>
    </Link>
  );
}

/** An icon link with a count badge, shown only above 0. */
function CountLink({
  to,
  label,
  count,
  testId,
  badgeClass,
  children,
}: {
  to: string;
  label: string;
  count: number;
  testId: string;
  badgeClass: string;
  children: ReactNode;
}) {
  return (
    <Link
      to={to}
      className="relative inline-flex h-11 w-11 items-center justify-center rounded-full text-ink hover:bg-sand-100"
      aria-label={label}
    >
      {children}
      {count > 0 ? (
        <span data-testid={testId} className={`${BADGE} ${badgeClass}`}>
          {count}
        </span>
      ) : null}
    </Link>
  );
}

export function Header({
  cartCount,
  wishlistCount,
  user,
  onLogoClick,
}: {
  cartCount: number;
  wishlistCount: number;
  user: HeaderUser | null;
  onLogoClick?: (event: MouseEvent<HTMLAnchorElement>) => void;
}) {
  const scrolled = useScrolledPast(50);
  const location = useLocation();
  const menuRef = useRef<HTMLDetailsElement>(null);
  const searchRef = useRef<HTMLDetailsElement>(null);

  // The mobile menu and search close on every route change.
  useEffect(() => {
    if (menuRef.current) menuRef.current.open = false;
    if (searchRef.current) searchRef.current.open = false;
  }, [location.pathname, location.search]);

  // One panel at a time: opening the search closes the menu and the other way round; an opened search takes the focus.
  const onPanelToggle = (event: SyntheticEvent<HTMLDetailsElement>) => {
    const panel = event.currentTarget;
    if (!panel.open) return;
    const other = panel === searchRef.current ? menuRef.current : searchRef.current;
    if (other) other.open = false;
    if (panel === searchRef.current) panel.querySelector("input")?.focus();
  };

  const navClass = ({ isActive }: { isActive: boolean }) =>
    [
      "whitespace-nowrap rounded-md px-3 py-2 text-sm font-medium transition-colors",
      isActive ? "text-wood-700" : "text-stone-700 hover:text-wood-700",
    ].join(" ");

  return (
    <header
      data-scrolled={scrolled ? "true" : "false"}
      className={`fixed inset-x-0 top-0 z-40 print:hidden transition-colors duration-300 ${
        scrolled ? "border-b border-sand-200 bg-white shadow-sm" : "border-b border-transparent bg-white/85 backdrop-blur"
      }`}
    >
      <div className="container-page flex h-16 items-center justify-between gap-2 sm:gap-4">
        <Logo onClick={onLogoClick} />
        <nav aria-label="Main" className="hidden items-center gap-1 lg:flex">
          {NAV_LINKS.map((l) => (
            <NavLink key={l.to} to={l.to} end={l.to === "/"} className={navClass} prefetch="intent">
              {l.label}
            </NavLink>
          ))}
        </nav>
        <div className="flex items-center sm:gap-1">
          <SearchBox id="search-wide" className="mr-2 hidden w-64 xl:block" />
          <details ref={searchRef} className="xl:hidden" onToggle={onPanelToggle}>
            <summary className={MENU_BUTTON} aria-label="Open search">
              <SearchIcon className="h-6 w-6" />
            </summary>
            <div className={SEARCH_PANEL}>
              <SearchBox id="search-narrow" />
            </div>
          </details>
          {user ? (
            <div className="group relative hidden lg:block">
              <button type="button" className="btn-ghost" aria-haspopup="true">
                <UserIcon className="h-5 w-5" />
                <span>{firstName(user.name)}</span>
              </button>
              <div className={ACCOUNT_MENU}>
                <Link to="/profile" className="block rounded-md px-3 py-2 text-sm hover:bg-sand-100">
                  My Profile
                </Link>
                <Link to="/orders" className="block rounded-md px-3 py-2 text-sm hover:bg-sand-100">
                  Order History
                </Link>
                <Form method="post" action="/logout">
                  <button type="submit" className="block w-full rounded-md px-3 py-2 text-left text-sm hover:bg-sand-100">
                    Logout
                  </button>
                </Form>
              </div>
            </div>
          ) : (
            <Link to="/login" className="btn-ghost hidden lg:inline-flex">
              Login
            </Link>
          )}
          <CountLink
            to="/wishlist"
            label={`Wishlist, ${wishlistCount} saved`}
            count={wishlistCount}
            testId="wishlist-count"
            badgeClass="bg-stone-700"
          >
            <HeartIcon className="h-6 w-6" />
          </CountLink>
          <CountLink
            to="/cart"
            label={`Cart, ${cartCount} ${cartCount === 1 ? "item" : "items"}`}
            count={cartCount}
            testId="cart-count"
            badgeClass="bg-wood-600"
          >
            <CartIcon className="h-6 w-6" />
          </CountLink>
          <details ref={menuRef} className="group/menu lg:hidden" onToggle={onPanelToggle}>
            <summary className={MENU_BUTTON} aria-label="Menu">
              <MenuIcon className="h-6 w-6 group-open/menu:hidden" />
              <CloseIcon className="hidden h-6 w-6 group-open/menu:block" />
            </summary>
            <div className={MOBILE_PANEL}>
              <nav aria-label="Mobile" className="flex flex-col">
                {NAV_LINKS.map((l) => (
                  <NavLink key={l.to} to={l.to} end={l.to === "/"} className={mobileLink}>
                    {l.label}
                  </NavLink>
                ))}
                {user ? (
                  <>
                    <p className="mt-6 flex items-center gap-2 px-2 pb-2 text-sm font-semibold text-stone-600">
                      <UserIcon className="h-5 w-5" /> {firstName(user.name)}
                    </p>
                    <Link to="/profile" className="flex min-h-12 items-center border-b border-sand-100 px-2">
                      My Profile
                    </Link>
                    <Link to="/orders" className="flex min-h-12 items-center border-b border-sand-100 px-2">
                      Order History
                    </Link>
                    <Form method="post" action="/logout">
                      <button type="submit" className="flex min-h-12 w-full items-center px-2 text-left">
                        Logout
                      </button>
                    </Form>
                  </>
                ) : (
                  <Link to="/login" className="btn-primary mt-6">
                    Login / Register
                  </Link>
                )}
              </nav>
            </div>
          </details>
        </div>
      </div>
    </header>
  );
}
