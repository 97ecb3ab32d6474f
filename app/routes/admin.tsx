// The admin area's frame (docs/product.md: fixed sidebar, a heading with the current section's name).
// Its loader is the guard of every admin page: without a staff sign-in, any GET goes to /. The
// sidebar shows only the sections the staff member's role may open, and who is signed in.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, isRouteErrorResponse, Outlet, useMatches, useNavigation, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { Link, NavLink } from "~/components/Link";
import type { ComponentType, SVGProps } from "react";
import { ListSkeleton } from "~/components/AdminUI";
import { Logo } from "~/components/Header";
import { GridIcon, LogoutIcon, PercentIcon, ReceiptIcon, RupeeIcon, SofaIcon, TagIcon, UsersIcon } from "~/components/account-icons";
import { ClockIcon, MailIcon } from "~/components/contact-icons";
import { ReturnIcon, ShieldIcon, TruckIcon } from "~/components/service-icons";
import { StarIcon, UserIcon } from "~/components/icons";
import { adminOtherMethods } from "~/web/admin.server";
import { requireStaff } from "~/web/staff.server";
import { ACCOUNT_PATH, ADMIN_SECTIONS, homeFor, sectionsWith } from "~/utils/admin-sections";
import type { RoutePermissions } from "~/utils/staff-permissions";
import { PERMISSION_REFUSED, ROLE_LABELS, ROLE_PERMISSIONS } from "~/utils/staff-permissions";

export const meta: MetaFunction = () => [{ title: "Admin | Sagwan Living" }, { name: "robots", content: "noindex" }];

/** The root draws no storefront header or footer around the admin area. */
export const handle = { bare: true };

/** Any staff member opens the frame; each page inside names its own permission. */
export const permissions = { loader: null, action: null } satisfies RoutePermissions;

export async function loader({ request }: LoaderFunctionArgs) {
  const { actor } = await requireStaff(request, permissions.loader);
  return {
    staff: {
      name: actor.name,
      role: actor.role,
      roleLabel: ROLE_LABELS[actor.role],
      permissions: [...ROLE_PERMISSIONS[actor.role]],
    },
  };
}

/** No form posts here: a post answers 403 without a staff sign-in (as every admin action), else 405. */
export const action = adminOtherMethods(["GET"], permissions.action);

const ICONS: Record<string, ComponentType<SVGProps<SVGSVGElement>>> = {
  "/admin": GridIcon,
  "/admin/categories": TagIcon,
  "/admin/products": SofaIcon,
  "/admin/users": UsersIcon,
  "/admin/orders": ReceiptIcon,
  "/admin/returns": ReturnIcon,
  "/admin/refunds": RupeeIcon,
  "/admin/reviews": StarIcon,
  "/admin/coupons": PercentIcon,
  "/admin/delivery": TruckIcon,
  "/admin/mail": MailIcon,
  "/admin/staff": ShieldIcon,
  "/admin/audit": ClockIcon,
};

type FrameStaff = Awaited<ReturnType<typeof loader>>["staff"];

/** The signed-in staff member, when the frame's loader answered (an error page may show without it). */
function useFrameStaff(): FrameStaff | null {
  return useRouteLoaderData<typeof loader>("routes/admin")?.staff ?? null;
}

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
  "lg:fixed lg:inset-y-0 lg:left-0 lg:flex lg:w-72 lg:flex-col lg:border-b-0 lg:border-r",
].join(" ");
const TOP_BAR = [
  "sticky top-0 z-30 flex h-16 items-center justify-between gap-3",
  "border-b border-sand-200 bg-white/95 px-4 backdrop-blur sm:px-6",
].join(" ");

