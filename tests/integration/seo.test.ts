import { beforeAll, describe, expect, it } from "vitest";
import { ready } from "~/lib/boot.server";
import { seedProducts } from "../../db/seed-data";
import { loader as robots } from "~/routes/robots[.]txt";
import { loader as sitemap } from "~/routes/sitemap[.]xml";
import { getRequest } from "../support/requests";
import { call } from "./helpers";

beforeAll(async () => {
  await ready;
});

describe("robots.txt and sitemap.xml", () => {
  it("lists every category and product page with absolute URLs, escaped", async () => {
    const answer = await call(sitemap, getRequest("/sitemap.xml"));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Content-Type")).toContain("application/xml");
    const xml = String(answer.body);
    for (const p of seedProducts) expect(xml).toContain(`<loc>http://localhost:3000/product/${p.slug}</loc>`);
    expect(xml).toContain("<loc>http://localhost:3000/category/outdoor</loc>");
    expect(xml).toContain("<loc>http://localhost:3000/t&amp;c</loc>");
    expect(xml).not.toContain("/t&c<");
  });

  it("keeps crawlers out of the cart and the API and points at the sitemap", async () => {
    const answer = await call(robots, getRequest("/robots.txt"));
    const text = String(answer.body);
    expect(text).toContain("Disallow: /cart");
    expect(text).toContain("Disallow: /api/");
    expect(text).toContain("Sitemap: http://localhost:3000/sitemap.xml");
  });
});

describe("robots.txt and the Host header (security review L4)", () => {
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
