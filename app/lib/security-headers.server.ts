// Security headers for every document response. The CSP allows only our own origin and
// the per-request nonce that Remix's scripts carry.
import { env, isProduction } from "./env.server";

/** With Razorpay keys set, Razorpay Checkout's script, frames and calls are allowed too. */
const razorpay = () => Boolean(env.RAZORPAY_KEY_ID && env.RAZORPAY_KEY_SECRET);

export function contentSecurityPolicy(nonce: string): string {
  const rzp = razorpay();
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${isProduction ? "" : " 'unsafe-inline'"}${rzp ? " https://checkout.razorpay.com" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    // Admins may point a product at an image on another https site (docs/product.md: an image URL).
    "img-src 'self' data: https:",
    "font-src 'self' data:",
    `connect-src 'self'${isProduction ? "" : " ws: wss:"}${rzp ? " https://api.razorpay.com https://lumberjack.razorpay.com" : ""}`,
    `frame-src 'self'${rzp ? " https://api.razorpay.com https://checkout.razorpay.com" : ""}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ];
  return directives.join("; ");
}

export function applySecurityHeaders(headers: Headers, nonce?: string) {
  if (nonce) headers.set("Content-Security-Policy", contentSecurityPolicy(nonce));
  headers.set("X-Content-Type-Options", "nosniff");
  // A page carrying a secret in its URL (a staff invitation or reset link) asks for no-referrer
  // itself: kept, it is stricter than the default.
  if (headers.get("Referrer-Policy") !== "no-referrer") headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=(self)");
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  if (isProduction) headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
}
