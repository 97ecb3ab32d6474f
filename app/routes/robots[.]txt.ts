// /robots.txt: shop pages are public; carts, wishlists, account pages and the API are not for crawlers.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { env } from "~/lib/env.server";

export function loader({ request }: LoaderFunctionArgs) {
  // The shop's configured address; without one, the address asked for, which a shared cache
  // must then not keep (another Host header would be served to everyone).
  const configured = env.PUBLIC_URL?.replace(/\/+$/, "");
  const origin = configured ?? new URL(request.url).origin;
  const body = [
    "User-agent: *",
    "Disallow: /cart",
    "Disallow: /wishlist",
    "Disallow: /api/",
    "Disallow: /admin",
    "Disallow: /profile",
    "Disallow: /verify-otp",
    "Disallow: /reset-password",
    "Disallow: /checkout",
    "Disallow: /orders",
    "Disallow: /order-confirmation",
    "Disallow: /pay/",
    "Disallow: /rzp/",
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
  const cache = configured ? "public, max-age=86400" : "private, max-age=3600";
  return new Response(body, { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": cache } });
}
