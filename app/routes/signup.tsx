import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/Link";
import { AuthLayout } from "~/components/AuthLayout";
import { FormBanner } from "~/components/FormBanner";
import { FormField, RuleField, fieldA11y, fieldProps } from "~/components/FormField";
import { useFormErrors } from "~/hooks/useFormErrors";
import { pageAction } from "~/lib/form.server";
import { parseWith } from "~/lib/http.server";
import { clientOf } from "~/lib/rate-limit.server";
import { commitSession, getSession } from "~/lib/session.server";
import { redirectWithToast } from "~/lib/toast.server";
import { registerAccount } from "~/models/users/signup.server";
import { MESSAGES, SIGNUP_FIELDS } from "~/utils/account-fields";
import { SignupSchema } from "~/utils/account-schemas";
import { useIsPending } from "~/hooks/useIsPending";
import { getUser } from "~/web/visitor.server";

export const meta: MetaFunction = () => [{ title: "Create an Account | Sagwan Living" }];

const FIELDS = Object.keys(SIGNUP_FIELDS);
const F = SIGNUP_FIELDS;

export async function loader({ request }: LoaderFunctionArgs) {
  if (await getUser(request)) throw redirect("/profile");
  // Back from the OTP step ('Change details'): the form keeps what was typed.
  const pending = (await getSession(request)).get("pendingSignup");
  // The attempt's handle stays on the server.
  return { pending: pending ? { name: pending.name, email: pending.email, mobile: pending.mobile } : null };
}

export async function action({ request }: ActionFunctionArgs) {
  return pageAction(
    request,
    async (form) => {
      const input = parseWith(SignupSchema, Object.fromEntries(FIELDS.map((f) => [f, form.get(f) ?? ""])));
      const { attemptId } = await registerAccount(input, clientOf(request), { boundToBrowser: true });
      const session = await getSession(request);
      session.set("pendingSignup", { attemptId, name: input.name, email: input.email, mobile: input.mobile });
      const headers = new Headers({ "Set-Cookie": await commitSession(session, request) });
      const next = `/verify-otp?email=${encodeURIComponent(input.email)}`;
      return redirectWithToast(request, next, { type: "success", title: "OTP sent successfully" }, { headers });
    },
    // Passwords are never sent back.
    { echo: ["name", "email", "mobile", "terms"], unexpected: "Registration failed. Please try again." },
  );
}

export default function SignupRoute() {
  const { pending } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const errors = useFormErrors(result);
  const busy = useIsPending();
  const value = (name: "name" | "email" | "mobile") => errors.value(name) ?? pending?.[name] ?? undefined;

  return (
    <AuthLayout
      title="Create an Account"
      intro="Step 1 of 2: your details. We will email you a 4-digit code to confirm them."
      footer={
        <>
          Already have an account?{" "}
          <Link to="/login" className="font-semibold text-wood-700 hover:underline">
            Log In
          </Link>
        </>
      }
    >
      <Form method="post" onChange={errors.onChange} className="space-y-5">
        <FormBanner message={errors.formError}>
          {result?.fieldErrors?.email === MESSAGES.emailTaken ? (
            <Link to="/login" className="mt-1 inline-block font-semibold underline">
              Go to Log In
            </Link>
          ) : null}
        </FormBanner>
        <RuleField
          id="signup-name"
          name="name"
          label="Full Name"
          rule={F.name}
          requiredBy="server"
          autoComplete="name"
          defaultValue={value("name")}
          error={errors.error("name")}
        />
        <RuleField
          id="signup-email"
          name="email"
          label="Email Address"
          rule={F.email}
          requiredBy="server"
          autoComplete="email"
          defaultValue={value("email")}
          error={errors.error("email")}
        />
        <RuleField
          id="signup-mobile"
          name="mobile"
          label="Mobile Number"
          rule={F.mobile}
          requiredBy="server"
          inputMode="numeric"
          autoComplete="tel-national"
          placeholder="10-digit mobile number"
          defaultValue={value("mobile")}
          error={errors.error("mobile")}
        />
        {/* The hint is described too, so this input spells out its aria props. */}
        <FormField id="signup-password" label="Password" required={F.password.required} error={errors.error("password")}>
          <input
            id="signup-password"
            name="password"
            {...fieldProps(F.password, "server")}
            autoComplete="new-password"
            className="field-input"
            aria-invalid={errors.error("password") ? true : undefined}
            aria-describedby={errors.error("password") ? "signup-password-error signup-password-hint" : "signup-password-hint"}
          />
          <p id="signup-password-hint" className="mt-1 text-xs text-stone-600">
            {MESSAGES.passwordShort}
          </p>
        </FormField>
        <RuleField
          id="signup-confirm"
          name="confirmPassword"
          label="Confirm Password"
          rule={F.confirmPassword}
          requiredBy="server"
          autoComplete="new-password"
          error={errors.error("confirmPassword")}
        />
        <div>
          <label className="flex min-h-11 items-start gap-3 text-sm text-stone-700">
            <input
              type="checkbox"
              name="terms"
              {...fieldProps(F.terms, "server")}
              defaultChecked={errors.value("terms") === "on"}
              className="mt-0.5 h-4 w-4 shrink-0 accent-wood-600"
              {...fieldA11y("signup-terms", errors.error("terms"))}
            />
            <span>
              I agree to the{" "}
              <Link to="/t&c" className="font-medium text-wood-700 underline" target="_blank">
                Terms and Conditions
              </Link>
            </span>
          </label>
          {errors.error("terms") ? (
            <p id="signup-terms-error" className="field-error">
              {errors.error("terms")}
            </p>
          ) : null}
        </div>
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? "Creating Account..." : "Register"}
        </button>
      </Form>
    </AuthLayout>
  );
}
