// /sitemaps/pages.xml (the public pages and every category) and /sitemaps/products-N.xml (the
// N-th SITEMAP_PAGE_SIZE products by id), listed by /sitemap.xml. Anything else is a 404.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { SITEMAP_PAGE_SIZE, sitemapOrigin, urlset, xmlAnswer } from "~/lib/sitemap.server";
import { listCategories } from "~/models/catalogue/categories.server";
import { windowOf } from "~/lib/paging.server";
import { listItemSlugsPage } from "~/models/catalogue/products.server";

const STATIC_PATHS = ["/", "/categories", "/about", "/contact", "/privacy-policy", "/t&c", "/shipping-policy"];
const FILE = /^(?:pages|products-([1-9]\d{0,5}))\.xml$/;

const notFound = () => new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const match = FILE.exec(params.file ?? "");
  if (!match) return notFound();
  const { origin, configured } = sitemapOrigin(request);
  if (!match[1]) {
    const categories = await listCategories();
    const urls = [
      ...STATIC_PATHS.map((path) => ({ loc: `${origin}${path}` })),
      ...categories.map((c) => ({ loc: `${origin}/category/${c.slug}` })),
    ];
    return xmlAnswer(request, urlset(urls), configured);
  }
  const page = Number(match[1]);
  const items = await listItemSlugsPage(windowOf(page, SITEMAP_PAGE_SIZE));
  // Page 1 is always there (an empty catalogue lists none); a page past the last is not.
  if (items.length === 0 && page > 1) return notFound();
  const urls = items.map((i) => ({ loc: `${origin}/product/${i.slug}`, lastmod: i.updatedAt.slice(0, 10) }));
  return xmlAnswer(request, urlset(urls), configured);
}
