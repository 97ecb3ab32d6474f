// Readiness for a load balancer (docs/api.md): 200 {"status":"ready"} while the database answers,
// every migration of this code has run and the server is not stopping; 503 otherwise, with why.
// GET /healthz stays the liveness check. Never cached (nor by the page cache: not HTML), never rate-limited.
import { db } from "~/lib/db.server";
import { isShuttingDown } from "~/lib/lifecycle.server";
import { pendingMigrations } from "~/lib/migrate.server";

type Status = "ready" | "shutting-down" | "migrations-pending" | "database-unavailable";

function answer(status: Status) {
  return new Response(JSON.stringify({ status }), {
    status: status === "ready" ? 200 : 503,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });
}

export async function loader() {
  if (isShuttingDown()) return answer("shutting-down");
  try {
    if ((await pendingMigrations(db)).length > 0) return answer("migrations-pending");
  } catch {
    return answer("database-unavailable");
  }
  return answer(isShuttingDown() ? "shutting-down" : "ready");
}
