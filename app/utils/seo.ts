// What search engines and link previews read of a storefront page (ADR 0015): its title
// and description, one canonical URL, Open Graph tags, and JSON-LD (schema.org Product and
// BreadcrumbList). One place builds them; each page's meta function calls it.
import type { MetaDescriptor } from "@remix-run/node";
import type { Item } from "./catalogue";

export const SITE_NAME = "Sagwan Living";

/** The root loader's absolute origin (PUBLIC_URL, else the request's), as meta functions see it. */
export function siteUrlFrom(matches: readonly { id: string; data: unknown }[]): string {
  const root = matches.find((m) => m.id === "root")?.data as { siteUrl?: string } | undefined;
  return root?.siteUrl ?? "";
}

export interface PageSeo {
  title: string;
  description: string;
  /** the canonical path with the query parameters that name a distinct page (`/category/x?page=2`) */
  path: string;
  /** a same-site image path for link previews */
  image?: string;
  type?: "website" | "product";
  /** JSON-LD objects (Product, BreadcrumbList) */
  jsonLd?: object[];
}

/** Title, description, canonical link, Open Graph tags and JSON-LD for one page. */
export function seoMeta(siteUrl: string, page: PageSeo): MetaDescriptor[] {
  const url = `${siteUrl}${page.path}`;
  const tags: MetaDescriptor[] = [
    { title: page.title },
    { name: "description", content: page.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:site_name", content: SITE_NAME },
    { property: "og:type", content: page.type ?? "website" },
    { property: "og:title", content: page.title },
    { property: "og:description", content: page.description },
    { property: "og:url", content: url },
    { property: "og:locale", content: "en_IN" },
  ];
  if (page.image) tags.push({ property: "og:image", content: `${siteUrl}${page.image}` });
  for (const object of page.jsonLd ?? []) tags.push({ "script:ld+json": object });
  return tags;
}

/** A page that must not be indexed (carts, accounts, error pages): its title and `noindex`. */
export function privateMeta(title: string): MetaDescriptor[] {
  return [{ title }, { name: "robots", content: "noindex" }];
}

/** schema.org BreadcrumbList of a page's trail, the page itself last. */
export function breadcrumbJsonLd(siteUrl: string, trail: { name: string; path: string }[]): object {
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: trail.map((crumb, i) => ({ "@type": "ListItem", position: i + 1, name: crumb.name, item: `${siteUrl}${crumb.path}` })),
  };
}

/** schema.org Product with its one Offer: the price in INR, whole rupees, and whether it is in stock. */
/** What the structured data reads of a product's options and variants (models/catalogue/variants.server). */
export interface JsonLdVariants {
  options: { name: string; slug: string; values: { id: number; slug: string }[] }[];
  variants: { sku: string; price: number; stock: number; active: boolean; valueIds: number[]; label: string }[];
}

/** schema.org's names for what variants differ in; any other option is named as it is. */
const VARIES_BY: Record<string, string> = {
  colour: "https://schema.org/color",
  color: "https://schema.org/color",
  size: "https://schema.org/size",
  fabric: "https://schema.org/material",
  material: "https://schema.org/material",
  wood: "https://schema.org/material",
  pattern: "https://schema.org/pattern",
};

function offer(url: string, price: number, stock: number) {
  return {
    "@type": "Offer",
    url,
    priceCurrency: "INR",
    price: String(price),
    availability: stock > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
    itemCondition: "https://schema.org/NewCondition",
  };
}

/**
 * A product page's structured data: a Product with its Offer, or, for a product sold in several
 * variants, a ProductGroup whose `hasVariant` lists each variant on sale as a Product with its
 * own SKU, URL (the page with that choice) and Offer.
 */
export function productJsonLd(siteUrl: string, item: Item, category: { title: string } | null, sold?: JsonLdVariants | null): object {
  const specs = item.specifications as Record<string, unknown>;
  const text = (key: string) => (typeof specs[key] === "string" ? (specs[key] as string) : undefined);
  const url = `${siteUrl}/product/${item.slug}`;
  const common = {
    "@context": "https://schema.org",
    name: item.title,
    description: item.description,
    image: `${siteUrl}${item.imgPath}`,
    url,
    brand: { "@type": "Brand", name: SITE_NAME },
    ...(category ? { category: category.title } : {}),
    ...(text("Material") ? { material: text("Material") } : {}),
    ...(text("Color") ? { color: text("Color") } : {}),
    // Only with at least one visible review (a rating of nobody is no rating).
    ...(item.reviewCount > 0 && item.averageRating !== null
      ? {
          aggregateRating: {
            "@type": "AggregateRating",
            ratingValue: item.averageRating.toFixed(1),
            reviewCount: item.reviewCount,
            bestRating: "5",
            worstRating: "1",
          },
        }
      : {}),
  };
  if (!sold || sold.options.length === 0) {
    return { ...common, "@type": "Product", sku: sold?.variants[0]?.sku ?? `FS-${item.id}`, offers: offer(url, item.price, item.stock) };
  }
  return {
    ...common,
    "@type": "ProductGroup",
    productGroupID: item.slug,
    variesBy: sold.options.map((o) => VARIES_BY[o.slug] ?? o.name),
    hasVariant: sold.variants
      .filter((v) => v.active)
      .map((v) => {
        const query = sold.options.map((o, i) => `${o.slug}=${o.values.find((value) => value.id === v.valueIds[i])?.slug ?? ""}`).join("&");
        return {
          "@type": "Product",
          name: `${item.title} — ${v.label}`,
          sku: v.sku,
          image: `${siteUrl}${item.imgPath}`,
          url: `${url}?${query}`,
          offers: offer(`${url}?${query}`, v.price, v.stock),
        };
      }),
  };
}
