// The audit trail as a CSV file: every row the audit page's filters match, newest first, streamed
// a batch at a time (models/audit-read.server's auditBatches), so a large log never sits in memory
// whole. Cells are escaped as the product export's are: a spreadsheet must not run a summary that
// starts with '=' as a formula.
import { stringify } from "csv-stringify/sync";
import type { Db } from "~/lib/db.server";
import { db as defaultDb } from "~/lib/db.server";
import { escapeCell } from "~/models/catalogue/csv-export.server";
import type { AuditEntry } from "~/models/audit.server";
import type { AuditFilters } from "./audit-read.server";
import { auditBatches } from "./audit-read.server";
import { auditActionLabel, auditActorText, auditChangesText, auditObjectText } from "~/utils/audit-format";
import { indianDay } from "~/utils/chart-format";
import { formatDateTime } from "~/utils/dates";

export const AUDIT_CSV_COLUMNS = [
  "Time (IST)",
  "Recorded at (UTC)",
  "Who",
  "Staff ID",
  "Action",
  "Object",
  "Object ID",
  "Summary",
  "Changes",
] as const;

/** One audit row as the file's cells, each escaped. */
export function auditCsvCells(r: AuditEntry): string[] {
  return [
    formatDateTime(r.createdAt),
    r.createdAt,
    auditActorText(r.actor),
    r.staffId === null ? "" : String(r.staffId),
    auditActionLabel(r.action),
    auditObjectText(r.entity, null),
    r.entityId ?? "",
    r.summary,
    auditChangesText(r.details),
  ].map(escapeCell);
}

const lines = (rows: string[][], bom = false) => stringify(rows, { bom, record_delimiter: "windows" });

/** audit-2026-11-29.csv, dated in India's time zone. */
export const auditCsvFileName = (now = new Date()) => `audit-${indianDay(now)}.csv`;

/** The file as a stream of UTF-8 bytes (with a BOM, so Excel reads names right): the header, then each batch as it is read. */
export function auditCsvStream(filters: AuditFilters, db: Db = defaultDb, batch?: number): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const batches = auditBatches(filters, batch, db);
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(lines([[...AUDIT_CSV_COLUMNS]], true)));
        return;
      }
      const next = await batches.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(lines(next.value.map(auditCsvCells))));
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
}
