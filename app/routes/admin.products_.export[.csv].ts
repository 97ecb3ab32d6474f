// GET /admin/products/export.csv?q=&category=: the products the list's filters match, as a CSV
// download for the back-office. Admin only; other methods answer 403 (cross-site) or 405.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { adminOtherMethods } from "~/web/admin.server";
import { requireAdmin } from "~/web/visitor.server";
import { exportFileName, exportProductsCsv } from "~/models/catalogue/csv-export.server";
import { parseAdminListQuery } from "~/utils/admin-schemas";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const query = parseAdminListQuery(new URL(request.url));
  const csv = await exportProductsCsv({ q: query.q, category: query.category });
  return new Response(csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${exportFileName()}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

export const action = adminOtherMethods(["GET"]);
