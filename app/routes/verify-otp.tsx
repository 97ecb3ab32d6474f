import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/Link";
import { AuthLayout } from "~/components/AuthLayout";
import { FormBanner } from "~/components/FormBanner";
import { OtpInput } from "~/components/OtpInput";
import { useFormErrors } from "~/hooks/useFormErrors";
import { pageAction } from "~/lib/form.server";
import { parseWith } from "~/lib/http.server";
import { clientOf } from "~/lib/rate-limit.server";
import { getSession } from "~/lib/session.server";
import { redirectWithToast } from "~/lib/toast.server";
import { resendSignupCode, verifySignup } from "~/models/users/signup.server";
import { EmailOnlySchema, OtpSchema } from "~/utils/account-schemas";
import { useIsPending } from "~/hooks/useIsPending";
import { EmailSchema } from "~/utils/schemas";
import { signIn } from "~/web/sign-in.server";
import { getUser } from "~/web/visitor.server";

export const meta: MetaFunction = () => [{ title: "Verify Your Email | Sagwan Living" }];

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getUser(request)) throw redirect("/profile");
  const email = EmailSchema.safeParse(new URL(request.url).searchParams.get("email") ?? "");
  if (!email.success) throw redirect("/signup");
  const pending = (await getSession(request)).get("pendingSignup");
  // What the sign-up form held, shown only to the browser that filled it in (its handle stays on the server).
  const shown = pending?.email === email.data ? { name: pending.name, email: pending.email, mobile: pending.mobile } : null;
  return { email: email.data, pending: shown };
}

export async function action({ request }: ActionFunctionArgs) {
  return pageAction(
    request,
    {
      intents: {
        resend: async (form) => {
          const { email } = parseWith(EmailOnlySchema, { email: form.get("email") });
          await resendSignupCode(email, await attemptFor(request, email), clientOf(request));
          const back = `/verify-otp?email=${encodeURIComponent(email)}`;
          return redirectWithToast(request, back, { type: "success", title: "A new OTP has been sent to your email" });
        },
        verify: async (form) => {
          const input = parseWith(OtpSchema, { email: form.get("email"), otp: form.getAll("otp").map(String) });
          const user = await verifySignup(input.email, input.otp, await attemptFor(request, input.email), clientOf(request));
          // The account this request just made: no older password for the session to outlive.
          return signIn(request, user, null, { redirectTo: "/profile", toast: { type: "success", title: "OTP verified successfully" } });
        },
      },
    },
    { unexpected: "OTP verification failed." },
  );
}

/** The code must belong to the sign-up this browser made, when it made one. */
async function attemptFor(request: Request, email: string) {
  const pending = (await getSession(request)).get("pendingSignup");
  return pending?.email === email ? { handle: pending.attemptId, via: "browser" as const } : null;
}

export default function VerifyOtpRoute() {
  const { email, pending } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const errors = useFormErrors(result);
  const verifying = useIsPending({ intent: "verify" });
  const resending = useIsPending({ intent: "resend" });

  return (
    <AuthLayout
      title="Verify Your Email"
      intro={
        <>
          Step 2 of 2. We sent a 4-digit code to <strong className="break-all text-ink">{email}</strong>. It works once, for 10 minutes.
        </>
      }
      footer={
        <>
          Wrong details?{" "}
          <Link to="/signup" className="font-semibold text-wood-700 hover:underline">
            Change them
          </Link>
        </>
      }
    >
      {pending ? (
        <dl className="mb-6 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 rounded-lg bg-sand-50 p-4 text-sm" aria-label="Your details">
          <dt className="text-stone-600">Name</dt>
          <dd className="font-medium text-ink">{pending.name}</dd>
          <dt className="text-stone-600">Email</dt>
          <dd className="break-all font-medium text-ink">{pending.email}</dd>
          <dt className="text-stone-600">Mobile</dt>
          <dd className="font-medium text-ink">{pending.mobile ?? "Not provided"}</dd>
        </dl>
      ) : null}
      <Form method="post" onChange={errors.onChange} className="space-y-6">
        <FormBanner message={errors.formError} />
        <input type="hidden" name="email" value={email} />
        <OtpInput error={errors.error("otp")} describedBy={errors.formError ? undefined : "otp-help"} />
        <p id="otp-help" className="text-center text-xs text-stone-600">
          Check your inbox (and the spam folder) for a mail from Sagwan Living.
        </p>
        <button type="submit" name="intent" value="verify" className="btn-primary w-full" disabled={verifying}>
          {verifying ? "Verifying..." : "Verify OTP"}
        </button>
      </Form>
      <Form method="post" className="mt-4 text-center">
        <input type="hidden" name="email" value={email} />
        <p className="text-sm text-stone-600">
          {"Didn't get the code? "}
          <button
            type="submit"
            name="intent"
            value="resend"
            className="inline-flex min-h-11 items-center font-semibold text-wood-700 hover:underline disabled:opacity-60"
            disabled={resending}
          >
            {resending ? "Sending..." : "Resend code"}
          </button>
        </p>
      </Form>
    </AuthLayout>
  );
}
