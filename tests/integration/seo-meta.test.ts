// What search engines read of each storefront page (ADR 0015): title, description, one
// canonical URL, Open Graph tags and JSON-LD, built by utils/seo from the page's own loader data.
import { variantsOf } from "~/models/catalogue/variants.server";
import type { MetaDescriptor } from "@remix-run/node";
import { beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_API_CACHE } from "~/lib/api.server";
import { ready } from "~/lib/boot.server";
import { db } from "~/lib/db.server";
import * as categoryItems from "~/routes/api.category.items";
import * as categoryList from "~/routes/api.category.list";
import * as featured from "~/routes/api.furniture-items.featured";
import * as itemDetail from "~/routes/api.item.detailBySlug";
import * as aboutPage from "~/routes/about";
import * as categoriesPage from "~/routes/categories";
import * as categoryPage from "~/routes/category.$slug";
import * as homePage from "~/routes/_index";
import * as productPage from "~/routes/product.$slug";
import { getRequest, ORIGIN } from "../support/requests";
import { call, routeArgs } from "../support/route-calls";

const SITE = "https://shop.example.in";

beforeAll(async () => {
  await ready;
});

type MetaFn = (args: never) => MetaDescriptor[] | undefined;

/** A page's meta tags as Remix builds them: the route's meta function with its loader's data and the root's siteUrl. */
export function metaOf(meta: MetaFn, data: unknown, extra: Record<string, unknown> = {}): MetaDescriptor[] {
  const matches = [{ id: "root", data: { siteUrl: SITE } }];
  return meta({ data, matches, params: {}, location: { pathname: "/", search: "" }, error: undefined, ...extra } as never) ?? [];
}

export const tag = (tags: MetaDescriptor[], key: string, value: string) =>
  tags.find((t) => (t as Record<string, unknown>)[key] === value) as Record<string, string> | undefined;
export const jsonLd = (tags: MetaDescriptor[]) =>
  tags.flatMap((t) => ("script:ld+json" in t ? [t["script:ld+json"] as Record<string, unknown>] : []));

function expectPageTags(tags: MetaDescriptor[], path: string) {
  const title = (tags.find((t) => "title" in t) as { title: string }).title;
  const description = tag(tags, "name", "description")!.content;
  expect(title).toMatch(/Sagwan Living/);
  expect(description.length).toBeGreaterThan(20);
  expect(tag(tags, "rel", "canonical")).toMatchObject({ tagName: "link", href: `${SITE}${path}` });
  expect(tag(tags, "property", "og:title")!.content).toBe(title);
  expect(tag(tags, "property", "og:description")!.content).toBe(description);
  expect(tag(tags, "property", "og:url")!.content).toBe(`${SITE}${path}`);
  expect(tag(tags, "property", "og:site_name")!.content).toBe("Sagwan Living");
}

describe("storefront pages' meta tags", () => {
  it("home, categories and about: their own title, description, canonical URL and Open Graph tags", async () => {
    expectPageTags(metaOf(homePage.meta as MetaFn, {}), "/");
    expectPageTags(metaOf(aboutPage.meta as MetaFn, {}), "/about");
    const categories = metaOf(categoriesPage.meta as MetaFn, (await call(categoriesPage.loader, getRequest("/categories"))).body);
    expectPageTags(categories, "/categories");
    expect(jsonLd(categories)[0]).toMatchObject({ "@type": "BreadcrumbList" });
  });

  it("a category: page 1 and later pages are their own canonical pages; sorted or filtered views name the category", async () => {
    const load = async (qs: string) => (await call(categoryPage.loader, getRequest(`/category/bedroom${qs}`), { slug: "bedroom" })).body;
    const first = metaOf(categoryPage.meta as MetaFn, await load(""));
    expectPageTags(first, "/category/bedroom");
    expect(tag(first, "property", "og:image")!.content).toMatch(new RegExp(`^${SITE}/`));
    const crumbs = jsonLd(first).find((o) => o["@type"] === "BreadcrumbList") as {
      itemListElement: { position: number; name: string; item: string }[];
    };
    expect(crumbs.itemListElement.map((c) => [c.position, c.name, c.item])).toEqual([
      [1, "Home", `${SITE}/`],
      [2, "Categories", `${SITE}/categories`],
      [3, "Bedroom", `${SITE}/category/bedroom`],
    ]);
    // A later page of the plain list is its own page (the demo's bedroom holds one: its data, as page 3 would have it).
    const page1 = (await load("")) as Record<string, unknown>;
    const page3 = { ...page1, info: { ...(page1.info as object), page: 3 } };
    expect(tag(metaOf(categoryPage.meta as MetaFn, page3), "rel", "canonical")!.href).toBe(`${SITE}/category/bedroom?page=3`);
    expect((metaOf(categoryPage.meta as MetaFn, page3).find((t) => "title" in t) as { title: string }).title).toContain("(Page 3)");
    // A sorted or filtered view names the category itself.
    expectPageTags(metaOf(categoryPage.meta as MetaFn, await load("?sort=price-asc&availability=in-stock")), "/category/bedroom");
  });
});

