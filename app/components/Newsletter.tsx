// The home page's newsletter form (docs/product.md, Home): a POST form to the home page's action,
// which answers with its field error or a redirect and a toast.
import { Form } from "@remix-run/react";
import { Link } from "./Link";
import { useEffect, useRef } from "react";
import { fieldProps } from "~/components/FormField";
import { useIsPending } from "~/hooks/useIsPending";
import { NEWSLETTER_FIELDS } from "~/utils/message-fields";

/** What the home page's action answered a refused subscription with. */
export type NewsletterAnswer = { fieldErrors?: { email?: string }; formError?: string; values?: { email?: string } } | undefined;

export function Newsletter({ actionData }: { actionData: NewsletterAnswer }) {
  const formRef = useRef<HTMLFormElement>(null);
  const busy = useIsPending({ intent: "newsletter" });
  const error = actionData?.fieldErrors?.email ?? actionData?.formError;
  const wasBusy = useRef(false);
  useEffect(() => {
    if (wasBusy.current && !busy && !actionData) formRef.current?.reset();
    wasBusy.current = busy;
  }, [busy, actionData]);
  return (
    <section id="newsletter" className="bg-wood-800 py-16 text-white">
      <div className="container-page max-w-2xl text-center">
        <h2 className="text-3xl font-semibold text-white">Stay Updated</h2>
        <p className="mt-3 text-wood-100">New collections, festive offers and care tips, once or twice a month.</p>
        <Form ref={formRef} method="post" preventScrollReset className="mt-8 flex flex-col gap-3 sm:flex-row" noValidate={false}>
          <input type="hidden" name="intent" value="newsletter" />
          <label htmlFor="newsletter-email" className="sr-only">
            Email address
          </label>
          <input
            id="newsletter-email"
            name="email"
            {...fieldProps(NEWSLETTER_FIELDS.email)}
            placeholder="Your email address"
            defaultValue={actionData?.values?.email}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "newsletter-error" : undefined}
            className="field-input flex-1 text-ink"
          />
          <button type="submit" className="btn bg-white text-wood-800 hover:bg-wood-50" disabled={busy}>
            {busy ? "Subscribing..." : "Subscribe"}
          </button>
        </Form>
        {error ? (
          <p id="newsletter-error" role="alert" className="mt-3 text-sm font-medium text-red-200">
            {error}
          </p>
        ) : null}
        <p className="mt-4 text-xs text-wood-200">
          By subscribing you agree to receive emails from Sagwan Living and to our{" "}
          <Link to="/privacy-policy" className="underline">
            Privacy Policy
          </Link>
          . Unsubscribe at any time.
        </p>
      </div>
    </section>
  );
}
