import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import type { ReactNode } from "react";
import { FormField, RuleField, fieldA11y, fieldProps } from "~/components/FormField";
import { ClockIcon, FacebookIcon, InstagramIcon, MailIcon, PhoneIcon, PinIcon, TwitterIcon } from "~/components/icons";
import { PageHero } from "~/components/PageHero";
import { contact, mapsSearchUrl, telHref } from "~/content/contact";
import type { FormFailure } from "~/lib/form.server";
import { pageAction } from "~/lib/form.server";
import { parseWith } from "~/lib/http.server";
import { clientOf } from "~/lib/rate-limit.server";
import { redirectWithToast } from "~/lib/toast.server";
import { sendContactMessage } from "~/models/messages.server";
import { useIsPending } from "~/hooks/useIsPending";
import type { ContactField } from "~/utils/message-fields";
import { CONTACT_FIELD_NAMES, CONTACT_FIELDS, CONTACT_SUBJECTS } from "~/utils/message-fields";
import { ContactSchema } from "~/utils/schemas";
import { seoMeta, siteUrlFrom } from "~/utils/seo";

/** docs/product.md keeps "Sending..." on screen for 1.5 s before the thank-you panel. */
const THANK_YOU_DELAY_MS = 1500;

const FIELDS = CONTACT_FIELD_NAMES;
type Field = ContactField;

type ActionData = Partial<Pick<FormFailure, "formError" | "fieldErrors" | "values">>;

export const meta: MetaFunction = ({ matches }) =>
  seoMeta(siteUrlFrom(matches), {
    title: "Contact Us | Sagwan Living",
    description:
      "Contact Sagwan Living by email, phone or at our showrooms in Ahmedabad, Mumbai and Bengaluru. We respond within 24 hours.",
    path: "/contact",
  });

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return { sent: url.searchParams.get("sent") === "1" };
}

export async function action({ request }: ActionFunctionArgs) {
  return pageAction(
    request,
    async (form) => {
      const input = parseWith(ContactSchema, Object.fromEntries(FIELDS.map((f) => [f, form.get(f) ?? ""])));
      await sendContactMessage(input, clientOf(request));
      return redirectWithToast(request, "/contact?sent=1", { type: "success", title: "We'll get back to you shortly" });
    },
    { echo: FIELDS },
  );
}

