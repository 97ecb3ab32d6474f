// A 'Forgot password' page (a customer's or a staff member's): the email form, and after it the
// same answer whether or not the email has an account ('Check Your Email'). A plain post that
// works without JavaScript.
import { Form } from "@remix-run/react";
import { Link } from "./Link";
import type { ReactNode } from "react";
import { AuthLayout } from "~/components/AuthLayout";
import { FormBanner } from "~/components/FormBanner";
import { RuleField } from "~/components/FormField";
import { MailIcon } from "~/components/contact-icons";
import type { FormResult } from "~/hooks/useFormErrors";
import { useFormErrors } from "~/hooks/useFormErrors";
import { useIsPending } from "~/hooks/useIsPending";
import { FORGOT_PASSWORD_FIELDS } from "~/utils/account-fields";

export interface ForgotPasswordTexts {
  title: string;
  intro: string;
  /** what the answer says was done, the same whether or not the email has an account */
  sent: string;
  /** how long the mailed link works: '30 minutes' */
  linkLife: string;
  /** the page itself, to ask again */
  againTo: string;
  inputId: string;
}

export function ForgotPasswordPage({
  sent,
  texts,
  back,
  result,
}: {
  sent: boolean;
  texts: ForgotPasswordTexts;
  back: ReactNode;
  result: FormResult | undefined;
}) {
  const errors = useFormErrors(result);
  const busy = useIsPending();
  if (sent) {
    return (
      <AuthLayout title="Check Your Email" footer={back}>
        <div role="status" className="flex flex-col items-center gap-4 text-center text-stone-700">
          <MailIcon className="h-10 w-10 text-wood-600" />
          <p>{texts.sent}</p>
          <p className="text-sm text-stone-600">
            The link works once, within {texts.linkLife}. Nothing arrived? Check the spam folder, or{" "}
            <Link to={texts.againTo} className="font-medium text-wood-700 underline">
              ask again
            </Link>
            .
          </p>
        </div>
      </AuthLayout>
    );
  }
  return (
    <AuthLayout title={texts.title} intro={texts.intro} footer={back}>
      <Form method="post" onChange={errors.onChange} className="space-y-5">
        <FormBanner message={errors.formError} />
        <RuleField
          id={texts.inputId}
          name="email"
          label="Email Address"
          rule={FORGOT_PASSWORD_FIELDS.email}
          requiredBy="server"
          mark={false}
          autoComplete="email"
          defaultValue={errors.value("email")}
          error={errors.error("email")}
        />
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          {busy ? "Sending..." : "Send Reset Link"}
        </button>
      </Form>
    </AuthLayout>
  );
}
