// /admin/login/two-step: setting up two-step sign-in (docs/decisions/0033). For a sign-in whose
// account must use a code but has none yet (after its right password: the pending step), and for a
// signed-in staff member without it (from /admin/account, or sent here by requireStaff when the
// shop requires it of them). The secret is drawn as a QR code on the server (SVG) and shown as
// text, kept in the session until the first code from the app confirms it; then the ten recovery
// codes are shown, once, and a pending sign-in is completed. The only page that ever shows a secret.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { Link } from "~/components/Link";
import { AdminAccessHeading, RecoveryCodes } from "~/components/AdminAccess";
import { completeStaffSignIn, pendingStaffStep, revokeAdmin } from "~/web/sign-in.server";
import { ADMIN_FORBIDDEN, getStaffVisitor } from "~/web/staff.server";
import { AppError } from "~/lib/errors.server";
import { pageAction } from "~/lib/form.server";
import { assertSameOrigin, readForm } from "~/lib/http.server";
import { clientOf } from "~/lib/rate-limit.server";
import type { StaffPending } from "~/lib/session.server";
import { commitSession, getSession, rotateSession } from "~/lib/session.server";
import type { Staff } from "~/models/staff/staff.server";
import { actorOf, findStaff, twoStepRequiredFor } from "~/models/staff/staff.server";
import { confirmTwoStep, newTotpSecret, totpQrSvg, totpUri } from "~/models/staff/two-step.server";

export const meta: MetaFunction = () => [
  { title: "Two-step sign-in | Admin Access | Sagwan Living" },
  { name: "robots", content: "noindex" },
];

const NO_STORE = { "Cache-Control": "no-store" };
const SETUP_EXPIRED = "This setup has expired. Please scan the new QR code and enter its code.";
const NOTHING_TO_SET_UP = "Two-step sign-in belongs to a staff account: sign in with your own email to set it up.";