export default function ContactRoute() {
  const { sent } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const submitting = useIsPending({ state: "submitting" });
  const redirecting = useIsPending({ state: "loading" });

  // With JavaScript: remember when the message was sent, and keep "Sending..." on screen
  // until 1.5 s have passed before the thank-you panel (which the redirect's ?sent=1 shows).
  const [submittedAt, setSubmittedAt] = useState<number | null>(null);
  useEffect(() => {
    if (submitting) setSubmittedAt(Date.now());
  }, [submitting]);
  useEffect(() => {
    if (actionData) setSubmittedAt(null);
  }, [actionData]);
  useEffect(() => {
    if (!sent || submittedAt === null) return;
    const timer = window.setTimeout(() => setSubmittedAt(null), Math.max(0, submittedAt + THANK_YOU_DELAY_MS - Date.now()));
    return () => window.clearTimeout(timer);
  }, [sent, submittedAt]);

  const holding = sent && submittedAt !== null;
  const showThanks = sent && !holding;
  const busy = submitting || redirecting || holding;

  return (
    <>
      <PageHero title={contact.heading}>
        <p>{contact.description}</p>
      </PageHero>

      <div className="container-page space-y-12 py-12 sm:space-y-16 sm:py-16">
        <section aria-label="Ways to reach us" className="grid grid-cols-1 gap-6 md:grid-cols-3">
          <InfoCard icon={<MailIcon className="h-5 w-5 shrink-0" />} title="Email Us">
            <a
              href={`mailto:${contact.email}`}
              className="inline-flex min-h-11 items-center font-medium break-all text-wood-700 underline-offset-4 hover:underline"
            >
              {contact.email}
            </a>
            <p className="text-sm text-stone-600">{"We'll respond within 24 hours"}</p>
          </InfoCard>
          <InfoCard icon={<PhoneIcon className="h-5 w-5 shrink-0" />} title="Call Us">
            <a
              href={telHref(contact.phone)}
              className="inline-flex min-h-11 items-center font-medium text-wood-700 underline-offset-4 hover:underline"
            >
              {contact.phone}
            </a>
            <p className="text-sm text-stone-600">{contact.hours}</p>
          </InfoCard>
          <InfoCard icon={<PinIcon className="h-5 w-5 shrink-0" />} title="Visit Us">
            <address className="not-italic leading-relaxed text-stone-700">{contact.address}</address>
          </InfoCard>
        </section>

        <div className="grid grid-cols-1 gap-10 lg:grid-cols-5 lg:gap-12">
          <section aria-labelledby="message-heading" className="lg:col-span-3">
            {showThanks ? (
              <ThankYouPanel />
            ) : (
              <div className="card p-6 sm:p-8">
                <h2 id="message-heading" className="text-2xl font-semibold">
                  Send Us a Message
                </h2>
                <p className="mt-2 text-sm text-stone-600">
                  Fields marked <span aria-hidden="true">*</span>
                  <span className="sr-only">with an asterisk</span> are required.
                </p>
                <ContactForm actionData={actionData} busy={busy} />
              </div>
            )}
          </section>

          <aside className="space-y-6 lg:col-span-2" aria-label="Showrooms and opening hours">
            <section aria-labelledby="showrooms-heading" className="card p-6">
              <h2 id="showrooms-heading" className="text-xl font-semibold">
                Our Showrooms
              </h2>
              <ul className="mt-4 divide-y divide-sand-200">
                {contact.showrooms.map((showroom) => (
                  <li key={showroom.city} className="py-4 first:pt-0 last:pb-0">
                    <h3 className="font-sans text-base font-semibold">{showroom.city}</h3>
                    <address className="mt-1 text-sm leading-relaxed text-stone-700 not-italic">{showroom.address}</address>
                    <a
                      href={telHref(showroom.phone)}
                      className="inline-flex min-h-11 items-center text-sm font-medium text-wood-700 underline-offset-4 hover:underline"
                    >
                      {showroom.phone}
                    </a>
                  </li>
                ))}
              </ul>
            </section>

            <section aria-labelledby="hours-heading" className="card p-6">
              <h2 id="hours-heading" className="flex items-center gap-2 text-xl font-semibold">
                <ClockIcon className="h-5 w-5 shrink-0" />
                Opening Hours
              </h2>
              <dl className="mt-4 space-y-2 text-sm">
                {contact.openingHours.map((row) => (
                  <div key={row.days} className="flex justify-between gap-4">
                    <dt className="text-stone-600">{row.days}</dt>
                    <dd className="font-medium text-ink">{row.hours}</dd>
                  </div>
                ))}
              </dl>
            </section>

            <section aria-labelledby="social-heading" className="card p-6">
              <h2 id="social-heading" className="text-xl font-semibold">
                Follow Us
              </h2>
              <ul className="mt-4 flex flex-wrap gap-3">
                <SocialLink href={contact.socialMedia.facebook} label="Facebook" icon={<FacebookIcon className="h-5 w-5 shrink-0" />} />
                <SocialLink href={contact.socialMedia.instagram} label="Instagram" icon={<InstagramIcon className="h-5 w-5 shrink-0" />} />
                <SocialLink href={contact.socialMedia.twitter} label="Twitter" icon={<TwitterIcon className="h-5 w-5 shrink-0" />} />
              </ul>
            </section>
          </aside>
        </div>

        <section aria-labelledby="map-heading">
          <h2 id="map-heading" className="text-2xl font-semibold">
            Find Our Showroom
          </h2>
          <div className="card mt-6 overflow-hidden">
            <ShowroomMap />
            <div className="flex flex-col gap-4 border-t border-sand-200 p-6 sm:flex-row sm:items-center sm:justify-between">
              <div>
                <p className="font-semibold text-ink">{contact.showroomName}</p>
                <address className="mt-1 text-sm text-stone-700 not-italic">{contact.address}</address>
                <p className="mt-3 text-sm text-stone-600">{contact.showroomNote}</p>
              </div>
              <a
                href={mapsSearchUrl(`${contact.showroomName}, ${contact.address}`)}
                target="_blank"
                rel="noopener noreferrer"
                className="btn-secondary shrink-0"
              >
                Open in Google Maps
                <span className="sr-only"> (opens in a new tab)</span>
              </a>
            </div>
          </div>
        </section>
      </div>
    </>
  );
}

function ContactForm({ actionData, busy }: { actionData: ActionData | undefined; busy: boolean }) {
  const errors: Partial<Record<Field, string>> = actionData?.fieldErrors ?? {};
  const values: Partial<Record<Field, string>> = actionData?.values ?? {};
  // Field messages sit beside their fields; the banner is for what no field explains (429, 413…).
  const formError = Object.keys(errors).length ? undefined : actionData?.formError;

  // With JavaScript, take the user to the first field that needs fixing.
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (!actionData?.fieldErrors) return;
    const first = FIELDS.find((field) => actionData.fieldErrors?.[field]);
    if (!first) return;
    const element = formRef.current?.elements.namedItem(first);
    if (element instanceof HTMLElement) element.focus();
  }, [actionData]);

  return (
    <Form ref={formRef} method="post" className="mt-6 space-y-5">
      {formError ? (
        <div role="alert" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          {formError}
        </div>
      ) : null}

      <div className="grid grid-cols-1 gap-5 sm:grid-cols-2">
        <RuleField
          id="contact-name"
          name="name"
          label="Name"
          rule={CONTACT_FIELDS.name}
          autoComplete="name"
          defaultValue={values.name}
          error={errors.name}
        />
        <RuleField
          id="contact-email"
          name="email"
          label="Email"
          rule={CONTACT_FIELDS.email}
          autoComplete="email"
          defaultValue={values.email}
          error={errors.email}
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
          defaultValue={values.phone}
          error={errors.phone}
        />
        <FormField id="contact-subject" label="Subject" required={CONTACT_FIELDS.subject.required} error={errors.subject}>
          <select
            id="contact-subject"
            name="subject"
            {...fieldProps(CONTACT_FIELDS.subject)}
            defaultValue={values.subject ?? ""}
            className="field-input"
            {...fieldA11y("contact-subject", errors.subject)}
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

      <FormField id="contact-message" label="Message" required={CONTACT_FIELDS.message.required} error={errors.message}>
        <textarea
          id="contact-message"
          name="message"
          rows={6}
          {...fieldProps(CONTACT_FIELDS.message)}
          defaultValue={values.message}
          className="field-input"
          {...fieldA11y("contact-message", errors.message)}
        />
      </FormField>

      <button type="submit" className="btn-primary w-full sm:w-auto" disabled={busy}>
        {busy ? "Sending..." : "Send Message"}
      </button>
    </Form>
  );
}

