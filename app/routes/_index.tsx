import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/Link";
import { LaterRegion, onDemand } from "~/components/LaterRegion";
import { Carousel } from "~/components/Carousel";
import { CategoryCard } from "~/components/CategoryCard";
import { StarIcon } from "~/components/icons";
import { ProductGrid } from "~/components/ProductCard";
import { pageAction } from "~/lib/form.server";
import { parseWith } from "~/lib/http.server";
import { clientOf } from "~/lib/rate-limit.server";
import { redirectWithToast } from "~/lib/toast.server";
import { storefront } from "~/models/catalogue/storefront.server";
import { subscribe } from "~/models/messages.server";
import { HERO_INTERVAL_MS, heroSlides, testimonials } from "~/utils/home-content";
import { HIGH_PRIORITY } from "~/utils/images";
import { NewsletterSchema } from "~/utils/schemas";
import { seoMeta, siteUrlFrom } from "~/utils/seo";

/** The newsletter form, at the foot of the page: its code loads at the visitor's first interaction (components/LaterRegion). */
const Newsletter = onDemand(import.meta.env.SSR ? (await import("~/components/Newsletter")).Newsletter : null, () =>
  import("~/components/Newsletter").then((m) => m.Newsletter),
);

export const meta: MetaFunction = ({ matches }) =>
  seoMeta(siteUrlFrom(matches), {
    title: "Sagwan Living | Handcrafted Furniture Online in India",
    description: "Shop sofas, beds, dining sets, office and outdoor furniture in solid wood. Free shipping on orders over ₹25,000.",
    path: "/",
  });

export async function loader() {
  const [categories, featured] = await Promise.all([storefront.categoriesOrDefaults(), storefront.featured(4)]);
  return { categories: categories.slice(0, 3), featured: await storefront.cards(featured) };
}

/** The newsletter form. */
export async function action({ request }: ActionFunctionArgs) {
  return pageAction(
    request,
    {
      intents: {
        newsletter: async (form) => {
          const { email } = parseWith(NewsletterSchema, { email: form.get("email") });
          await subscribe(email, clientOf(request));
          return redirectWithToast(request, "/#newsletter", { type: "success", title: "Email added Successfully" });
        },
      },
    },
    { echo: ["email"] },
  );
}

export default function Home() {
  const { categories, featured } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <Carousel
        slides={heroSlides}
        label="Featured collections"
        intervalMs={HERO_INTERVAL_MS}
        className="h-[440px] bg-wood-900 sm:h-[520px]"
        renderSlide={(slide, i, active) => (
          <div className="relative h-full w-full">
            <img
              src={slide.imgPath}
              alt=""
              width={1600}
              height={700}
              loading={i === 0 ? "eager" : "lazy"}
              {...(i === 0 ? HIGH_PRIORITY : {})}
              className="absolute inset-0 h-full w-full object-cover"
            />
            <div className="absolute inset-0 bg-gradient-to-r from-black/75 via-black/55 to-black/35 sm:via-black/40 sm:to-transparent" />
            <div className="container-page relative flex h-full flex-col justify-center pb-10 sm:px-20">
              <h2 className="max-w-xl text-3xl font-semibold text-white sm:text-5xl">{slide.title}</h2>
              <p className="mt-4 max-w-md text-base text-white/90 sm:text-lg">{slide.description}</p>
              <Link to="/categories" tabIndex={active ? undefined : -1} className="btn-primary mt-8 self-start">
                Shop Now
              </Link>
            </div>
          </div>
        )}
      />

      <LaterRegion>
        <section className="container-page py-16">
          <div className="flex flex-wrap items-end justify-between gap-4">
            <div>
              <h2 className="text-3xl font-semibold">Explore Categories</h2>
              <p className="mt-2 text-stone-600">Furniture for every room, made to last.</p>
            </div>
            <Link to="/categories" className="btn-secondary">
              View All Categories
            </Link>
          </div>
          <div className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {categories.map((c) => (
              <CategoryCard key={c.id} category={c} />
            ))}
          </div>
        </section>
      </LaterRegion>

      <LaterRegion>
        <section className="bg-white py-16">
          <div className="container-page">
            <h2 className="text-3xl font-semibold">Featured Products</h2>
            <p className="mt-2 text-stone-600">Customer favourites, chosen by our workshop.</p>
            <div className="mt-8">
              <ProductGrid items={featured} />
            </div>
          </div>
        </section>
      </LaterRegion>

      <LaterRegion>
        <section className="container-page grid items-center gap-10 py-16 lg:grid-cols-2">
          <img
            src="/images/categories/living-room.svg"
            alt="A sofa crafted in our workshop"
            width={800}
            height={600}
            loading="lazy"
            className="aspect-[4/3] w-full rounded-2xl object-cover shadow-sm"
          />
          <div>
            <h2 className="text-3xl font-semibold">Craftsmanship That Lasts</h2>
            <p className="mt-4 leading-relaxed text-stone-700">
              Every piece starts as seasoned sheesham, teak or mango wood, cut and joined by hand in our Gujarat workshop. We use
              mortise-and-tenon joints, not staples, and finish each surface by hand so it ages gracefully with your family.
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <Link to="/about" className="btn-primary">
                Learn About Us
              </Link>
              <Link to="/categories" className="btn-secondary">
                Browse Collections
              </Link>
            </div>
          </div>
        </section>
      </LaterRegion>

      <LaterRegion>
        <section className="bg-wood-50 py-16">
          <div className="container-page">
            <h2 className="text-center text-3xl font-semibold">What Our Customers Say</h2>
            <ul className="mt-10 grid gap-6 md:grid-cols-3">
              {testimonials.map((t) => (
                <li key={t.name} className="card flex flex-col p-6">
                  <div className="flex gap-0.5 text-amber-500" role="img" aria-label="5 out of 5 stars">
                    {[1, 2, 3, 4, 5].map((n) => (
                      <StarIcon key={n} className="h-5 w-5" />
                    ))}
                  </div>
                  <blockquote className="mt-4 flex-1 text-stone-700">“{t.text}”</blockquote>
                  <div className="mt-6 flex items-center gap-3">
                    <img src={t.avatar} alt="" width={48} height={48} loading="lazy" className="h-12 w-12 rounded-full" />
                    <p className="font-semibold">{t.name}</p>
                  </div>
                </li>
              ))}
            </ul>
          </div>
        </section>
      </LaterRegion>

      <LaterRegion demand={Newsletter}>
        <Newsletter.Component actionData={actionData} />
      </LaterRegion>
    </>
  );
}
