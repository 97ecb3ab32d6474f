// The door rules every request meets, one copy for both the production server
// (server/request-gate.ts, before Remix sees the request) and the app (app/lib/http.server.ts,
// for `npm run dev` and as a second line). docs/decisions/0011.

/** Largest body of an ordinary form or JSON request. */
export const MAX_BODY_BYTES = 64 * 1024;
/** Largest image a staff form may upload. */
export const MAX_UPLOAD_BYTES = 2 * 1024 * 1024;
/** Largest body of a staff form (an upload and its fields, or a CSV file of at most 1 MB). */
export const MAX_ADMIN_BODY_BYTES = MAX_UPLOAD_BYTES + 64 * 1024;
/**
 * Largest product photo (app/lib/photos.server.ts): larger than an image upload, since a phone's
 * camera makes 3-8 MB files; the shop resizes it once, and pages never show the file itself.
 */
export const MAX_PHOTO_BYTES = 8 * 1024 * 1024;
/** At most this many photos in one post of the product photos page. */
export const MAX_PHOTOS_PER_POST = 4;
/** Largest body of the product photos page (/admin/products/{id}/photos): its photos and fields. */
export const MAX_PHOTOS_BODY_BYTES = MAX_PHOTOS_PER_POST * MAX_PHOTO_BYTES + 64 * 1024;
const PHOTOS_PATH = /^\/admin\/products\/[0-9]{1,12}\/photos\/?$/;

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The callback URL of Razorpay's redirect flow: the customer's browser posts the payment's signed
 * fields to it from Razorpay's page, another origin. The one path exempt from the same-site rule
 * (for POST only): it writes nothing without a valid payment signature (docs/decisions/0012).
 */
export const PAYMENT_CALLBACK_PATH = "/rzp/payment-callback";

/** Whether a method may change state (and so must come from this site). */
export function changesState(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/** Paths answered in JSON (the API and the payment callbacks). */
export function isApiPath(pathname: string): boolean {
  return pathname.startsWith("/api/") || pathname === "/api" || pathname.startsWith("/rzp/");
}

/** The largest body a path accepts. */
export function bodyLimitFor(pathname: string): number {
  if (PHOTOS_PATH.test(pathname)) return MAX_PHOTOS_BODY_BYTES;
  return pathname === "/admin" || pathname.startsWith("/admin/") ? MAX_ADMIN_BODY_BYTES : MAX_BODY_BYTES;
}

function hostOf(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    return new URL(value).host;
  } catch {
    return "invalid";
  }
}

/** What isSameSite reads of a request. */
export interface SameSiteQuestion {
  method: string;
  pathname: string;
  /** a request header's (first) value by its lower-case name */
  header: (name: string) => string | null | undefined;
  /** whether the request came through a proxy the server trusts */
  trustProxy: boolean;
}

/**
 * Whether a request comes from this site, or is exempt: a safe method, or a call to the API that
 * carries a bearer token and no cookie (a mobile app, not a browser; pages take no token). Otherwise its Origin (or,
 * without one, its Referer) must name the host it was sent to: the Host header, or with
 * `trustProxy` the proxy's X-Forwarded-Host. An Origin of "null" (a sandboxed frame, a
 * redirect across sites) or one that is not a URL is refused.
 */
export function isSameSite({ method, pathname, header, trustProxy }: SameSiteQuestion): boolean {
  if (!changesState(method)) return true;
  if (pathname === PAYMENT_CALLBACK_PATH && method.toUpperCase() === "POST") return true;
  const bearerOnly = isApiPath(pathname) && /^Bearer\s+/i.test(header("authorization") ?? "") && !header("cookie");
  if (bearerOnly) return true;
  const expected = (trustProxy ? header("x-forwarded-host")?.split(",")[0]?.trim() : null) || header("host");
  const origin = header("origin");
  if (origin === "null") return false;
  const source = origin ? hostOf(origin) : hostOf(header("referer"));
  return source === null || source === expected;
}