describe("catalogue API answers a CDN can keep (ETag, 304, stale-while-revalidate)", () => {
  const routes = [
    ["/api/category/list", categoryList.loader],
    ["/api/category/items?slug=bedroom", categoryItems.loader],
    ["/api/furniture-items/featured?pageSize=4", featured.loader],
    ["/api/item/detailBySlug?slug=sheesham-wood-3-seater-sofa", itemDetail.loader],
  ] as const;

  it.each(routes)("%s: public caching with an ETag; If-None-Match answers 304 with no body", async (path, loader) => {
    const first = (await loader(routeArgs(getRequest(path)))) as Response;
    expect(first.status).toBe(200);
    expect(first.headers.get("Cache-Control")).toBe(PUBLIC_API_CACHE);
    expect(first.headers.get("Cache-Control")).toMatch(/stale-while-revalidate=\d+/);
    const etag = first.headers.get("ETag")!;
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    const again = (await loader(routeArgs(getRequest(path, { "If-None-Match": etag })))) as Response;
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("ETag")).toBe(etag);
    // Another tag (what a client held before a change) gets the whole answer.
    const other = (await loader(routeArgs(getRequest(path, { "If-None-Match": 'W/"older"' })))) as Response;
    expect(other.status).toBe(200);
  });

  it("an admin edit changes the ETag, so a client holding the old answer gets the new one; errors are never cached", async () => {
    const path = "/api/category/items?slug=office&pageSize=1";
    const before = (await categoryItems.loader(routeArgs(getRequest(path)))) as Response;
    const etag = before.headers.get("ETag")!;
    const first = (JSON.parse(await before.text()) as { items: { id: number; price: number }[] }).items[0]!;
    await db
      .updateTable("productVariants")
      .set({ price: first.price + 1 })
      .where("itemId", "=", first.id)
      .execute();
    try {
      const after = (await categoryItems.loader(routeArgs(getRequest(path, { "If-None-Match": etag })))) as Response;
      expect(after.status).toBe(200);
      expect(after.headers.get("ETag")).not.toBe(etag);
    } finally {
      await db.updateTable("productVariants").set({ price: first.price }).where("itemId", "=", first.id).execute();
    }
    const missing = (await categoryItems.loader(routeArgs(getRequest("/api/category/items?slug=no-such-category")))) as Response;
    expect(missing.status).toBe(404);
    expect(missing.headers.get("Cache-Control")).toBe("no-store");
    expect(missing.headers.get("ETag")).toBeNull();
  });
});

// The product's JSON-LD is built by the loader, on the request's origin (the root's siteUrl on a
// real request); the other tags here are made with SITE as the root's.
describe("product pages' JSON-LD", () => {
  it("every product page carries a Product whose Offer names its price in INR and its availability, and a BreadcrumbList", async () => {
    const items = await db.selectFrom("items").select(["id", "slug", "price", "stock", "title"]).execute();
    expect(items.length).toBeGreaterThanOrEqual(30);
    for (const item of items) {
      const page = await call(productPage.loader, getRequest(`/product/${item.slug}`), { slug: item.slug });
      const tags = metaOf(productPage.meta as MetaFn, page.body);
      expectPageTags(tags, `/product/${item.slug}`);
      // What the page prints is JSON.stringify of these objects (escaped for HTML): it must come back the same.
      const [product, crumbs] = jsonLd(tags).map((o) => JSON.parse(JSON.stringify(o)) as Record<string, unknown>);
      expect((crumbs as { itemListElement: { item: string }[] }).itemListElement.at(-1)!.item).toBe(`${SITE}/product/${item.slug}`);
      const sold = (await variantsOf(db, item.id))!;
      if (sold.options.length > 0) {
        // Sold in variants: a ProductGroup, each variant on sale a Product with its SKU, its page and its Offer.
        expect(product).toMatchObject({ "@type": "ProductGroup", name: item.title, url: `${ORIGIN}/product/${item.slug}` });
        const variants = product!.hasVariant as { sku: string; url: string; offers: { price: string; availability: string } }[];
        const onSale = sold.variants.filter((v) => v.active);
        expect(variants.map((v) => v.sku)).toEqual(onSale.map((v) => v.sku));
        expect(Math.min(...variants.map((v) => Number(v.offers.price)))).toBe(item.price);
        for (const [i, v] of variants.entries()) {
          expect(v.url).toMatch(new RegExp(`^${ORIGIN}/product/${item.slug}\\?`));
          expect(v.offers.availability).toBe(onSale[i]!.stock > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock");
        }
        expect((product!.variesBy as string[]).length).toBe(sold.options.length);
        continue;
      }
      expect(product).toMatchObject({
        "@context": "https://schema.org",
        "@type": "Product",
        name: item.title,
        url: `${ORIGIN}/product/${item.slug}`,
        offers: {
          "@type": "Offer",
          priceCurrency: "INR",
          price: String(item.price),
          availability: item.stock > 0 ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
        },
      });
    }
  });
});
