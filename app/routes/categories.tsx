import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CategoryCard } from "~/components/CategoryCard";
import { PageHero } from "~/components/PageHero";
import { listCategoriesOrDefaults } from "~/models/catalogue/categories.server";
import { breadcrumbJsonLd, seoMeta, siteUrlFrom } from "~/utils/seo";

export const meta: MetaFunction = ({ matches }) => {
  const siteUrl = siteUrlFrom(matches);
  return seoMeta(siteUrl, {
    title: "Furniture Categories | Sagwan Living",
    description: "Living room, bedroom, dining room, office and outdoor furniture.",
    path: "/categories",
    jsonLd: [
      breadcrumbJsonLd(siteUrl, [
        { name: "Home", path: "/" },
        { name: "Categories", path: "/categories" },
      ]),
    ],
  });
};

export async function loader() {
  return { categories: await listCategoriesOrDefaults() };
}

export default function Categories() {
  const { categories } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHero title="Furniture Categories">Find the right piece for every room of your home.</PageHero>
      <section className="container-page py-12">
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {categories.map((c, i) => (
            <CategoryCard key={c.slug} category={c} eager={i < 2} />
          ))}
        </div>
      </section>
    </>
  );
}
