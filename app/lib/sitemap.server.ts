// The XML of /sitemap.xml (an index) and its child sitemaps (app/routes/sitemaps.$file.ts), and
// how they are answered: an ETag and a 304, cached publicly only when the addresses come from
// PUBLIC_URL (else from the request's Host, which a shared cache must not keep for everyone).
import crypto from "node:crypto";
import { env } from "./env.server";
import { escapeHtml } from "./mail.server";

/**
 * URLs in one child sitemap. The protocol allows 50,000; a smaller page keeps each answer to a
 * few tens of milliseconds on a 100,000-piece catalogue.
 */
export const SITEMAP_PAGE_SIZE = 10_000;

/** The absolute origin the sitemaps name, and whether it is the configured one. */
export function sitemapOrigin(request: Request): { origin: string; configured: boolean } {
  const configured = env.PUBLIC_URL?.replace(/\/+$/, "");
  return configured ? { origin: configured, configured: true } : { origin: new URL(request.url).origin, configured: false };
}

export function urlset(urls: { loc: string; lastmod?: string | null }[]): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n` +
    urls.map((u) => `  <url><loc>${escapeHtml(u.loc)}</loc>${u.lastmod ? `<lastmod>${u.lastmod}</lastmod>` : ""}</url>\n`).join("") +
    `</urlset>\n`
  );
}

export function sitemapIndex(locs: string[]): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n` +
    locs.map((loc) => `  <sitemap><loc>${escapeHtml(loc)}</loc></sitemap>\n`).join("") +
    `</sitemapindex>\n`
  );
}

/** The XML with its ETag; 304 when the client already holds it. */
export function xmlAnswer(request: Request, body: string, configured: boolean): Response {
  const etag = `"${crypto.createHash("sha1").update(body).digest("base64url")}"`;
  const headers = {
    "Content-Type": "application/xml; charset=utf-8",
    "Cache-Control": configured ? "public, max-age=3600, stale-while-revalidate=86400" : "private, max-age=3600",
    ETag: etag,
    "X-Content-Type-Options": "nosniff",
  };
  if (request.headers.get("If-None-Match") === etag) return new Response(null, { status: 304, headers });
  return new Response(body, { headers });
}
