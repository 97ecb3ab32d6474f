import { Form } from "@remix-run/react";
import { Link } from "./Link";
import { useEffect, useRef } from "react";
import { FormBanner } from "~/components/FormBanner";
import { FormField, RuleField, fieldA11y, fieldProps } from "~/components/FormField";
import type { FormResult } from "~/hooks/useFormErrors";
import { useFormErrors } from "~/hooks/useFormErrors";
import { CONTACT_FIELD_NAMES, CONTACT_FIELDS, CONTACT_SUBJECTS } from "~/utils/message-fields";

/** The contact page's message form: what was typed and the server's messages come back in `result`. */
export function ContactForm({ result, busy }: { result: FormResult | undefined; busy: boolean }) {
  const errors = useFormErrors(result);
  // Field messages sit beside their fields; the banner is for what no field explains (429, 413…).
  const fieldsExplain = Object.keys(result?.fieldErrors ?? {}).length > 0;

  // With JavaScript, take the user to the first field that needs fixing.
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const first = CONTACT_FIELD_NAMES.find((field) => result?.fieldErrors?.[field]);
    if (!first) return;
    const element = formRef.current?.elements.namedItem(first);
    if (element instanceof HTMLElement) element.focus();
  }, [result]);

  return (
    <Form ref={formRef} method="post" onChange={errors.onChange} className="mt-6 space-y-5">
      <FormBanner message={fieldsExplain ? undefined : errors.formError} />

      <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
        <RuleField
          id="contact-name"
          name="name"
          label="Name"
          rule={CONTACT_FIELDS.name}
          autoComplete="name"
          defaultValue={errors.value("name")}
          error={errors.error("name")}
        />
        <RuleField
          id="contact-email"
          name="email"
          label="Email"
          rule={CONTACT_FIELDS.email}
          autoComplete="email"
          defaultValue={errors.value("email")}
          error={errors.error("email")}
        />
      </div>

      <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
        <RuleField
          id="contact-phone"
          name="phone"
          label="Phone"
          rule={CONTACT_FIELDS.phone}
          autoComplete="tel"
          inputMode="tel"
          defaultValue={errors.value("phone")}
          error={errors.error("phone")}
        />
        <FormField id="contact-subject" label="Subject" required={CONTACT_FIELDS.subject.required} error={errors.error("subject")}>
          <select
            id="contact-subject"
            name="subject"
            {...fieldProps(CONTACT_FIELDS.subject)}
            defaultValue={errors.value("subject") ?? ""}
            className="field-input"
            {...fieldA11y("contact-subject", errors.error("subject"))}
          >
            <option value="">Select a subject</option>
            {CONTACT_SUBJECTS.map((subject) => (
              <option key={subject} value={subject}>
                {subject}
              </option>
            ))}
          </select>
        </FormField>
      </div>

      <FormField id="contact-message" label="Message" required={CONTACT_FIELDS.message.required} error={errors.error("message")}>
        <textarea
          id="contact-message"
          name="message"
          rows={6}
          {...fieldProps(CONTACT_FIELDS.message)}
          defaultValue={errors.value("message")}
          className="field-input"
          {...fieldA11y("contact-message", errors.error("message"))}
        />
      </FormField>

      <button type="submit" className="btn-primary w-full sm:w-auto" disabled={busy}>
        {busy ? "Sending..." : "Send Message"}
      </button>
    </Form>
  );
}

/** What replaces the form once the message is sent: focus moves to its heading. */
export function ThankYouPanel() {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    headingRef.current?.focus();
  }, []);

  return (
    <div className="card p-6 text-center sm:p-10">
      <div className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-wood-100 text-wood-700">
        <svg aria-hidden="true" viewBox="0 0 24 24" className="h-7 w-7" fill="none" stroke="currentColor" strokeWidth="2">
          <path d="M5 12.5l4.5 4.5L19 7.5" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </div>
      <h2 id="message-heading" ref={headingRef} tabIndex={-1} className="mt-4 text-2xl font-semibold">
        Thank You!
      </h2>
      <p className="mx-auto mt-3 max-w-md text-stone-600">Your message has been received. Our team will get back to you within 24 hours.</p>
      <Link to="/contact" className="btn-secondary mt-6">
        Send another message
      </Link>
    </div>
  );
}
