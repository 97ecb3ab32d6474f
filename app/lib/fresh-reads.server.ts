// Reading one's own writes on several servers (ADR 0020). Each server keeps the storefront's
// catalogue reads while its data generation is current (generation-cache.server), and hears of
// another server's writes by a notification that arrives a moment after their commit. A visitor
// whose write went to server A (a helpful vote, a staff member's new variant) and whose next
// request, the redirect or the revalidation that follows it, reaches B within that moment would be
// shown B's answer from before the write: the vote not counted beside "You found this helpful".
//
// So on PostgreSQL the answer to a request that made a write a page may show sets a short cookie,
// and while the browser holds it, its requests read the database and skip what any server keeps.
// It lives as long as a kept answer can (KEPT_AT_MOST_MS): an answer read before the commit is gone
// by the time the cookie is. It holds no secret and no name; a client that sends it on its own
// only makes its own pages read the database. On SQLite (one server) a write moves the generation
// at once and no cookie is needed.
import { KEPT_AT_MOST_MS } from "./generation-cache.server";
import { isSecureRequest } from "./http.server";
import { requestWroteShown } from "./request-context.server";
import { hearsOthersWrites } from "./write-watch.server";

// A bare flag, written and read by hand rather than with Remix's createCookie (whose parse is
// async): the server reads it for every request, before the request's context starts.
export const FRESH_READS_COOKIE = "shop_wrote";

const FRESH_READS_PAIR = new RegExp(`(?:^|;)\\s*${FRESH_READS_COOKIE}=1\\s*(?:;|$)`);

/** Whether a request with this Cookie header reads fresh: its visitor wrote a moment ago. */
export function readsFreshFrom(cookieHeader: string | null | undefined): boolean {
  return Boolean(cookieHeader && FRESH_READS_PAIR.test(cookieHeader));
}

/** The Set-Cookie value for the answer to `request`: only when it made a write a page may show and other servers hear of it late. */
export function freshReadsCookie(request: Request): string | null {
  if (!requestWroteShown() || !hearsOthersWrites()) return null;
  const secure = isSecureRequest(request) ? "; Secure" : "";
  return `${FRESH_READS_COOKIE}=1; Max-Age=${Math.ceil(KEPT_AT_MOST_MS / 1000)}; Path=/; HttpOnly; SameSite=Lax${secure}`;
}
