// /robots.txt: shop pages are public; carts, wishlists, account pages and the API are not for crawlers.
import type { LoaderFunctionArgs } from "@remix-run/node";

export function loader({ request }: LoaderFunctionArgs) {
  const origin = new URL(request.url).origin;
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
  return new Response(body, { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=86400" } });
}
