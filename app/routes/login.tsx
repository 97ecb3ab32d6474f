import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/Link";
import { AuthLayout } from "~/components/AuthLayout";
import { FormBanner } from "~/components/FormBanner";
import { RuleField } from "~/components/FormField";
import { useFormErrors } from "~/hooks/useFormErrors";
import { pageAction } from "~/lib/form.server";
import { safeRedirectPath } from "~/lib/http.server";
import { LOGIN_FIELDS } from "~/utils/account-fields";
import { useIsPending } from "~/hooks/useIsPending";
import { authenticateCredentials, signIn } from "~/web/sign-in.server";
import { getUser } from "~/web/visitor.server";

export const meta: MetaFunction = () => [{ title: "Log In | Sagwan Living" }];

function redirectTarget(value: unknown) {
  const target = safeRedirectPath(value, "/profile");
  // Never come back to a page that only makes sense signed out.
  return /^\/(login|signup|verify-otp|forgot-password|reset-password|logout)\b/.test(target) ? "/profile" : target;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const redirectTo = redirectTarget(new URL(request.url).searchParams.get("redirectTo"));
  if (await getUser(request)) throw redirect(redirectTo);
  return { redirectTo };
}

export async function action({ request }: ActionFunctionArgs) {
  return pageAction(
    request,
    async (form) => {
      const { user, passwordHash } = await authenticateCredentials(request, Object.fromEntries(form));
      return signIn(request, user, passwordHash, {
        redirectTo: redirectTarget(form.get("redirectTo")),
        toast: { type: "success", title: "Login successfully" },
        remember: form.get("remember") === "on",
      });
    },
    { echo: ["email", "remember"], unexpected: "An error occurred. Please try again." },
  );
}

export default function LoginRoute() {
  const { redirectTo } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const errors = useFormErrors(result);
  const busy = useIsPending();

  return (
    <AuthLayout
      title="Log In to Your Account"
      intro="Welcome back. Log in to see your orders and check out faster."
      footer={
        <>
          {"Don't have an account? "}
          <Link to="/signup" className="font-semibold text-wood-700 hover:underline">
            Sign up
          </Link>
        </>
      }
    >
      {busy ? (
        // docs/product.md: while the request runs a loading text replaces the whole form.
        <p role="status" className="flex min-h-64 items-center justify-center gap-3 text-stone-700">
          <span
            className="h-5 w-5 animate-spin rounded-full border-2 border-wood-600 border-t-transparent motion-reduce:animate-none"
            aria-hidden="true"
          />
          Logging you in...
        </p>
      ) : (
        <Form method="post" onChange={errors.onChange} className="space-y-5">
          <FormBanner message={errors.formError} />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <RuleField
            id="login-email"
            name="email"
            label="Email Address"
            rule={LOGIN_FIELDS.email}
            requiredBy="server"
            mark={false}
            autoComplete="email"
            defaultValue={errors.value("email")}
            error={errors.error("email")}
          />
          <RuleField
            id="login-password"
            name="password"
            label="Password"
            rule={LOGIN_FIELDS.password}
            requiredBy="server"
            mark={false}
            autoComplete="current-password"
            error={errors.error("password")}
          />
          <div className="flex flex-wrap items-center justify-between gap-3 text-sm">
            <label className="inline-flex min-h-11 items-center gap-2">
              <input
                type="checkbox"
                name="remember"
                defaultChecked={errors.value("remember") === "on"}
                className="h-4 w-4 accent-wood-600"
              />
              Remember me
            </label>
            <Link to="/forgot-password" className="inline-flex min-h-11 items-center font-medium text-wood-700 hover:underline">
              Forgot password
            </Link>
          </div>
          <button type="submit" className="btn-primary w-full">
            Log In
          </button>
        </Form>
      )}
    </AuthLayout>
  );
}
