// GET /admin/products/export.csv?q=&category=: the products the list's filters match, as a CSV
// download for the back-office. Staff who manage the catalogue only; other methods answer 403
// (cross-site, or without the permission) or 405.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { adminOtherMethods } from "~/web/admin.server";
import { requireStaff } from "~/web/staff.server";
import type { RoutePermissions } from "~/utils/staff-permissions";
import { exportFileName, exportProductsCsv } from "~/models/catalogue/csv-export.server";
import { parseAdminListQuery } from "~/utils/admin-schemas";

export const permissions = { loader: "catalogue.write", action: "catalogue.write" } satisfies RoutePermissions;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request, permissions.loader);
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

export const action = adminOtherMethods(["GET"], permissions.action);
