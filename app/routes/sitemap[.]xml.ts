// /sitemap.xml: every public page, category and product, for search engines. Built from the
// request's own origin, so it is cached privately (a forged Host cannot poison a shared cache).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { escapeHtml } from "~/lib/mail.server";
import { listCategories, listItemSlugs } from "~/models/catalogue.server";

const STATIC_PATHS = ["/", "/categories", "/about", "/contact", "/privacy-policy", "/t&c", "/shipping-policy"];

export async function loader({ request }: LoaderFunctionArgs) {
  const origin = new URL(request.url).origin;
  const [categories, items] = await Promise.all([listCategories(), listItemSlugs()]);
  const urls = [
    ...STATIC_PATHS.map((path) => ({ loc: `${origin}${path}`, lastmod: null as string | null })),
    ...categories.map((c) => ({ loc: `${origin}/category/${c.slug}`, lastmod: null })),
    ...items.map((i) => ({ loc: `${origin}/product/${i.slug}`, lastmod: i.updatedAt.slice(0, 10) })),
  ];
  const body =
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n` +
    urls.map((u) => `  <url><loc>${escapeHtml(u.loc)}</loc>${u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ""}</url>`).join("\n") +
    `\n</urlset>\n`;
  return new Response(body, {
    headers: {
      "Content-Type": "application/xml; charset=utf-8",
      "Cache-Control": "private, max-age=3600",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
