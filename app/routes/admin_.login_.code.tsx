// /admin/login/code: a staff sign-in's second step (docs/decisions/0033). The session holds a
// pending step (a right password, at most five minutes old); the 6-digit code from the
// authenticator app, or an unused recovery code, completes it: a fresh session signed in as the
// staff member, 303 to /admin. The dialog posts here too (with JavaScript); its fetcher shows the
// `{ message }` of a refusal in place, as this page does without JavaScript.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { Link } from "~/components/Link";
import { AdminAccessHeading, StaffCodeForm } from "~/components/AdminAccess";
import { completeStaffSignIn, pendingStaffStep } from "~/web/sign-in.server";
import { ADMIN_FORBIDDEN, getStaffVisitor } from "~/web/staff.server";
import { AppError, isAppError } from "~/lib/errors.server";
import { readForm } from "~/lib/http.server";
import { clientOf } from "~/lib/rate-limit.server";
import { getSession } from "~/lib/session.server";
import { findStaff } from "~/models/staff/staff.server";
import { verifyStaffCode } from "~/models/staff/two-step.server";
import { STAFF_STEP_EXPIRED } from "~/utils/admin-access";

export const meta: MetaFunction = () => [{ title: "Sign-in code | Admin Access | Sagwan Living" }, { name: "robots", content: "noindex" }];

/**
 * Only while a sign-in waits for its code. Staff already signed in go on to /admin; anyone else
 * to / as from every admin path (a step that ran out: to the dialog, to start again).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const pending = await pendingStaffStep(request);
  if (pending && !pending.setup) return data({ ok: true }, { headers: { "Cache-Control": "no-store" } });
  if (await getStaffVisitor(request)) throw redirect("/admin");
  throw redirect((await getSession(request)).has("staffPending") ? "/?admin-access" : "/");
}

/** No sign-in step in this session at all: refused as every admin action is; one that ran out: 401, start again. */
async function stepRefusal(request: Request): Promise<AppError> {
  return (await getSession(request)).has("staffPending") ? new AppError(401, STAFF_STEP_EXPIRED) : new AppError(403, ADMIN_FORBIDDEN);
}

export async function action({ request }: ActionFunctionArgs) {
  try {
    const form = await readForm(request);
    const pending = await pendingStaffStep(request);
    if (!pending || pending.setup) throw await stepRefusal(request);
    const staff = await findStaff(pending.staffId);
    if (!staff?.active) throw new AppError(401, STAFF_STEP_EXPIRED);
    const kind = await verifyStaffCode(staff.id, form.get("code"), clientOf(request));
    const cookie = await completeStaffSignIn(
      request,
      staff,
      { passwordTag: pending.passwordTag },
      kind === "totp" ? "password and code" : "password and recovery code",
    );
    return redirect("/admin", { status: 303, headers: { "Set-Cookie": cookie } });
  } catch (error) {
    if (!isAppError(error)) throw error;
    return data({ message: error.message }, { status: error.status, headers: error.headers });
  }
}

export default function AdminLoginCode() {
  const answer = useActionData<typeof action>();
  return (
    <section className="container-page flex justify-center py-16">
      <div className="card w-full max-w-sm p-6">
        <AdminAccessHeading level={1} />
        <StaffCodeForm error={answer && "message" in answer ? answer.message : undefined} />
        <p className="mt-4 text-center text-sm">
          <Link to="/?admin-access" className="text-wood-700 underline">
            Start again
          </Link>
        </p>
      </div>
    </section>
  );
}
