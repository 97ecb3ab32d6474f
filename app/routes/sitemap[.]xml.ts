// /sitemap.xml: an index of the child sitemaps (app/routes/sitemaps.$file.ts): the pages and
// categories, then the products SITEMAP_PAGE_SIZE at a time, so no answer reads the catalogue whole.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { SITEMAP_PAGE_SIZE, sitemapIndex, sitemapOrigin, xmlAnswer } from "~/lib/sitemap.server";
import { countItems } from "~/models/catalogue/products.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const { origin, configured } = sitemapOrigin(request);
  const pages = Math.max(1, Math.ceil((await countItems()) / SITEMAP_PAGE_SIZE));
  const locs = [`${origin}/sitemaps/pages.xml`, ...Array.from({ length: pages }, (_, i) => `${origin}/sitemaps/products-${i + 1}.xml`)];
  return xmlAnswer(request, sitemapIndex(locs), configured);
}