function Sidebar({ staff }: { staff: FrameStaff | null }) {
  const item = ({ isActive }: { isActive: boolean }) =>
    `${NAV_ITEM} ${isActive ? "bg-wood-600 text-white" : "text-stone-700 hover:bg-sand-100"}`;
  return (
    <aside className={SIDEBAR}>
      <div className="flex h-16 items-center justify-between gap-3 px-4 lg:px-5">
        <Logo />
        <span className="shrink-0 rounded-full bg-wood-50 px-2 py-0.5 text-xs font-semibold text-wood-700">Admin</span>
      </div>
      <nav aria-label="Admin" className="overflow-x-auto px-3 pb-3 lg:flex-1 lg:pb-0">
        <ul className="flex gap-1 lg:flex-col">
          {sectionsWith(staff?.permissions ?? []).map(({ to, label }) => {
            const Icon = ICONS[to] ?? GridIcon;
            return (
              <li key={to} className="shrink-0">
                <NavLink to={to} end={to === "/admin"} className={item} prefetch="intent">
                  <Icon className="h-5 w-5" /> {label}
                </NavLink>
              </li>
            );
          })}
          {staff ? (
            <li className="shrink-0 lg:hidden">
              <NavLink to={ACCOUNT_PATH} className={item} prefetch="intent">
                <UserIcon className="h-5 w-5" /> My account
              </NavLink>
            </li>
          ) : null}
        </ul>
      </nav>
      <div className="hidden border-t border-sand-200 p-3 lg:block">
        {staff ? (
          <p className="px-3 pb-2 text-sm" data-testid="signed-in-staff">
            <span className="block font-medium">{staff.name}</span>
            <span className="block text-stone-600">{staff.roleLabel}</span>
          </p>
        ) : null}
        {staff ? (
          <NavLink to={ACCOUNT_PATH} className={item} prefetch="intent">
            <UserIcon className="h-5 w-5" /> My account
          </NavLink>
        ) : null}
        <Form method="post" action="/admin/logout">
          <button
            type="submit"
            className="flex min-h-11 w-full items-center gap-3 rounded-lg px-3 text-sm font-medium text-stone-700 hover:bg-sand-100"
          >
            <LogoutIcon className="h-5 w-5" /> Logout
          </button>
        </Form>
      </div>
    </aside>
  );
}

function Frame({ children }: { children: React.ReactNode }) {
  const section = useSection();
  const staff = useFrameStaff();
  return (
    <div className="min-h-screen bg-sand-50">
      <Sidebar staff={staff} />
      <div className="lg:pl-72">
        <header className={TOP_BAR}>
          <h1 className="text-2xl font-semibold">{section}</h1>
          <div className="flex items-center gap-2">
            {staff ? (
              <span className="text-sm text-stone-600 lg:hidden">
                {staff.name} · {staff.roleLabel}
              </span>
            ) : null}
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

/** A page the staff member's role may not open: said plainly, with a way back to one it may. */
function Refused({ message, staff }: { message: string; staff: FrameStaff }) {
  const home = homeFor(staff.role);
  const label = ADMIN_SECTIONS.find((s) => s.to === home)?.label ?? "My account";
  return (
    <Frame>
      <div className="card max-w-xl p-6" data-testid="permission-refused">
        <h2 className="text-xl font-semibold">You do not have access to this page</h2>
        <p role="alert" className="mt-2 text-stone-700">
          {message}
        </p>
        <p className="mt-2 text-sm text-stone-600">
          You are signed in as {staff.name} ({staff.roleLabel}).
        </p>
        <Link to={home} className="btn-secondary mt-4">
          Go to {label}
        </Link>
      </div>
    </Frame>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const staff = useFrameStaff();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // A loader's notFoundPage carries its words as the data; other refusals as `{ message }`.
  const message = isRouteErrorResponse(error)
    ? typeof error.data === "string" && error.data
      ? error.data
      : ((error.data as { message?: string } | null)?.message ?? error.statusText)
    : "Something went wrong. Please try again.";
  if (status === 403 && staff && message === PERMISSION_REFUSED) return <Refused message={message} staff={staff} />;
  const home = staff ? homeFor(staff.role) : "/admin";
  return (
    <Frame>
      <div className="card max-w-xl p-6">
        <h2 className="text-xl font-semibold">
          {status === 404 ? "Not Found" : status === 403 ? "Admin access required" : "Something went wrong"}
        </h2>
        <p role="alert" className="mt-2 text-stone-700">
          Error: {message}
        </p>
        <Link to={home} className="btn-secondary mt-4">
          {home === "/admin" ? "Back to the dashboard" : "Back to the admin area"}
        </Link>
      </div>
    </Frame>
  );
}
