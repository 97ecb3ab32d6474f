// POST /admin/login (docs/product.md, Admin Access): the Admin Access password, checked on the
// server. Right: the session gets the admin flag and a fresh id, then 303 to /admin. Wrong:
// 'Invalid password' (401), in the dialog with JavaScript, on this route's page without.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { isRouteErrorResponse, Link, useRouteError } from "@remix-run/react";
import { AdminAccessForm, useAdminConfigured } from "~/components/AdminAccess";
import { LockIcon } from "~/components/account-icons";
import { grantAdmin } from "~/web/sign-in.server";
import { isAdminRequest } from "~/web/visitor.server";
import { isAppError } from "~/lib/errors.server";
import { readForm } from "~/lib/http.server";
import { clientOf } from "~/lib/rate-limit.server";
import { checkAdminPassword } from "~/models/admin-access.server";
import { INVALID_PASSWORD } from "~/utils/admin-access";

export const meta: MetaFunction = () => [{ title: "Admin Access | Sagwan Living" }, { name: "robots", content: "noindex" }];

/** Nothing to see here by GET: the admin goes on to /admin, everyone else to /. */
export async function loader({ request }: LoaderFunctionArgs) {
  throw redirect((await isAdminRequest(request)) ? "/admin" : "/");
}

/**
 * Not a pageAction: its answer is the dialog's `{ message }`, not a re-rendered form. The
 * dialog's script (respond=inline) shows the message in place. A plain form post is answered
 * by this route's boundary: the form again with the message, status kept, and without running
 * the loader, which would send the visitor away.
 */
export async function action({ request }: ActionFunctionArgs) {
  let inline = false;
  try {
    const form = await readForm(request);
    inline = form.get("respond") === "inline";
    await checkAdminPassword(form.get("password"), clientOf(request));
    return redirect("/admin", { status: 303, headers: { "Set-Cookie": await grantAdmin(request) } });
  } catch (error) {
    if (!isAppError(error)) throw error;
    const answer = data({ message: error.message }, { status: error.status, headers: error.headers });
    if (inline) return answer;
    throw answer;
  }
}

export default function AdminLogin() {
  return null;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const configured = useAdminConfigured();
  const message = isRouteErrorResponse(error)
    ? ((error.data as { message?: string } | null)?.message ?? INVALID_PASSWORD)
    : "Something went wrong. Please try again.";
  // Without an admin password the form is replaced by the 'not configured' notice.
  return (
    <section className="container-page flex justify-center py-16">
      <div className="card w-full max-w-sm p-6">
        <div className="flex items-center gap-3">
          <span className="flex h-10 w-10 items-center justify-center rounded-full bg-wood-50 text-wood-700">
            <LockIcon className="h-5 w-5" />
          </span>
          <h1 className="text-xl font-semibold">Admin Access</h1>
        </div>
        <AdminAccessForm configured={configured} error={message} />
        <p className="mt-4 text-center text-sm">
          <Link to="/" className="text-wood-700 underline">
            Back to the shop
          </Link>
        </p>
      </div>
    </section>
  );
}
