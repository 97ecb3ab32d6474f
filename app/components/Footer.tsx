import { Link } from "./Link";
import { contact, telHref } from "~/content/contact";
import type { Category } from "~/utils/catalogue";
import { NAV_LINKS } from "./Header";

const POLICIES = [
  { to: "/privacy-policy", label: "Privacy Policy" },
  { to: "/t&c", label: "Terms & Conditions" },
  { to: "/shipping-policy", label: "Shipping Policy" },
];

const SOCIAL = [
  { href: contact.socialMedia.facebook, label: "Facebook" },
  { href: contact.socialMedia.instagram, label: "Instagram" },
  { href: contact.socialMedia.twitter, label: "Twitter" },
];

export function Footer({ categories, year }: { categories: Pick<Category, "slug" | "title">[]; year: number }) {
  const heading = "mb-4 font-display text-base font-semibold text-white";
  const link = "inline-block py-1.5 text-sm text-stone-300 hover:text-white";
  return (
    <footer className="mt-16 bg-wood-900 text-stone-300 print:hidden">
      <div className="container-page grid gap-10 py-12 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <p className="font-display text-xl font-semibold text-white">Sagwan Living</p>
          <p className="mt-3 text-sm leading-relaxed">
            Handcrafted furniture for Indian homes since 2005. Solid woods, honest joinery and designs that last a lifetime.
          </p>
          <ul className="mt-4 flex gap-3" aria-label="Social links">
            {SOCIAL.map((s) => (
              <li key={s.label}>
                <a
                  href={s.href}
                  className="inline-flex min-h-11 items-center rounded-md px-2 text-sm underline-offset-4 hover:text-white hover:underline"
                  rel="noopener noreferrer"
                  target="_blank"
                >
                  {s.label}
                </a>
              </li>
            ))}
          </ul>
        </div>
        <nav aria-label="Quick links">
          <h2 className={heading}>Quick Links</h2>
          <ul>
            {NAV_LINKS.map((l) => (
              <li key={l.to}>
                <Link to={l.to} className={link}>
                  {l.label}
                </Link>
              </li>
            ))}
            <li>
              <Link to="/profile" className={link}>
                My Account
              </Link>
            </li>
            <li>
              <Link to="/cart" className={link}>
                Cart
              </Link>
            </li>
          </ul>
        </nav>
        <nav aria-label="Footer categories">
          <h2 className={heading}>Categories</h2>
          <ul>
            {categories.map((c) => (
              <li key={c.slug}>
                <Link to={`/category/${c.slug}`} className={link}>
                  {c.title}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <h2 className={heading}>Contact</h2>
          <address className="space-y-1 text-sm not-italic leading-relaxed">
            <p>{contact.address}</p>
            <p>
              <a className="hover:text-white" href={telHref(contact.phone)}>
                {contact.phone}
              </a>
            </p>
            <p>
              <a className="hover:text-white" href={`mailto:${contact.email}`}>
                {contact.email}
              </a>
            </p>
          </address>
          <h3 className="mt-5 mb-1 text-sm font-semibold text-white">Business Hours</h3>
          {contact.businessHours.map((line) => (
            <p key={line} className="text-sm">
              {line}
            </p>
          ))}
        </div>
      </div>
      <div className="border-t border-white/10">
        <div className="container-page flex flex-col gap-3 py-6 text-sm sm:flex-row sm:items-center sm:justify-between">
          <p>© {year} Sagwan Living. All rights reserved.</p>
          <ul className="flex flex-wrap gap-x-4">
            {POLICIES.map((p) => (
              <li key={p.to}>
                <Link to={p.to} className={link}>
                  {p.label}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  );
}
