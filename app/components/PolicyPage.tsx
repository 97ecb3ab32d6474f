import { Link } from "./Link";
import { PageHero } from "~/components/PageHero";
import { POLICY_LINKS, policies } from "~/content/policies";
import type { PolicyId } from "~/content/policies";

/** One policy page: hero with the effective date, numbered sections, links to the other policies. */
export function PolicyPage({ id }: { id: PolicyId }) {
  const policy = policies[id];
  return (
    <>
      <PageHero title={policy.title}>
        <p>{`Effective date: ${policy.effectiveDate}`}</p>
      </PageHero>

      <div className="container-page py-12 sm:py-16">
        <article className="mx-auto max-w-3xl">
          <p className="text-lg leading-relaxed text-stone-700">{policy.intro}</p>

          <ol className="mt-10 list-none space-y-10 p-0">
            {policy.sections.map((section, index) => {
              const headingId = `${id}-section-${index + 1}`;
              return (
                <li key={section.heading}>
                  <section aria-labelledby={headingId}>
                    <h2 id={headingId} className="text-xl font-semibold sm:text-2xl">
                      {index + 1}. {section.heading}
                    </h2>
                    <div className="prose-shop mt-4">
                      {section.paragraphs.map((paragraph) => (
                        <p key={paragraph}>{paragraph}</p>
                      ))}
                    </div>
                  </section>
                </li>
              );
            })}
          </ol>

          <nav aria-label="Policies" className="mt-14 border-t border-sand-200 pt-8">
            <h2 className="text-lg font-semibold">Our policies</h2>
            <ul className="mt-4 flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:gap-3">
              {POLICY_LINKS.map((link) =>
                link.id === id ? (
                  <li key={link.id}>
                    <span
                      aria-current="page"
                      className="inline-flex min-h-11 items-center rounded-lg bg-wood-100 px-4 text-sm font-semibold text-wood-800"
                    >
                      {link.label}
                    </span>
                  </li>
                ) : (
                  <li key={link.id}>
                    <Link to={link.href} className="btn-secondary">
                      {link.label}
                    </Link>
                  </li>
                ),
              )}
            </ul>
          </nav>
        </article>
      </div>
    </>
  );
}
