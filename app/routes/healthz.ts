import { sql } from "kysely";
import { db } from "~/lib/db.server";

export async function loader() {
  try {
    await sql`select 1`.execute(db);
    return new Response("ok", { headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });
  } catch {
    return new Response("database unavailable", { status: 503, headers: { "Content-Type": "text/plain", "Cache-Control": "no-store" } });
  }
}
