// POST /admin/login (docs/product.md Admin Access, docs/decisions/0033): the staff sign-in's first
// step. `email` + `password`: a staff account's password checked on the server; right and no code
// needed → a fresh session signed in as the staff member, 303 to /admin; a code needed → the
// session keeps a five-minute pending step and the visitor goes on to /admin/login/code (or, with
// JavaScript, the dialog shows the code form), or to /admin/login/two-step when the account must
// set up two-step sign-in first. `password` alone (the email empty): the shop's built-in owner
// with ADMIN_PASSWORD (the contract's admin flag), unless ADMIN_PASSWORD_LOGIN=off (403). A refusal:
// its message in the dialog with JavaScript, on this route's page without.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { isRouteErrorResponse, useRouteError } from "@remix-run/react";
import { Link } from "~/components/Link";
import { AdminAccessForm, AdminAccessHeading, useAdminConfigured } from "~/components/AdminAccess";
import { beginStaffCodeStep, completeStaffSignIn, grantAdmin } from "~/web/sign-in.server";
import { getStaffVisitor } from "~/web/staff.server";
import { db } from "~/lib/db.server";
import { isAppError } from "~/lib/errors.server";
import { readForm } from "~/lib/http.server";
import { clientOf } from "~/lib/rate-limit.server";
import { checkAdminPassword } from "~/models/admin-access.server";
import { recordAudit } from "~/models/audit.server";
import { verifyStaffPassword } from "~/models/staff/sign-in.server";
import { BUILTIN_OWNER, twoStepRequiredFor } from "~/models/staff/staff.server";
import { INVALID_PASSWORD } from "~/utils/admin-access";

export const meta: MetaFunction = () => [{ title: "Admin Access | Sagwan Living" }, { name: "robots", content: "noindex" }];

/** Nothing to see here by GET: staff go on to /admin, everyone else to /. */
export async function loader({ request }: LoaderFunctionArgs) {
  throw redirect((await getStaffVisitor(request)) ? "/admin" : "/");
}

const text = (value: FormDataEntryValue | null) => (typeof value === "string" ? value : "");

/** A staff account's email and password: signed in, or on to the code (or two-step setup) step. */
async function staffPasswordStep(request: Request, email: string, password: string, inline: boolean) {
  const { staff, passwordHash } = await verifyStaffPassword(email, password, clientOf(request));
  const required = await twoStepRequiredFor(staff);
  if (!staff.twoStepEnabled && !required) {
    const cookie = await completeStaffSignIn(request, staff, { passwordHash }, "password");
    return redirect("/admin", { status: 303, headers: { "Set-Cookie": cookie } });
  }
  const cookie = await beginStaffCodeStep(request, staff, passwordHash, !staff.twoStepEnabled);
  if (staff.twoStepEnabled && inline) return data({ step: "code" as const }, { headers: { "Set-Cookie": cookie } });
  return redirect(staff.twoStepEnabled ? "/admin/login/code" : "/admin/login/two-step", { status: 303, headers: { "Set-Cookie": cookie } });
}

/**
 * Not a pageAction: its answer is the dialog's `{ message }` (or `{ step: "code" }`), not a
 * re-rendered form. The dialog's script (respond=inline) shows it in place. A plain form post's
 * refusal is answered by this route's boundary: the form again with the message (and the email
 * typed), status kept, and without running the loader, which would send the visitor away.
 */
export async function action({ request }: ActionFunctionArgs) {
  let inline = false;
  let email = "";
  try {
    const form = await readForm(request);
    inline = form.get("respond") === "inline";
    email = text(form.get("email")).trim().slice(0, 254);
    if (email) return await staffPasswordStep(request, email, text(form.get("password")), inline);
    await checkAdminPassword(form.get("password"), clientOf(request));
    const cookie = await grantAdmin(request);
    await recordAudit(db, {
      action: "sign_in",
      entity: "staff",
      summary: "Built-in owner signed in with the admin password",
      actor: BUILTIN_OWNER,
    });
    return redirect("/admin", { status: 303, headers: { "Set-Cookie": cookie } });
  } catch (error) {
    if (!isAppError(error)) throw error;
    if (inline) return data({ message: error.message }, { status: error.status, headers: error.headers });
    throw data({ message: error.message, email }, { status: error.status, headers: error.headers });
  }
}

export default function AdminLogin() {
  return null;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const builtinOwner = useAdminConfigured();
  const answer = isRouteErrorResponse(error) ? (error.data as { message?: string; email?: string } | null) : null;
  const message = isRouteErrorResponse(error) ? (answer?.message ?? INVALID_PASSWORD) : "Something went wrong. Please try again.";
  return (
    <section className="container-page flex justify-center py-16">
      <div className="card w-full max-w-sm p-6">
        <AdminAccessHeading level={1} />
        <AdminAccessForm builtinOwner={builtinOwner} error={message} email={answer?.email} />
        <p className="mt-4 text-center text-sm">
          <Link to="/" className="text-wood-700 underline">
            Back to the shop
          </Link>
        </p>
      </div>
    </section>
  );
}
