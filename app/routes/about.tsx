import type { MetaFunction } from "@remix-run/node";
import { Link } from "~/components/Link";
import { PageHero } from "~/components/PageHero";
import { about } from "~/content/about";
import { seoMeta, siteUrlFrom } from "~/utils/seo";

export const meta: MetaFunction = ({ matches }) =>
  seoMeta(siteUrlFrom(matches), { title: "About Us | Sagwan Living", description: about.description, path: "/about" });

export default function AboutRoute() {
  const paragraphs = about.story
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);

  return (
    <>
      <PageHero title={about.title}>
        <p>{about.tagline}</p>
      </PageHero>

      <section aria-labelledby="story-heading" className="container-page py-12 sm:py-16">
        <div className="mx-auto max-w-3xl">
          <h2 id="story-heading" className="text-2xl font-semibold sm:text-3xl">
            Our Story
          </h2>
          <p className="mt-4 text-lg leading-relaxed text-ink">{about.description}</p>
          <div className="prose-shop mt-6">
            {paragraphs.map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
          </div>
        </div>
      </section>

      <section aria-labelledby="vision-heading" className="bg-wood-50 py-12 sm:py-16">
        <div className="container-page">
          <div className="mx-auto max-w-3xl">
            <h2 id="vision-heading" className="text-2xl font-semibold sm:text-3xl">
              Our Vision
            </h2>
            <p className="mt-4 text-lg leading-relaxed text-stone-700">{about.vision}</p>
            <h3 className="mt-8 text-xl font-semibold">Our Values</h3>
            <ol className="mt-4 list-decimal space-y-3 pl-6 text-stone-700 marker:font-semibold marker:text-wood-600">
              {about.values.map((value) => (
                <li key={value} className="pl-2 leading-relaxed">
                  {value}
                </li>
              ))}
            </ol>
          </div>
        </div>
      </section>

      <section aria-labelledby="team-heading" className="container-page py-12 sm:py-16">
        <h2 id="team-heading" className="text-center text-2xl font-semibold sm:text-3xl">
          Meet Our Team
        </h2>
        <ul className="mt-10 grid grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {about.teamMembers.map((member) => (
            <li key={member.name} className="card flex flex-col items-center p-6 text-center">
              <img
                src={member.imgPath}
                alt={member.name}
                width={200}
                height={200}
                loading="lazy"
                decoding="async"
                className="h-40 w-40 rounded-full bg-sand-100 object-cover sm:h-48 sm:w-48"
              />
              <h3 className="mt-4 text-lg font-semibold">{member.name}</h3>
              <p className="mt-1 text-sm text-stone-600">{member.position}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="cta-heading" className="border-t border-sand-200 bg-sand-100 py-12 sm:py-16">
        <div className="container-page text-center">
          <h2 id="cta-heading" className="text-2xl font-semibold sm:text-3xl">
            Furniture made to be lived with
          </h2>
          <p className="mx-auto mt-3 max-w-2xl text-stone-600">
            Have a question, or want to see a piece before you buy? Talk to our team, or explore our collections.
          </p>
          <div className="mt-8 flex flex-col items-center justify-center gap-3 sm:flex-row">
            <Link to="/contact" className="btn-primary w-full sm:w-auto">
              Contact Us
            </Link>
            <Link to="/categories" className="btn-secondary w-full sm:w-auto">
              Browse Collections
            </Link>
          </div>
        </div>
      </section>
    </>
  );
}
