// An order's own history on its admin page: every change the audit trail recorded to the order,
// its returns and its refunds, oldest first: who made it, when (India's time), the summary and
// what it did to each field (status before → after).
import type { AuditEntry } from "~/models/audit.server";
import { auditActorText, auditChanges, auditObjectText } from "~/utils/audit-format";
import { formatDateTime } from "~/utils/dates";

export function OrderHistory({ entries }: { entries: AuditEntry[] }) {
  return (
    <section aria-labelledby="history-heading" className="card p-5 sm:p-6">
      <h3 id="history-heading" className="text-lg font-semibold">
        History
      </h3>
      {entries.length === 0 ? (
        <p className="mt-2 text-sm text-stone-600">No changes made in the back-office yet.</p>
      ) : (
        <ol className="mt-3 space-y-3 text-sm" data-testid="order-history">
          {entries.map((e) => (
            <li key={e.id} data-testid="order-history-entry">
              <p className="font-medium">
                {e.entity === "order" ? null : <span className="text-stone-600">{auditObjectText(e.entity, e.entityId)}: </span>}
                {e.summary}
              </p>
              {auditChanges(e.details).map((c) => (
                <p key={c.field}>
                  {c.field}: {c.before} → {c.after}
                </p>
              ))}
              <p className="text-stone-600">
                {auditActorText(e.actor)} · <time dateTime={e.createdAt}>{formatDateTime(e.createdAt)}</time>
              </p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
