// The admin area's frame (docs/product.md: fixed sidebar, a heading with the current section's name).
// Its loader is the guard of every admin page: without the admin flag, any GET goes to /.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, isRouteErrorResponse, Link, NavLink, Outlet, useMatches, useNavigation, useRouteError } from "@remix-run/react";
import type { ComponentType, SVGProps } from "react";
import { ListSkeleton } from "~/components/AdminUI";
import { Logo } from "~/components/Header";
import { GridIcon, LogoutIcon, PercentIcon, ReceiptIcon, RupeeIcon, SofaIcon, TagIcon, UsersIcon } from "~/components/account-icons";
import { MailIcon } from "~/components/contact-icons";
import { ReturnIcon, TruckIcon } from "~/components/service-icons";
import { StarIcon } from "~/components/icons";
import { adminOtherMethods } from "~/web/admin.server";
import { requireAdmin } from "~/web/visitor.server";

export const meta: MetaFunction = () => [{ title: "Admin | Sagwan Living" }, { name: "robots", content: "noindex" }];

/** The root draws no storefront header or footer around the admin area. */
export const handle = { bare: true };

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return { ok: true };
}

/** No form posts here: a post answers 403 without the admin flag (as every admin action), else 405. */
export const action = adminOtherMethods(["GET"]);

const SECTIONS: { to: string; label: string; icon: ComponentType<SVGProps<SVGSVGElement>> }[] = [
  { to: "/admin", label: "Dashboard", icon: GridIcon },
  { to: "/admin/categories", label: "Categories", icon: TagIcon },
  { to: "/admin/products", label: "Products", icon: SofaIcon },
  { to: "/admin/users", label: "Users", icon: UsersIcon },
  { to: "/admin/orders", label: "Orders", icon: ReceiptIcon },
  { to: "/admin/returns", label: "Returns", icon: ReturnIcon },
  { to: "/admin/refunds", label: "Refunds", icon: RupeeIcon },
  { to: "/admin/reviews", label: "Reviews", icon: StarIcon },
  { to: "/admin/coupons", label: "Coupons", icon: PercentIcon },
  { to: "/admin/delivery", label: "Delivery", icon: TruckIcon },
  { to: "/admin/mail", label: "Mail", icon: MailIcon },
];

/** The section a child route names in its `handle` (Dashboard when none does). */
function useSection(): string {
  const named = useMatches()
    .map((m) => (m.handle as { section?: string } | undefined)?.section)
    .filter(Boolean);
  return named.at(-1) ?? "Dashboard";
}

const LISTS = [
  "/admin/categories",
  "/admin/products",
  "/admin/users",
  "/admin/orders",
  "/admin/returns",
  "/admin/refunds",
  "/admin/reviews",
  "/admin/coupons",
  "/admin/delivery",
  "/admin/mail",
];

const NAV_ITEM = "flex min-h-11 items-center gap-3 rounded-lg px-3 text-sm font-medium transition-colors";
const SIDEBAR = [
  "border-b border-sand-200 bg-white",
  "lg:fixed lg:inset-y-0 lg:left-0 lg:flex lg:w-64 lg:flex-col lg:border-b-0 lg:border-r",
].join(" ");
const TOP_BAR = [
  "sticky top-0 z-30 flex h-16 items-center justify-between gap-3",
  "border-b border-sand-200 bg-white/95 px-4 backdrop-blur sm:px-6",
].join(" ");

function Sidebar() {
  const item = ({ isActive }: { isActive: boolean }) =>
    `${NAV_ITEM} ${isActive ? "bg-wood-600 text-white" : "text-stone-700 hover:bg-sand-100"}`;
  return (
    <aside className={SIDEBAR}>
      <div className="flex h-16 items-center justify-between gap-3 px-4 lg:px-5">
        <Logo />
        <span className="rounded-full bg-wood-50 px-2 py-0.5 text-xs font-semibold text-wood-700">Admin</span>
      </div>
      <nav aria-label="Admin" className="overflow-x-auto px-3 pb-3 lg:flex-1 lg:pb-0">
        <ul className="flex gap-1 lg:flex-col">
          {SECTIONS.map(({ to, label, icon: Icon }) => (
            <li key={to} className="shrink-0">
              <NavLink to={to} end={to === "/admin"} className={item} prefetch="intent">
                <Icon className="h-5 w-5" /> {label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Form method="post" action="/admin/logout" className="hidden border-t border-sand-200 p-3 lg:block">
        <button
          type="submit"
          className="flex min-h-11 w-full items-center gap-3 rounded-lg px-3 text-sm font-medium text-stone-700 hover:bg-sand-100"
        >
          <LogoutIcon className="h-5 w-5" /> Logout
        </button>
      </Form>
    </aside>
  );
}

function Frame({ children }: { children: React.ReactNode }) {
  const section = useSection();
  return (
    <div className="min-h-screen bg-sand-50">
      <Sidebar />
      <div className="lg:pl-64">
        <header className={TOP_BAR}>
          <h1 className="text-2xl font-semibold">{section}</h1>
          <div className="flex items-center gap-2">
            <Link to="/" className="btn-ghost text-sm">
              View shop
            </Link>
            <Form method="post" action="/admin/logout" className="lg:hidden">
              <button type="submit" className="btn-secondary text-sm">
                Logout
              </button>
            </Form>
          </div>
        </header>
        <main id="main" className="p-4 sm:p-6">
          {children}
        </main>
      </div>
    </div>
  );
}

export default function AdminLayout() {
  const navigation = useNavigation();
  // A slow move to another list shows its skeleton rather than the old page (docs/product.md: loading skeleton).
  const target = navigation.state === "loading" ? navigation.location.pathname : null;
  const here = typeof window === "undefined" ? null : window.location.pathname;
  const showSkeleton = target !== null && target !== here && LISTS.includes(target);
  return <Frame>{showSkeleton ? <ListSkeleton /> : <Outlet />}</Frame>;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // A loader's notFoundPage carries its words as the data; other refusals as `{ message }`.
  const message = isRouteErrorResponse(error)
    ? typeof error.data === "string" && error.data
      ? error.data
      : ((error.data as { message?: string } | null)?.message ?? error.statusText)
    : "Something went wrong. Please try again.";
  return (
    <Frame>
      <div className="card max-w-xl p-6">
        <h2 className="text-xl font-semibold">
          {status === 404 ? "Not Found" : status === 403 ? "Admin access required" : "Something went wrong"}
        </h2>
        <p role="alert" className="mt-2 text-stone-700">
          Error: {message}
        </p>
        <Link to="/admin" className="btn-secondary mt-4">
          Back to the dashboard
        </Link>
      </div>
    </Frame>
  );
}