function ThankYouPanel() {
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

function InfoCard({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <div className="card flex flex-col items-start gap-2 p-6">
      <span className="flex h-11 w-11 items-center justify-center rounded-full bg-wood-100 text-wood-700">{icon}</span>
      <h2 className="mt-2 text-xl font-semibold">{title}</h2>
      {children}
    </div>
  );
}

function SocialLink({ href, label, icon }: { href: string; label: string; icon: ReactNode }) {
  return (
    <li>
      <a
        href={href}
        target="_blank"
        rel="noopener noreferrer"
        className={[
          "inline-flex min-h-11 items-center gap-2 rounded-lg border border-sand-200 px-4 text-sm font-medium text-ink",
          "transition-colors hover:border-wood-300 hover:bg-wood-50",
        ].join(" ")}
      >
        {icon}
        {label}
        <span className="sr-only"> (opens in a new tab)</span>
      </a>
    </li>
  );
}

/** A drawn, decorative street map: nothing is loaded from outside (CSP). */
function ShowroomMap() {
  return (
    <svg
      viewBox="0 0 640 320"
      role="img"
      aria-labelledby="showroom-map-title"
      className="block h-56 w-full bg-sand-100 sm:h-72"
      preserveAspectRatio="xMidYMid slice"
    >
      <title id="showroom-map-title">{`Map showing ${contact.showroomName}, ${contact.address}`}</title>
      {/* blocks and a park */}
      <rect x="0" y="0" width="640" height="320" className="fill-sand-100" />
      <rect x="40" y="30" width="150" height="90" rx="8" className="fill-sand-200" />
      <rect x="230" y="30" width="120" height="90" rx="8" className="fill-sand-200" />
      <rect x="460" y="190" width="150" height="100" rx="8" className="fill-sand-200" />
      <rect x="40" y="190" width="150" height="100" rx="8" className="fill-sand-200" />
      <rect x="400" y="30" width="210" height="110" rx="12" fill="#dfe8d3" />
      <circle cx="470" cy="80" r="14" fill="#c7d6b6" />
      <circle cx="520" cy="100" r="18" fill="#c7d6b6" />
      <circle cx="570" cy="70" r="12" fill="#c7d6b6" />
      {/* streets */}
      <g fill="none" stroke="#ffffff" strokeLinecap="round">
        <path d="M0 160 H640" strokeWidth="22" />
        <path d="M210 0 V320" strokeWidth="16" />
        <path d="M380 0 V320" strokeWidth="12" />
        <path d="M0 300 C160 260 300 250 640 170" strokeWidth="10" />
      </g>
      <g fill="none" className="stroke-sand-200" strokeDasharray="10 10" strokeWidth="2">
        <path d="M0 160 H640" />
      </g>
      <text x="24" y="152" className="fill-stone-500" fontSize="12" fontFamily="Inter Variable, sans-serif">
        Sindhu Bhavan Road
      </text>
      <text
        x="224"
        y="300"
        className="fill-stone-500"
        fontSize="11"
        fontFamily="Inter Variable, sans-serif"
        transform="rotate(-90 224 300)"
      >
        Bodakdev
      </text>
      {/* the pin */}
      <g transform="translate(300 160)">
        <ellipse cx="0" cy="2" rx="14" ry="5" fill="#000000" opacity="0.15" />
        <path d="M0 0 C-6 -14 -20 -24 -20 -40 A20 20 0 0 1 20 -40 C20 -24 6 -14 0 0 Z" className="fill-wood-600" />
        <circle cx="0" cy="-40" r="7" fill="#ffffff" />
      </g>
      <g transform="translate(300 92)">
        <rect x="-112" y="-24" width="224" height="34" rx="8" fill="#ffffff" className="stroke-sand-200" strokeWidth="1" />
        <text x="0" y="-2" textAnchor="middle" className="fill-ink" fontSize="15" fontWeight="600" fontFamily="Inter Variable, sans-serif">
          {contact.showroomName}
        </text>
      </g>
    </svg>
  );
}
