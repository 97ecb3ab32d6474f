// Readiness for a load balancer (docs/api.md): 200 {"status":"ready"} while the database answers,
// every migration of this code has run and the server is not stopping; 503 otherwise, with why
// (app/lib/lifecycle.server.ts). GET /healthz stays the liveness check. Never cached (nor by the
// page cache: scripts/server.mjs sends it straight here), never rate-limited.
import { readiness } from "~/lib/lifecycle.server";

export async function loader() {
  const status = await readiness();
  return new Response(JSON.stringify({ status }), {
    status: status === "ready" ? 200 : 503,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });
}
