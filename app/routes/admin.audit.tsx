// Admin: the audit trail (owners only). Every change made in the back-office, newest first: when
// (India's time), who, what, to which object (with a link to it where it can be seen), the summary
// and what it did to each field. Filtered by person, object and days with a plain GET form (works
// without JavaScript), 10 a page like every admin list, and exported whole as CSV.
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { Link } from "~/components/Link";
import { AdminTable, EmptyRow } from "~/components/AdminUI";
import { Pagination } from "~/components/Pagination";
import { ADMIN_PAGE, pageOf, parseListQuery } from "~/lib/paging.server";
import { AUDIT_OBJECTS, auditPeople, listAuditPage, parseAuditFilters, personParam } from "~/models/audit-read.server";
import { auditActionLabel, auditActorText, auditChanges, auditObjectHref, auditObjectText } from "~/utils/audit-format";
import { formatDateTime } from "~/utils/dates";
import type { RoutePermissions } from "~/utils/staff-permissions";
import { adminOtherMethods } from "~/web/admin.server";
import { requireStaff } from "~/web/staff.server";

export const handle = { section: "Audit trail" };
export const meta: MetaFunction = () => [{ title: "Audit trail | Admin | Sagwan Living" }];

export const permissions = { loader: "audit.read", action: "audit.read" } satisfies RoutePermissions;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireStaff(request, permissions.loader);
  const url = new URL(request.url);
  const paging = parseListQuery(url, ADMIN_PAGE);
  const filters = parseAuditFilters(url);
  const [found, people] = await Promise.all([listAuditPage(filters, paging), auditPeople()]);
  // Past the last page: a 404, like every admin list.
  const { rows, info } = pageOf(paging, found);
  const shown = {
    person: personParam(filters.person),
    entity: filters.entity ?? "",
    entityId: filters.entityId ?? "",
    from: filters.from,
    to: filters.to,
  };
  const exportQuery = new URLSearchParams(Object.entries(shown).filter(([, v]) => v !== "")).toString();
  return {
    rows: rows.map((r) => ({
      id: r.id,
      at: formatDateTime(r.createdAt),
      createdAt: r.createdAt,
      who: auditActorText(r.actor),
      action: auditActionLabel(r.action),
      object: auditObjectText(r.entity, r.entityId),
      href: auditObjectHref(r.entity, r.entityId, r.action),
      summary: r.summary,
      changes: auditChanges(r.details),
    })),
    info,
    people,
    objects: Object.entries(AUDIT_OBJECTS).map(([value, label]) => ({ value, label })),
    shown,
    filtered: exportQuery !== "",
    exportHref: `/admin/audit/export.csv${exportQuery ? `?${exportQuery}` : ""}`,
  };
}

/** No form posts here: a post answers 403 without a staff sign-in (as every admin action), else 405. */
export const action = adminOtherMethods(["GET"], permissions.action);

export default function AdminAudit() {
  const { rows, info, people, objects, shown, filtered, exportHref } = useLoaderData<typeof loader>();
  return (
    <div>
      <Form
        method="get"
        className="card grid gap-3 p-4 sm:grid-cols-2 lg:grid-cols-[repeat(5,minmax(0,1fr))_auto]"
        aria-label="Filter the audit trail"
      >
        <label className="text-sm">
          <span className="field-label">Person</span>
          <select name="person" defaultValue={shown.person} className="field-input">
            <option value="">Everyone</option>
            {people.map((p) => (
              <option key={p.value} value={p.value}>
                {p.label}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          <span className="field-label">Object</span>
          <select name="entity" defaultValue={shown.entity} className="field-input">
            <option value="">Everything</option>
            {objects.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          <span className="field-label">Object ID</span>
          <input
            name="entityId"
            defaultValue={shown.entityId}
            maxLength={40}
            inputMode="numeric"
            className="field-input"
            placeholder="e.g. 1042"
          />
        </label>
        <label className="text-sm">
          <span className="field-label">From</span>
          <input type="date" name="from" defaultValue={shown.from} className="field-input" />
        </label>
        <label className="text-sm">
          <span className="field-label">To</span>
          <input type="date" name="to" defaultValue={shown.to} className="field-input" />
        </label>
        <div className="flex items-end gap-2">
          <button type="submit" className="btn-primary">
            Filter
          </button>
          {filtered ? (
            <Link to="/admin/audit" className="btn-ghost">
              Clear
            </Link>
          ) : null}
        </div>
      </Form>
      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-stone-600">Times are India's (IST). The app never edits or deletes these records.</p>
        <a href={exportHref} className="btn-secondary text-sm" download>
          Export CSV
        </a>
      </div>
      <AdminTable label="Audit trail" head={["Time", "Who", "Action", "Object", "Summary", "Changes"]}>
        {rows.length === 0 ? (
          <EmptyRow colSpan={6}>{filtered ? "No changes match these filters." : "No changes recorded yet."}</EmptyRow>
        ) : (
          rows.map((r) => (
            <tr key={r.id} data-testid="audit-row">
              <td className="whitespace-nowrap px-4 py-3">
                <time dateTime={r.createdAt}>{r.at}</time>
              </td>
              <td className="px-4 py-3">{r.who}</td>
              <td className="px-4 py-3">{r.action}</td>
              <td className="whitespace-nowrap px-4 py-3">
                {r.href ? (
                  <Link to={r.href} className="font-medium text-wood-700 underline">
                    {r.object}
                  </Link>
                ) : (
                  r.object
                )}
              </td>
              <td className="px-4 py-3">{r.summary}</td>
              <td className="px-4 py-3">
                {r.changes.length === 0 ? (
                  <span className="text-stone-600">—</span>
                ) : (
                  <ul className="space-y-0.5">
                    {r.changes.map((c) => (
                      <li key={c.field}>
                        <span className="font-medium">{c.field}</span>: {c.before} → {c.after}
                      </li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          ))
        )}
      </AdminTable>
      <Pagination info={info} noun="changes" label="Audit trail" />
    </div>
  );
}
