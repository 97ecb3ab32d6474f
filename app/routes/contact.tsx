import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useState } from "react";
import type { ReactNode } from "react";
import { ContactForm, ThankYouPanel } from "~/components/ContactForm";
import { ClockIcon, FacebookIcon, InstagramIcon, MailIcon, PhoneIcon, PinIcon, TwitterIcon } from "~/components/contact-icons";
import { PageHero } from "~/components/PageHero";
import { ShowroomMap } from "~/components/ShowroomMap";
import { contact, mapsSearchUrl, telHref } from "~/content/contact";
import { useIsPending } from "~/hooks/useIsPending";
import { pageAction } from "~/lib/form.server";
import { parseWith } from "~/lib/http.server";
import { clientOf } from "~/lib/rate-limit.server";
import { redirectWithToast } from "~/lib/toast.server";
import { sendContactMessage } from "~/models/messages.server";
import { CONTACT_FIELD_NAMES } from "~/utils/message-fields";
import { ContactSchema } from "~/utils/schemas";
import { seoMeta, siteUrlFrom } from "~/utils/seo";

/** docs/product.md keeps "Sending..." on screen for 1.5 s before the thank-you panel. */
const THANK_YOU_DELAY_MS = 1500;

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
      const input = parseWith(ContactSchema, Object.fromEntries(CONTACT_FIELD_NAMES.map((f) => [f, form.get(f) ?? ""])));
      await sendContactMessage(input, clientOf(request));
      return redirectWithToast(request, "/contact?sent=1", { type: "success", title: "We'll get back to you shortly" });
    },
    { echo: CONTACT_FIELD_NAMES },
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
                <ContactForm result={actionData} busy={busy} />
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
