// POST /admin/login (contract.md 'Pages'): the Admin Access password, checked on the server.
// Right: the session gets the admin flag and a fresh id, then 303 to /admin. Wrong: 'Invalid
// password' (401), in the dialog with JavaScript, on this route's page without.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { isRouteErrorResponse, Link, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { AdminAccessForm } from "~/components/AdminAccess";
import { LockIcon } from "~/components/icons";
import { adminConfigured, grantAdmin, isAdminPassword } from "~/web/admin.server";
import { isAdminRequest } from "~/web/auth.server";
import { AppError } from "~/lib/errors.server";
import { readForm } from "~/lib/http.server";
import { assertUnderLimit, LIMITS, rateLimitRequest } from "~/lib/rate-limit.server";
import type { loader as rootLoader } from "~/root";

export const meta: MetaFunction = () => [{ title: "Admin Access | Sagwan Living" }, { name: "robots", content: "noindex" }];

export const INVALID_PASSWORD = "Invalid password";
const NOT_CONFIGURED_MESSAGE = "Admin access is not configured";

/** Nothing to see here by GET: the admin goes on to /admin, everyone else to /. */
export async function loader({ request }: LoaderFunctionArgs) {
  throw redirect((await isAdminRequest(request)) ? "/admin" : "/");
}

export async function action({ request }: ActionFunctionArgs) {
  let inline = false;
  try {
    const form = await readForm(request);
    inline = form.get("respond") === "inline";
    if (!adminConfigured()) throw new AppError(403, NOT_CONFIGURED_MESSAGE);
    // Only wrong passwords count, so nobody can lock the admin out by spending the tries.
    await assertUnderLimit(LIMITS.adminLogin, request, "admin");
    const password = form.get("password");
    if (typeof password !== "string" || password.length > 1000 || !isAdminPassword(password)) {
      await rateLimitRequest(LIMITS.adminLogin, request, "admin");
      throw new AppError(401, INVALID_PASSWORD);
    }
    return redirect("/admin", { status: 303, headers: { "Set-Cookie": await grantAdmin(request) } });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const answer = data({ message: error.message }, { status: error.status, headers: error.headers });
    // The dialog's script (respond=inline) shows the message in place. A plain form post is
    // answered by this route's boundary: the form again with the message, status kept, and
    // without running the loader, which would send the visitor away.
    if (inline) return answer;
    throw answer;
  }
}

export default function AdminLogin() {
  return null;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const message = isRouteErrorResponse(error) ? ((error.data as { message?: string } | null)?.message ?? INVALID_PASSWORD) : "Something went wrong. Please try again.";
  return (
    <section className="container-page flex justify-center py-16">
      <div className="card w-full max-w-sm p-6">
        <div className="flex items-center gap-3">
          <span className="flex h-10 w-10 items-center justify-center rounded-full bg-wood-50 text-wood-700"><LockIcon className="h-5 w-5" /></span>
          <h1 className="text-xl font-semibold">Admin Access</h1>
        </div>
        <AdminAccessForm configured={root?.adminConfigured ?? false} error={message === NOT_CONFIGURED_MESSAGE ? undefined : message} />
        <p className="mt-4 text-center text-sm"><Link to="/" className="text-wood-700 underline">Back to the shop</Link></p>
      </div>
    </section>
  );
}
