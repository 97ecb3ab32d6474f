// Illustrations drawn by the app itself (no photos, nothing from outside):
//   /images/products/{slug}.svg  /images/categories/{slug}.svg  /images/hero/{1-3}.svg  /images/avatars/{name}.svg
import crypto from "node:crypto";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { avatarSvg, categorySvg, heroSvg, isCategoryKind, productSvg } from "~/content/illustrations.server";
import type { CategoryKind } from "~/content/illustrations.server";
import { getCategoryById } from "~/models/catalogue/categories.server";
import { getItemBySlug } from "~/models/catalogue/products.server";
import { SlugSchema } from "~/utils/schemas";

const FALLBACK_KIND: CategoryKind = "living-room";

async function render(kind: string, name: string): Promise<string | null> {
  if (kind === "hero") return name === "1" || name === "2" || name === "3" ? heroSvg(Number(name) as 1 | 2 | 3) : null;
  const slug = SlugSchema.safeParse(name);
  if (!slug.success) return null;
  if (kind === "avatars") {
    const initials = slug.data
      .split("-")
      .slice(0, 2)
      .map((p) => p[0] ?? "")
      .join("");
    return avatarSvg(slug.data, initials);
  }
  if (kind === "categories") return categorySvg(isCategoryKind(slug.data) ? slug.data : FALLBACK_KIND);
  if (kind === "products") {
    const item = await getItemBySlug(slug.data);
    if (!item) return null;
    const category = await getCategoryById(item.categoryId);
    const categoryKind = category && isCategoryKind(category.slug) ? category.slug : FALLBACK_KIND;
    return productSvg(categoryKind, item.specifications.Color ?? "", item.slug);
  }
  return null;
}

export async function loader({ params, request }: LoaderFunctionArgs) {
  const match = /^(products|categories|hero|avatars)\/([a-z0-9-]{1,120})\.svg$/.exec(params["*"] ?? "");
  const svg = match ? await render(match[1], match[2]) : null;
  if (!svg) return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain" } });
  const etag = `"${crypto.createHash("sha1").update(svg).digest("base64url")}"`;
  const headers = {
    "Content-Type": "image/svg+xml; charset=utf-8",
    "Cache-Control": "public, max-age=3600, stale-while-revalidate=86400",
    ETag: etag,
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'",
  };
  if (request.headers.get("If-None-Match") === etag) return new Response(null, { status: 304, headers });
  return new Response(svg, { headers });
}
