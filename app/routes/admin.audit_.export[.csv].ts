// GET /admin/audit/export.csv?person=&entity=&entityId=&from=&to=: every audit row the audit page's
// filters match (all pages), newest first, as a CSV download. Owners only ("audit.read"); other
// methods answer 403 (cross-site or not staff) or 405. Streamed a batch at a time.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { auditCsvFileName, auditCsvStream } from "~/models/audit-csv.server";
import { parseAuditFilters } from "~/models/audit-read.server";
import type { RoutePermissions } from "~/utils/staff-permissions";
import { adminOtherMethods } from "~/web/admin.server";
import { requireStaff } from "~/web/staff.server";

export const permissions = { loader: "audit.read", action: "audit.read" } satisfies RoutePermissions;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request, permissions.loader);
  const filters = parseAuditFilters(new URL(request.url));
  return new Response(auditCsvStream(filters), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${auditCsvFileName()}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

export const action = adminOtherMethods(["GET"], permissions.action);