/** Whose setup this is: a pending sign-in's account that must set it up, or the signed-in staff member. */
async function setupSubject(request: Request): Promise<{ staff: Staff; pending: StaffPending | null } | null> {
  const pending = await pendingStaffStep(request);
  if (pending?.setup) {
    const staff = await findStaff(pending.staffId);
    if (staff?.active && !staff.twoStepEnabled) return { staff, pending };
  }
  const visitor = await getStaffVisitor(request);
  if (visitor?.staff && !visitor.staff.twoStepEnabled) return { staff: visitor.staff, pending: null };
  return null;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const subject = await setupSubject(request);
  if (!subject) {
    const visitor = await getStaffVisitor(request);
    throw redirect(visitor?.staff ? "/admin/account" : visitor ? "/admin" : "/");
  }
  const session = await getSession(request);
  const headers = new Headers(NO_STORE);
  let secret = session.get("staffSetupSecret");
  if (!secret) {
    secret = newTotpSecret();
    session.set("staffSetupSecret", secret);
    headers.set("Set-Cookie", await commitSession(session, request));
  }
  const uri = totpUri(secret, subject.staff.email);
  return data(
    {
      email: subject.staff.email,
      secret,
      qr: totpQrSvg(uri),
      required: await twoStepRequiredFor(subject.staff),
      signingIn: subject.pending !== null,
    },
    { headers },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const subject = await setupSubject(request);
  return pageAction(
    request,
    {
      intents: {
        confirm: async (form) => {
          if (!subject) throw new AppError(400, NOTHING_TO_SET_UP);
          const session = await getSession(request);
          const secret = session.get("staffSetupSecret");
          if (!secret) throw new AppError(400, SETUP_EXPIRED);
          const { staff, pending } = subject;
          const recoveryCodes = await confirmTwoStep(staff.id, secret, form.get("code"), clientOf(request), actorOf(staff));
          let cookie: string;
          if (pending) {
            cookie = await completeStaffSignIn(request, staff, { passwordTag: pending.passwordTag }, "password, two-step sign-in set up");
          } else {
            // A change of what the session proves: a fresh id.
            const fresh = await rotateSession(session);
            fresh.unset("staffSetupSecret");
            cookie = await commitSession(fresh, request);
          }
          return data({ ok: true as const, recoveryCodes }, { headers: { ...NO_STORE, "Set-Cookie": cookie } });
        },
        signout: async () => redirect("/", { status: 303, headers: { "Set-Cookie": await revokeAdmin(request) } }),
      },
    },
    {
      read: async (req, limit) => {
        assertSameOrigin(req);
        // Nobody here to set up two-step, nor any staff sign-in: refused as every admin action is.
        if (!subject && !(await getStaffVisitor(req))) throw data({ message: ADMIN_FORBIDDEN }, { status: 403 });
        return readForm(req, limit);
      },
    },
  );
}

export default function TwoStepSetup() {
  const { email, secret, qr, required, signingIn } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const busy = useNavigation().state === "submitting";
  const error = answer && answer.ok === false ? (answer.fieldErrors.code ?? answer.formError) : undefined;

  if (answer?.ok) {
    return (
      <section className="container-page flex justify-center py-12">
        <div className="card w-full max-w-lg p-6">
          <AdminAccessHeading level={1} />
          <h2 className="mt-4 text-lg font-semibold">Two-step sign-in is on</h2>
          <div className="mt-3">
            <RecoveryCodes codes={answer.recoveryCodes} />
          </div>
          <a href={signingIn ? "/admin" : "/admin/account"} className="btn-primary mt-5 w-full">
            {signingIn ? "Continue to the admin area" : "Back to my account"}
          </a>
        </div>
      </section>
    );
  }

  const grouped = secret.replace(/(.{4})/g, "$1 ").trim();
  return (
    <section className="container-page flex justify-center py-12">
      <div className="card w-full max-w-lg p-6">
        <AdminAccessHeading level={1} />
        <h2 className="mt-4 text-lg font-semibold">Set up two-step sign-in</h2>
        <p className="mt-2 text-sm text-stone-700">
          {required
            ? "Your account signs in with a code from an authenticator app as well as your password."
            : "Sign in with a code from an authenticator app as well as your password."}{" "}
          Scan this QR code with the app (for example Google Authenticator, Microsoft Authenticator or 1Password), then enter the 6-digit
          code it shows.
        </p>
        <div
          role="img"
          aria-label={`QR code for two-step sign-in of ${email}`}
          className="mx-auto mt-4 w-48 bg-white [&>svg]:h-auto [&>svg]:w-full"
          // The SVG is drawn on this server from the otpauth:// URI (models/staff/two-step.server).
          dangerouslySetInnerHTML={{ __html: qr }}
        />
        <p className="mt-3 text-center text-sm text-stone-600">
          Or type this key into the app:{" "}
          <code className="break-all font-mono text-stone-900" data-testid="totp-secret">
            {grouped}
          </code>
        </p>
        <Form method="post" className="mt-5 space-y-4">
          <input type="hidden" name="intent" value="confirm" />
          <div>
            <label htmlFor="setup-code" className="field-label">
              Code from the app
            </label>
            <input
              id="setup-code"
              name="code"
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              required
              maxLength={64}
              className="field-input tracking-widest"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? "setup-code-error" : undefined}
            />
            {error ? (
              <p id="setup-code-error" role="alert" className="field-error">
                {error}
              </p>
            ) : null}
          </div>
          <button type="submit" className="btn-primary w-full" disabled={busy}>
            {busy ? "Checking..." : "Turn on two-step sign-in"}
          </button>
        </Form>
        <div className="mt-4 flex justify-between text-sm">
          {signingIn || required ? (
            <Form method="post">
              <input type="hidden" name="intent" value="signout" />
              <button type="submit" className="text-wood-700 underline">
                Sign out
              </button>
            </Form>
          ) : (
            <Link to="/admin/account" className="text-wood-700 underline">
              Not now
            </Link>
          )}
        </div>
      </div>
    </section>
  );
}
