import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { seedProducts } from "../../db/seed-data";
import { loader as robots } from "~/routes/robots[.]txt";
import { db, toCount } from "~/lib/db.server";
import { SITEMAP_PAGE_SIZE } from "~/lib/sitemap.server";
import { loader as sitemap } from "~/routes/sitemap[.]xml";
import { loader as childSitemap } from "~/routes/sitemaps.$file";
import { getRequest } from "../support/requests";
import { call } from "../support/route-calls";

beforeAll(async () => {
  await ready;
});

describe("robots.txt and sitemap.xml", () => {
  it("sitemap.xml is an index of child sitemaps that list every page, category and product with absolute URLs, escaped", async () => {
    const index = await call(sitemap, getRequest("/sitemap.xml"));
    expect(index.status).toBe(200);
    expect(index.headers.get("Content-Type")).toContain("application/xml");
    const locs = [...String(index.body).matchAll(/<sitemap><loc>([^<]+)<\/loc><\/sitemap>/g)].map((m) => m[1]!);
    expect(String(index.body)).toContain("<sitemapindex");
    expect(locs[0]).toBe("http://localhost:3000/sitemaps/pages.xml");
    const count = toCount(
      (
        await db
          .selectFrom("items")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(locs.slice(1)).toEqual(
      Array.from(
        { length: Math.max(1, Math.ceil(count / SITEMAP_PAGE_SIZE)) },
        (_, i) => `http://localhost:3000/sitemaps/products-${i + 1}.xml`,
      ),
    );

    let xml = "";
    for (const loc of locs) {
      const file = loc.split("/").at(-1)!;
      const child = await call(childSitemap, getRequest(`/sitemaps/${file}`), { file });
      expect(child.status).toBe(200);
      expect(String(child.body)).toContain("<urlset");
      xml += String(child.body);
    }
    for (const p of seedProducts) expect(xml).toContain(`<loc>http://localhost:3000/product/${p.slug}</loc>`);
    expect(xml).toContain("<loc>http://localhost:3000/category/outdoor</loc>");
    expect(xml).toContain("<loc>http://localhost:3000/t&amp;c</loc>");
    expect(xml).not.toContain("/t&c<");
  });

  it("a child sitemap holds at most SITEMAP_PAGE_SIZE URLs; past the last page and any other name: 404; an ETag answers 304", async () => {
    const past =
      Math.ceil(
        toCount(
          (
            await db
              .selectFrom("items")
              .select((eb) => eb.fn.countAll().as("n"))
              .executeTakeFirstOrThrow()
          ).n,
        ) / SITEMAP_PAGE_SIZE,
      ) + 1;
    for (const file of [
      `products-${past}.xml`,
      "products-0.xml",
      "products-01.xml",
      "products-1.txt",
      "other.xml",
      "products-9999999.xml",
    ]) {
      expect((await call(childSitemap, getRequest(`/sitemaps/${file}`), { file })).status).toBe(404);
    }
    const first = await call(childSitemap, getRequest("/sitemaps/products-1.xml"), { file: "products-1.xml" });
    expect([...String(first.body).matchAll(/<url>/g)].length).toBeLessThanOrEqual(SITEMAP_PAGE_SIZE);
    const etag = first.headers.get("ETag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await call(childSitemap, getRequest("/sitemaps/products-1.xml", { "If-None-Match": etag }), { file: "products-1.xml" });
    expect(again.status).toBe(304);
    // Built from the request's own Host without PUBLIC_URL: never kept by a shared cache.
    expect(first.headers.get("Cache-Control")).toContain("private");
  });

  it("keeps crawlers out of the cart and the API and points at the sitemap", async () => {
    const answer = await call(robots, getRequest("/robots.txt"));
    const text = String(answer.body);
    expect(text).toContain("Disallow: /cart");
    expect(text).toContain("Disallow: /api/");
    expect(text).toContain("Sitemap: http://localhost:3000/sitemap.xml");
  });
});

describe("robots.txt and the Host header", () => {
  it("names the configured PUBLIC_URL whatever Host a request claims; without one, no shared cache keeps it", async () => {
    const { env } = await import("~/lib/env.server");
    const saved = env.PUBLIC_URL;
    try {
      env.PUBLIC_URL = "https://shop.example.in/";
      const configured = await call(robots, getRequest("/robots.txt", { Host: "evil.example" }));
      expect(String(configured.body)).toContain("Sitemap: https://shop.example.in/sitemap.xml");
      expect(configured.headers.get("Cache-Control")).toContain("public");
      env.PUBLIC_URL = undefined;
      const unconfigured = await call(robots, getRequest("/robots.txt"));
      expect(unconfigured.headers.get("Cache-Control")).toContain("private");
    } finally {
      env.PUBLIC_URL = saved;
    }
  });
});
