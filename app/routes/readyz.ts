// Readiness for a load balancer (docs/api.md): 200 {"status":"ready"} while the database answers,
// every migration of this code has run, its secrets are the recorded ones, its clock agrees with the
// database's and the server is not stopping; 503 otherwise, with why (app/lib/lifecycle.server.ts).
// GET /healthz stays the liveness check. Not cached by HTTP (nor by the page cache: server/index.ts
// sends it straight here), never rate-limited; the server answers every probe within a second from one
// check (at most one database round trip a second, however many probes), bounded to 2 s.
import { cachedReadiness } from "~/lib/lifecycle.server";

export async function loader() {
  const status = await cachedReadiness();
  return new Response(JSON.stringify({ status }), {
    status: status === "ready" ? 200 : 503,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });
}
